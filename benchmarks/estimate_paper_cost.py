"""What the paper scale costs, target by target: the number of jobs (Snakemake's dry run of
config/paper.yaml), and the training time estimated from step rates measured here.

    python benchmarks/estimate_paper_cost.py [--threads 2] [--no-jobs]

Every PyTorch training job of the paper scale is rebuilt at its real shape (networks in the
batch, layer widths, data points, float type) and timed for a few Adam steps on this machine's
CPU; its time is that step rate times its steps. The GPU column is a model, not a measurement
(this script never needs a GPU): a step takes the longer of its FLOPs at a sustained rate
(GPU_FLOPS, below) and a floor of kernel launches per layer (GPU_STEP_FLOOR_S). Jobs that do
not train with PyTorch (timor2022's compiled Fig. 1, chen2024's constructions, KRR, the
notebooks) take seconds to minutes on a CPU and are left out of both columns.
"""

import argparse
import re
import subprocess
import sys
import time
from collections import defaultdict

import torch
from scales import REPO, scale_config

from l2relu.startup.experiment import Job
from l2relu.startup.experiments import training_jobs
from l2relu.training import engine

# Assumed sustained rates of one data-centre GPU (H100-class) on these small matrix products,
# well under the datasheet peaks (67 TFLOP/s in float64 and float32 without TF32).
GPU_FLOPS = {"float64": 20e12, "float32": 30e12}
# Forward, backward and Adam: about a dozen kernel launches of ~5 us per layer and step.
GPU_STEP_FLOOR_S = 60e-6


def gpu_seconds(job: Job) -> float:
    per_step = max(
        job.flops_per_step() / GPU_FLOPS[job.dtype],
        GPU_STEP_FLOOR_S * (len(job.widths) - 1),
    )
    return per_step * job.steps


_step_seconds: dict = {}


def cpu_seconds_per_step(job: Job) -> float:
    """Adam steps of this job's shape on the CPU, timed after two warm-up steps."""
    key = (job.batch, job.widths, job.n_points, job.dtype)
    if key not in _step_seconds:
        dtype = getattr(torch, job.dtype)
        gen = torch.Generator().manual_seed(0)
        x = torch.randn(job.widths[0], job.n_points, generator=gen, dtype=torch.float64)
        y = torch.randn(job.widths[-1], job.n_points, generator=gen, dtype=torch.float64)
        model = engine.BatchedMLP(
            engine.NetworkConfig(job.widths, bias=True), range(job.batch), "cpu", dtype
        )

        def run(n):
            cfg = engine.TrainConfig("mse", (engine.Phase("adam", 1e-4, n),), log_every=0)
            start = time.perf_counter()
            engine.train(model, x.to(dtype), y.to(dtype), 1e-4, cfg)
            return time.perf_counter() - start

        run(2)
        per_step = run(2) / 2
        if per_step < 0.05:  # cheap: time more steps for a steadier rate
            per_step = run(40) / 40
        _step_seconds[key] = per_step
    return _step_seconds[key]


def job_counts(targets) -> dict[str, int]:
    """Jobs in the paper-scale DAG of each target (a dry run, nothing is built)."""
    counts = {}
    for target in targets:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "snakemake",
                "-n",
                "-F",
                target,
                "--configfile",
                "config/paper.yaml",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
        counts[target] = int(re.search(r"^total\s+(\d+)", proc.stdout, re.M).group(1))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-jobs", action="store_true", help="skip the dry runs")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    config = scale_config("paper")
    jobs = training_jobs(config)
    cpu, gpu, trainings = defaultdict(float), defaultdict(float), defaultdict(set)
    for job in jobs:
        seconds = cpu_seconds_per_step(job) * job.steps
        cpu[job.target] += seconds
        gpu[job.target] += gpu_seconds(job)
        trainings[job.target].add(job.name)
        print(f"  {job.target:18} {job.name:18} {seconds / 3600:8.3f} CPU-h", file=sys.stderr)
    counts = {} if args.no_jobs else job_counts([*config["targets"], "all"])
    print(
        f"| target | jobs | training jobs | CPU-hours ({args.threads} cores, estimated "
        "from measured step rates) | GPU-hours (modelled) |"
    )
    print("|---|---|---|---|---|")
    for target in config["targets"]:
        n_train = len(trainings.get(target, ()))  # jacot2022's plateau: one job per data set
        cpu_h = f"{cpu[target] / 3600:.2f}" if target in cpu else "-"
        gpu_h = f"{gpu[target] / 3600:.3f}" if target in gpu else "-"
        print(f"| `{target}` | {counts.get(target, '?')} | {n_train} | {cpu_h} | {gpu_h} |")
    print(
        f"| all (shared jobs once) | {counts.get('all', '?')} | | {sum(cpu.values()) / 3600:.1f} | "
        f"{sum(gpu.values()) / 3600:.2f} |"
    )


if __name__ == "__main__":
    main()
