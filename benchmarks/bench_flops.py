"""Where a built tree's training time goes, rule by rule: its jobs' seconds (each job's Snakemake
benchmark file), their steps and FLOPs, the FLOP/s they achieved, and beside it the FLOP/s of the
rule's heaviest layer product at its shape, dtype and threads, timed in the same run: the most a
step of that shape could reach. Polishing rules (L-BFGS, float64) show their seconds alone. The
table of docs/performance.md.

    python benchmarks/bench_flops.py TREE [--scale default] [--threads 1]

TREE is a tree built at that scale from nothing (e.g. the one `bench_workflow.py p1 --keep DIR`
leaves: a tree rebuilt in parts keeps benchmark files of jobs no longer in its DAG). A
job's FLOPs are its forward and backward products (Job.flops_per_step) times its steps; its
seconds are the whole job (start-up, data, evaluation and polishing outside the steps are not
FLOPs counted here, so short jobs read low). The one-network trainings run on one thread, the
rest on what the workflow gives them: --threads sets the product's.
"""

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import torch
from scales import scale_config

from l2relu.startup.experiment import Job
from l2relu.startup.experiments import training_jobs


def product_flops(job: Job, repeats: int = 5) -> float:
    """FLOP/s of the job's largest layer product (its networks batched, all its points), the
    median of `repeats` timings of enough products to take 0.2 s."""
    sizes = list(zip(job.widths[:-1], job.widths[1:], strict=True))
    n_in, n_out = max(sizes, key=lambda s: s[0] * s[1])
    dtype = getattr(torch, job.dtype)
    gen = torch.Generator().manual_seed(0)
    w = torch.randn(job.batch, n_out, n_in, generator=gen, dtype=dtype)
    x = torch.randn(job.batch, n_in, job.n_points, generator=gen, dtype=dtype)
    flops = 2.0 * job.batch * n_out * n_in * job.n_points
    torch.bmm(w, x)
    count = 1
    while True:
        start = time.perf_counter()
        for _ in range(count):
            torch.bmm(w, x)
        if time.perf_counter() - start > 0.2:
            break
        count *= 2
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(count):
            torch.bmm(w, x)
        rates.append(flops * count / (time.perf_counter() - start))
    return statistics.median(rates)


def benchmark_times(tree: Path) -> dict[str, tuple[int, float]]:
    """Per rule with benchmark files: (jobs, seconds summed over them)."""
    times = {}
    for folder in sorted((tree / "logs/benchmarks").iterdir()):
        seconds = [float(f.read_text().splitlines()[1].split()[0]) for f in folder.rglob("*.tsv")]
        times[folder.name] = (len(seconds), sum(seconds))
    return times


def rule_table(tree: Path, config: dict) -> list[dict]:
    """A row per rule with benchmark files in `tree`, the longest first; FLOPs for the training
    rules whose jobs' shapes are declared."""
    times = benchmark_times(tree)
    jobs = defaultdict(list)
    for job in training_jobs(config):
        jobs[job.rule].append(job)
    rows = []
    for rule, (n, seconds) in times.items():
        rule_jobs = jobs.get(rule)
        if not rule_jobs:
            rows.append({"rule": rule, "jobs": n, "job_s": seconds})
            continue
        heaviest = max(rule_jobs, key=lambda j: j.flops_per_step() * j.steps)
        flops = sum(j.flops_per_step() * j.steps for j in rule_jobs)
        rows.append(
            {
                "rule": rule,
                "jobs": n,
                "job_s": seconds,
                "steps": sum(j.steps for j in rule_jobs),
                "gflops": flops / 1e9,
                "achieved": flops / seconds,
                "product": product_flops(heaviest),
                "shape": f"{heaviest.batch}x{max(heaviest.widths)}, N {heaviest.n_points}, "
                f"{heaviest.dtype}",
            }
        )
    return sorted(rows, key=lambda r: -r["job_s"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--scale", default="default")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if not (args.tree / "logs/benchmarks").is_dir():
        sys.exit(f"{args.tree} has no benchmark files: build it first")
    torch.set_num_threads(args.threads)
    rows = rule_table(args.tree, scale_config(args.scale))
    print(
        "| rule | jobs | job-seconds | steps | GFLOP | achieved GFLOP/s | same-shape product "
        "GFLOP/s | share | heaviest job (networks x width, points, dtype) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "gflops" not in r:
            print(f"| `{r['rule']}` | {r['jobs']} | {r['job_s']:.0f} | | | | | | |")
            continue
        print(
            f"| `{r['rule']}` | {r['jobs']} | {r['job_s']:.0f} | {r['steps']:,} | "
            f"{r['gflops']:.0f} | {r['achieved'] / 1e9:.2f} | {r['product'] / 1e9:.1f} | "
            f"{r['achieved'] / r['product']:.0%} | {r['shape']} |"
        )
    trained = sum(r["job_s"] for r in rows if r["rule"].startswith("train_"))
    polished = sum(r["job_s"] for r in rows if r["rule"].startswith("polish_"))
    print(
        f"\ntraining {trained:.0f} job-seconds, polishing {polished:.0f}; products timed on "
        f"{args.threads} thread(s)"
    )


if __name__ == "__main__":
    main()
