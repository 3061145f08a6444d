"""The training engine against a bare PyTorch loop of the same network, rule by rule, side by
side in one run:

    python benchmarks/bench_engine.py [--scales default paper] [--threads 2] [--rounds 3]

For every PyTorch training rule and scale, the rule's most expensive job (networks per job,
widths, depth, data points, loss, float type) is rebuilt with random data and timed in each
optimizer phase the rule runs: `engine.train` (divergence flags, halving GD, progress lines:
everything the workflow uses) against a bare loop (forward, loss + lam ||theta||^2, backward(),
torch.optim.Adam.step() or p -= lr * grad) in both layouts, features-major (W @ X, X of shape
d x N) and samples-major (X @ W^T, X of shape N x d), a plain matrix product where the job has
one network and a batched one otherwise. A halving-GD phase is timed against plain GD: the
halving is work of the algorithm, counted against the engine. The three take turns for
`--rounds` rounds (these machines are shared: a slow spell hits all three alike); a timing
counts the steps after a call's first (what engine.train pays once per call, set-up and its
final evaluation, is paid once per job of thousands of steps in the workflow); a phase's
ratio is the median over rounds of the engine's time over the faster bare loop's, and the
rule's ratio weighs its phases by their steps. Goal: engine time / faster bare time <= 1.15
for every rule.
"""

import argparse
import statistics
import time

import torch
import torch.nn.functional as F
from scales import scale_config

from l2relu.startup.experiment import Job
from l2relu.startup.experiments import training_jobs
from l2relu.training import engine

GOAL = 1.15
SECONDS = 0.25  # aim of one timing; cheap steps are repeated until they take about this long
# ... and slow ones take at least this many: at paper shape a step can take 0.1 s, and timings of
# 4 steps moved one rule's ratio between 1.04 and 1.21 from run to run
MIN_STEPS = 12
LR = {"adam": 1e-4, "gd": 1e-4}
LAM = 1e-4


def data(job: Job):
    gen = torch.Generator().manual_seed(0)
    dtype = getattr(torch, job.dtype)
    x = torch.randn(job.widths[0], job.n_points, generator=gen, dtype=torch.float64).to(dtype)
    if job.loss == "cross_entropy":
        y = torch.randint(job.widths[-1], (job.n_points,), generator=gen)
    elif job.loss == "logistic":
        y = torch.randint(2, (job.n_points,), generator=gen).to(dtype) * 2 - 1
    else:
        y = torch.randn(job.widths[-1], job.n_points, generator=gen, dtype=torch.float64).to(dtype)
    return x, y


def engine_run(job: Job, optimizer: str, halving: bool):
    x, y = data(job)
    model = engine.BatchedMLP(
        engine.NetworkConfig(job.widths, bias=job.bias),
        range(job.batch),
        "cpu",
        getattr(torch, job.dtype),
    )

    def run(steps):
        phase = engine.Phase(optimizer, LR[optimizer], steps, halve_on_rise=halving)
        config = engine.TrainConfig(job.loss, (phase,), dtype=job.dtype, log_every=0)
        engine.train(model, x, y, LAM, config, log=lambda _: None)

    return run


def bare_run(job: Job, optimizer: str, samples_major: bool):
    """A bare loop of the job's networks: stacked (B, ...) tensors and batched products, or
    plain 2-D tensors when the job has one network."""
    x, y = data(job)
    dtype, batch = getattr(torch, job.dtype), job.batch
    gen = torch.Generator().manual_seed(1)
    lead = (batch,) if batch > 1 else ()
    weights, biases = [], []
    for d_in, d_out in zip(job.widths[:-1], job.widths[1:], strict=True):
        shape = (d_in, d_out) if samples_major else (d_out, d_in)
        w = torch.randn(*lead, *shape, generator=gen, dtype=torch.float64) * (2 / d_in) ** 0.5
        weights.append(w.to(dtype).requires_grad_())
        if job.bias:
            shape = (1, d_out) if samples_major else (d_out, 1)
            biases.append(torch.zeros(*lead, *shape, dtype=dtype, requires_grad=True))
    params = weights + biases
    h0 = x.T.contiguous() if samples_major else x
    target = y.T.contiguous() if samples_major and y.dim() == 2 else y
    opt = torch.optim.Adam(params, lr=LR["adam"]) if optimizer == "adam" else None

    def loss_of(out):
        if samples_major:  # (..., N, d_k) -> (..., d_k, N), a view
            out = out.transpose(-1, -2)
        if job.loss == "cross_entropy":
            logits = out.reshape(-1, *out.shape[-2:]).transpose(1, 2).reshape(-1, out.shape[-2])
            return F.cross_entropy(logits, y.repeat(batch), reduction="sum") / job.n_points
        if job.loss == "logistic":
            return F.softplus(-y * out[..., 0, :]).sum() / job.n_points
        squares = (out - (target.T if samples_major else target)) ** 2
        return squares.sum() * (0.5 if job.loss == "mse_half_sum" else 1 / job.n_points)

    def run(steps):
        for _ in range(steps):
            h = h0
            for layer, w in enumerate(weights):
                h = torch.matmul(h, w) if samples_major else torch.matmul(w, h)
                if biases:
                    h = h + biases[layer]
                if layer < len(weights) - 1:
                    h = torch.relu(h)
            objective = loss_of(h) + LAM * sum((p**2).sum() for p in params)
            for p in params:
                p.grad = None
            objective.backward()
            if opt is not None:
                opt.step()
            else:
                with torch.no_grad():
                    for p in params:
                        p -= LR["gd"] * p.grad

    return run


