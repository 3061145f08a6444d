"""Speed of jacot2023's depth sweep with the seeds of a (depth, N) cell trained together in one
program (as the workflow does) against one seed per process (one network per job), side by
side in one run.

    python benchmarks/bench_jacot2023_depth.py [--depths 2 6 13] [--seeds 4] [--steps 300]

Both layouts train the same networks for the same number of Adam steps on the same task
(width 50, N = 500, float32, 1 thread); each process of the second pays the interpreter and
PyTorch start-up.
"""

import argparse

from side_by_side import compare

from l2relu.jacot2023.data import LatentTask
from l2relu.jacot2023.regression import FitConfig, fit
from l2relu.training.engine import Phase

TASK = dict(latent=15, d_in=50, d_out=50, true_rank=4, width=100, seed=0)
ONE_RUN = """
import torch
from l2relu.training.engine import Phase
from l2relu.jacot2023.data import LatentTask
from l2relu.jacot2023.regression import FitConfig, fit
torch.set_num_threads(1)
cfg = FitConfig({depth}, 50, 500, 0.05, (Phase("adam", 3e-3, {steps}),), ({seed},), log_every=0)
fit(LatentTask(**{task}), cfg, device="cpu")
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[2, 6, 13])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    task = LatentTask(**TASK)
    print(f"{args.seeds} seeds per depth, {args.steps} Adam steps each, 1 thread")

    def batched(depth):
        phases = (Phase("adam", 3e-3, args.steps),)
        cfg = FitConfig(depth, 50, 500, 0.05, phases, tuple(range(args.seeds)), log_every=0)
        fit(task, cfg, device="cpu")

    def one_run_code(depth):
        return [
            ONE_RUN.format(depth=depth, steps=args.steps, seed=seed, task=TASK)
            for seed in range(args.seeds)
        ]

    compare("depth", args.depths, batched, one_run_code)


if __name__ == "__main__":
    main()
