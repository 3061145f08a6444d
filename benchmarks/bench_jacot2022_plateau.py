"""Speed of jacot2022's plateau sweeps (Props. 14-15: the lowest regularized loss at every
hidden width) trained as the workflow does (every width's restarts together, all widths in one
program) against one run per process (one network of one width per job), side by side.

    python benchmarks/bench_jacot2022_plateau.py [--restarts 8] [--steps 1500] [--sample 8]

Both layouts train every network for the same three phases of --steps steps on 1 thread. The
per-process layout runs every --sample-th of its processes and scales its time to all of them.
"""

import argparse

from side_by_side import compare

from l2relu.jacot2022.theory import PlateauConfig, plateau_losses

SETTINGS = {  # the default config's data sets: (setting, N, classes, widths)
    "B_4": ("bipartite", 4, 0, tuple(range(1, 11))),
    "onehot_6": ("onehot", 6, 3, tuple(range(1, 9))),
}

ONE_RUN = """
import torch
from l2relu.jacot2022.theory import PlateauConfig, plateau_losses
torch.set_num_threads(1)
plateau_losses(PlateauConfig({setting!r}, {n}, {classes}, ({width},), 1e-3, 1, {steps}, {seed}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=8)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--sample", type=int, default=8)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    print(f"{args.restarts} restarts per width, 3 x {args.steps} steps each, 1 thread")

    def batched(name):
        setting, n, classes, widths = SETTINGS[name]
        plateau_losses(
            PlateauConfig(setting, n, classes, widths, 1e-3, args.restarts, args.steps, 0)
        )

    def one_run_code(name):
        setting, n, classes, widths = SETTINGS[name]
        return [
            ONE_RUN.format(setting=setting, n=n, classes=classes, width=w, steps=args.steps, seed=r)
            for w in widths
            for r in range(args.restarts)
        ]

    compare("data", list(SETTINGS), batched, one_run_code, sample=args.sample)


if __name__ == "__main__":
    main()
