"""Speed of jacot2022's Fig. 2 width sweep trained batched (every lambda and trial of a width
in one program, as the workflow does) against one run per process (one network per job, the
layout a naive sweep would use), side by side in one run.

    python benchmarks/bench_jacot2022_fig2.py [--widths 4 16 64] [--networks 8] [--steps 300]

Each process of the second layout pays the interpreter and PyTorch start-up, loads the data and
trains one network; both layouts run the same number of steps per network.
"""

import argparse
import subprocess
import sys
import time

from l2relu.jacot2022 import fig2

ONE_RUN = """
import torch
from l2relu.jacot2022 import fig2
torch.set_num_threads(1)
data = fig2.teacher_data(1000, 1000, [50, 10, 10, 10], 0)
cfg = fig2.Fig2Config("teacher", {width}, (1e-6,), 1, 1.0, {steps}, 1e-3, 0, 0.05, 0, {seed})
fig2.run(cfg, data, device="cpu")
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--networks", type=int, default=8, help="lambdas x trials per width")
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    data = fig2.teacher_data(1000, 1000, [50, 10, 10, 10], 0)
    print(f"{args.networks} networks per width, {args.steps} Adam steps each, 1 thread")
    print(f"{'width':>6} {'batched s':>10} {'one per process s':>18} {'speed-up':>9}")
    total_b = total_p = 0.0
    for width in args.widths:
        start = time.perf_counter()
        cfg = fig2.Fig2Config(
            "teacher", width, (1e-6,), args.networks, 1.0, args.steps, 1e-3, 0, 0.05, 0, 0
        )
        fig2.run(cfg, data, device="cpu")
        batched = time.perf_counter() - start
        start = time.perf_counter()
        for seed in range(args.networks):
            code = ONE_RUN.format(width=width, steps=args.steps, seed=seed)
            subprocess.run([sys.executable, "-c", code], check=True)
        separate = time.perf_counter() - start
        total_b, total_p = total_b + batched, total_p + separate
        print(f"{width:>6} {batched:>10.2f} {separate:>18.2f} {separate / batched:>8.1f}x")
    print(f"{'all':>6} {total_b:>10.2f} {total_p:>18.2f} {total_p / total_b:>8.1f}x")


if __name__ == "__main__":
    main()
