"""Speed of the compiled engine on timor2022's Fig. 1 sweep (all networks in one call, as the
workflow runs it), side by side with one network per process (the same kernel, the layout of a
sweep that makes each run its own job) and with one network at a time in plain PyTorch (the loop
a first implementation would write).

    python benchmarks/bench_timor2022_fig1.py [--runs 288] [--steps 3000000] [--sample-steps 20000]

All are timed in this run on the same machine; the per-process layout is timed on
--sample-processes processes and scaled to --runs, the PyTorch loops on a few networks for
--sample-steps steps and scaled linearly (they are linear in both). Prints the ratios.
"""

import argparse
import subprocess
import sys
import time

import torch

from l2relu.timor2022.data import two_points
from l2relu.timor2022.fig1 import VARIANTS, Fig1Config, initial_weights
from l2relu.training import engine, twolayer


def per_network_torch(w0, v0, x, y, lr, steps, loss_scale):
    """Train each network alone with autograd, as nn-style code would."""
    xt, yt = torch.as_tensor(x), torch.as_tensor(y)
    for w_init, v_init in zip(w0, v0, strict=True):
        w = torch.tensor(w_init, requires_grad=True)
        v = torch.tensor(v_init, requires_grad=True)
        for _ in range(steps):
            loss = loss_scale * ((v @ torch.relu(w @ xt) - yt) ** 2).sum()
            gw, gv = torch.autograd.grad(loss, (w, v))
            with torch.no_grad():
                w -= lr * gw
                v -= lr * gv


def batched_torch(w0, v0, x, y, lr, steps):
    """All networks at once in the stacked-tensor PyTorch engine."""
    model = engine.BatchedMLP.from_weights([torch.as_tensor(w0), torch.as_tensor(v0)])
    cfg = engine.TrainConfig(
        loss="mse_half_sum", phases=(engine.Phase("gd", lr, steps),), log_every=0
    )
    engine.train(model, torch.as_tensor(x), torch.as_tensor(y), 0.0, cfg)


ONE_RUN = """
import numpy as np
from l2relu.training import twolayer
from l2relu.timor2022.data import two_points
from l2relu.timor2022.fig1 import Fig1Config, initial_weights
cfg = Fig1Config("paper_text", {seed}, 1, {steps}, 1e-4, 1e-4, 1e-4, (1.0, 0.99), (-1.0, 0.99))
x, y = two_points(cfg.x1, cfg.x2)
w, v = initial_weights(cfg)
twolayer.train(w, v, x, y, lr=cfg.lr, steps=cfg.steps, loss_scale=0.5, threads=1)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=288)
    parser.add_argument("--steps", type=int, default=3_000_000)
    parser.add_argument("--sample-runs", type=int, default=2)
    parser.add_argument("--sample-steps", type=int, default=20_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sample-processes", type=int, default=6)
    args = parser.parse_args()
    torch.set_num_threads(1)

    cfg = Fig1Config(
        "paper_text", 0, args.runs, args.steps, 1e-4, 1e-4, 1e-4, (1.0, 0.99), (-1.0, 0.99)
    )
    x, y = two_points(cfg.x1, cfg.x2)
    w0, v0 = initial_weights(cfg)
    scale = VARIANTS[cfg.variant]["loss_scale"]

    # compile once, outside the timing
    twolayer.train(w0[:1].copy(), v0[:1].copy(), x, y, lr=cfg.lr, steps=1, loss_scale=scale)
    start = time.perf_counter()
    twolayer.train(
        w0.copy(),
        v0.copy(),
        x,
        y,
        lr=cfg.lr,
        steps=cfg.steps,
        loss_scale=scale,
        threads=args.threads,
    )
    engine_s = time.perf_counter() - start

    n = args.sample_runs
    start = time.perf_counter()
    per_network_torch(w0[:n], v0[:n], x, y, cfg.lr, args.sample_steps, scale)
    sample_s = time.perf_counter() - start
    naive_s = sample_s * (args.runs / n) * (args.steps / args.sample_steps)

    start = time.perf_counter()
    batched_torch(w0, v0, x, y, cfg.lr, args.sample_steps)
    batched_s = (time.perf_counter() - start) * (args.steps / args.sample_steps)

    # one network per process: each pays the interpreter start-up and loads the compiled kernel
    start = time.perf_counter()
    for seed in range(args.sample_processes):
        code = ONE_RUN.format(seed=seed, steps=args.steps)
        subprocess.run([sys.executable, "-c", code], check=True)
    per_process_s = (time.perf_counter() - start) * args.runs / args.sample_processes

    print(f"sweep: {args.runs} networks x {args.steps} GD steps, {args.threads} threads")
    print(f"compiled engine          : {engine_s:10.1f} s (measured)")
    print(
        f"one network at a time    : {naive_s:10.1f} s (measured on {n} x {args.sample_steps} "
        f"steps: {sample_s:.2f} s, scaled)"
    )
    print(
        f"batched PyTorch engine   : {batched_s:10.1f} s (measured on {args.sample_steps} "
        "steps, scaled)"
    )
    print(
        f"one network per process  : {per_process_s:10.1f} s (measured on "
        f"{args.sample_processes} processes, scaled)"
    )
    print(f"speed-up, compiled vs one per process: {per_process_s / engine_s:8.0f} x")
    print(f"speed-up, compiled vs one at a time : {naive_s / engine_s:8.0f} x")
    print(f"speed-up, batched vs one at a time  : {naive_s / batched_s:8.0f} x")
    print(f"compiled engine, ns per network-step: {1e9 * engine_s / (args.runs * args.steps):.2f}")


if __name__ == "__main__":
    main()