def step_rate(run, steps: int) -> float:
    """Steps per second of `run` beyond its first step: (steps - 1) / (t(steps) - t(1)), so that
    what a call pays once (engine.train's set-up and its final evaluation, once per job in the
    workflow) does not count against a timing of a few slow steps."""
    start = time.perf_counter()
    run(1)
    one = time.perf_counter() - start
    start = time.perf_counter()
    run(steps)
    return (steps - 1) / max(time.perf_counter() - start - one, 1e-9)


def paired_rates(runners: dict, rounds: int) -> tuple[dict, float]:
    """Steps per second of each runner (median over rounds) and the median over rounds of the
    engine's time over the faster bare layout's in the same round: the runners take turns, each
    going first in its round, so that a slower spell of a shared machine hits all alike."""
    steps = {}
    for name, run in runners.items():  # warm-up, which also sets the steps of one timing
        run(2)
        start = time.perf_counter()
        run(3)
        per_step = (time.perf_counter() - start) / 3
        steps[name] = max(MIN_STEPS, min(2000, int(SECONDS / max(per_step, 1e-6))))
    rates = {name: [] for name in runners}
    names = list(runners)
    for turn in range(rounds):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:  # each goes first
            rates[name].append(step_rate(runners[name], steps[name]))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    # the faster layout by its median: the larger of two noisy rates in each round would favour
    # the bare loop by the noise alone
    bare = max(("fm", "sm"), key=medians.get)
    ratios = [b / e for b, e in zip(rates[bare], rates["engine"], strict=True)]
    return medians, statistics.median(ratios)


def heaviest_jobs(scale: str) -> dict[str, Job]:
    """Per rule, its job with the most arithmetic (steps x FLOPs per step)."""
    by_rule = {}
    for job in training_jobs(scale_config(scale)):
        by_rule.setdefault(job.rule, []).append(job)
    return {
        rule: max(jobs, key=lambda job: job.steps * job.flops_per_step())
        for rule, jobs in by_rule.items()
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", nargs="+", default=["default", "paper"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--rules", nargs="*", help="only these rules")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    print(
        f"{args.threads} threads; steps/s, median of {args.rounds} rounds taken in turns; "
        "bare fm = features-major, sm = samples-major"
    )
    header = (
        f"{'scale':8} {'rule':28} {'job':16} {'B':>3} {'dtype':7} {'phase':12} "
        f"{'engine':>8} {'bare fm':>8} {'bare sm':>8} {'ratio':>6}"
    )
    print(header)
    worst = 0.0
    for scale in args.scales:
        for rule, job in heaviest_jobs(scale).items():
            if args.rules and rule not in args.rules:
                continue
            engine_s = bare_s = 0.0  # the rule's time for its steps, phase by phase
            kinds = {(opt, halving): 0 for opt, _, halving in job.phases}
            for opt, steps, halving in job.phases:
                kinds[opt, halving] += steps
            for (opt, halving), steps in kinds.items():
                rates, ratio = paired_rates(
                    {
                        "engine": engine_run(job, opt, halving),
                        "fm": bare_run(job, opt, samples_major=False),
                        "sm": bare_run(job, opt, samples_major=True),
                    },
                    args.rounds,
                )
                engine_s += steps / rates["engine"]
                bare_s += steps / rates["engine"] / ratio
                phase = opt + (" halving" if halving else "")
                print(
                    f"{scale:8} {rule:28} {job.name:16} {job.batch:>3} {job.dtype:7} {phase:12} "
                    f"{rates['engine']:>8.1f} {rates['fm']:>8.1f} {rates['sm']:>8.1f} "
                    f"{ratio:>5.2f}x",
                    flush=True,
                )
            ratio = engine_s / bare_s
            worst = max(worst, ratio)
            verdict = "meets" if ratio <= GOAL else "MISSES"
            print(
                f"{scale:8} {rule:28} {'(the rule)':16} {'':>3} {'':7} {'all phases':12} "
                f"{'':>8} {'':>8} {'':>8} {ratio:>5.2f}x  {verdict} <= {GOAL}",
                flush=True,
            )
    print(f"worst rule: {worst:.2f}x (goal <= {GOAL}x)")


if __name__ == "__main__":
    main()
