"""Speed of jacot2022's Fig. 2 width sweep trained batched (every lambda and trial of a width
in one program, as the workflow does) against one run per process (one network per job, the
layout a naive sweep would use), side by side in one run.

    python benchmarks/bench_jacot2022_fig2.py [--widths 4 16 64] [--networks 3] [--steps 300]

Each process of the second layout pays the interpreter and PyTorch start-up, loads the data and
trains one network; both layouts run the same number of steps per network.
"""

import argparse

from side_by_side import compare

from l2relu.jacot2022 import fig2
from l2relu.jacot2022.data import teacher_data

ONE_RUN = """
import torch
from l2relu.jacot2022 import fig2
from l2relu.jacot2022.data import teacher_data
torch.set_num_threads(1)
data = teacher_data(1000, 1000, [50, 10, 10, 10], 0)
cfg = fig2.Fig2Config("teacher", {width}, (1e-6,), 1, 1.0, {steps}, 1e-3, 0, 0.05, 0, {seed})
fig2.run(cfg, data, device="cpu")
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[4, 16, 64])
    # the teacher panel's 3 trials of its one lambda: what one job of the workflow trains
    parser.add_argument("--networks", type=int, default=3, help="lambdas x trials per width")
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    data = teacher_data(1000, 1000, [50, 10, 10, 10], 0)
    print(f"{args.networks} networks per width, {args.steps} Adam steps each, 1 thread")

    def batched(width):
        cfg = fig2.Fig2Config(
            "teacher", width, (1e-6,), args.networks, 1.0, args.steps, 1e-3, 0, 0.05, 0, 0
        )
        fig2.run(cfg, data, device="cpu")

    def one_run_code(width):
        return [
            ONE_RUN.format(width=width, steps=args.steps, seed=seed)
            for seed in range(args.networks)
        ]

    compare("width", args.widths, batched, one_run_code)


if __name__ == "__main__":
    main()
