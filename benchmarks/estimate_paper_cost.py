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
from dataclasses import dataclass
from pathlib import Path

import torch
import yaml

from l2relu import engine
from l2relu.configcheck import overlay
from l2relu.jacot2022.sweeps import plateau_widths

REPO = Path(__file__).resolve().parents[1]
# Assumed sustained rates of one data-centre GPU (H100-class) on these small matrix products,
# well under the datasheet peaks (67 TFLOP/s in float64 and float32 without TF32).
GPU_FLOPS = {"float64": 20e12, "float32": 30e12}
# Forward, backward and Adam: about a dozen kernel launches of ~5 us per layer and step.
GPU_STEP_FLOOR_S = 60e-6


@dataclass(frozen=True)
class Job:
    target: str
    name: str
    batch: int  # networks trained together
    widths: tuple[int, ...]  # layer widths, input to output
    n_points: int
    steps: int
    dtype: str = "float64"

    def flops_per_step(self) -> float:
        """Forward (2), backward (4) multiply-adds of every layer's product, every network."""
        weights = sum(a * b for a, b in zip(self.widths[:-1], self.widths[1:], strict=True))
        return 6.0 * self.batch * self.n_points * weights

    def gpu_seconds(self) -> float:
        per_step = max(
            self.flops_per_step() / GPU_FLOPS[self.dtype],
            GPU_STEP_FLOOR_S * (len(self.widths) - 1),
        )
        return per_step * self.steps


def merged_config() -> dict:
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    return overlay(config, yaml.safe_load((REPO / "config/paper.yaml").read_text()))


def steps(phases) -> int:
    return sum(p["steps"] for p in phases)


def training_jobs(c: dict) -> list[Job]:
    jobs = []
    t = c["timor2022"]["theory"]
    deep, teacher = t["deep"], t["teacher"]
    for thm in (4, 5):
        for depth in deep["depths"]:
            widths = (teacher["input_dim"], *[deep["width"]] * (depth - 1), 1)
            n_steps = deep["adam_steps"] + deep["gd_steps"]
            jobs.append(
                Job(
                    "timor2022_theory",
                    f"thm{thm} L={depth}",
                    deep["n_seeds"],
                    widths,
                    teacher["n_points"],
                    n_steps,
                )
            )
    j = c["jacot2022"]
    f1 = j["fig1"]
    jobs.append(
        Job(
            "jacot2022_fig1",
            "GD",
            1,
            (784, f1["width"], f1["width"], len(f1["digits"])),
            f1["n_train"],
            f1["steps"],
        )
    )
    f2 = j["fig2"]
    for width in f2["widths"]:
        m, tt = f2["mnist"], f2["teacher"]
        jobs.append(
            Job(
                "jacot2022_fig2",
                f"mnist w={width}",
                len(m["lams"]) * m["trials"],
                (784, width, width, 10),
                m["n_train"],
                m["adam_steps"] + m["gd_steps"],
            )
        )
        jobs.append(
            Job(
                "jacot2022_fig2",
                f"teacher w={width}",
                len(tt["lams"]) * tt["trials"],
                (tt["widths"][0], width, width, tt["widths"][-1]),
                tt["n_train"],
                tt["adam_steps"] + tt["gd_steps"],
            )
        )
    th = j["theory"]
    for setting, sizes in (
        ("bipartite", th["bipartite_N"]),
        ("onehot", th["onehot_N"]),
        ("oned", th["oned_N"]),
    ):
        for n in sizes:
            d_in, d_out = {
                "bipartite": (n, n),
                "onehot": (n, th["onehot_classes"]),
                "oned": (1, 1),
            }[setting]
            for width in plateau_widths(setting, n, th["onehot_classes"]):
                jobs.append(
                    Job(
                        "jacot2022_theory",
                        f"{setting} N={n}",
                        th["restarts"],
                        (d_in, width, d_out),
                        n,
                        3 * th["steps"],
                    )
                )
    ch = c["chen2024"]["theory"]
    for m, q in ch["dims"]:
        jobs.append(
            Job(
                "chen2024_theory",
                f"M={m} Q={q}",
                ch["gd_restarts"],
                (m, *[m] * q, q),
                q * min(ch["per_class"]),
                ch["gd_adam_steps"] + ch["gd_steps"],
            )
        )
    k = c["jacot2023"]
    task = k["task"]

    def deep_net(depth, width):
        return (task["d_in"], *[width] * (depth - 1), task["d_out"])

    f1 = k["fig1"]
    jobs.append(
        Job(
            "jacot2023_fig1",
            "L=13",
            1,
            deep_net(f1["depth"], f1["width"]),
            f1["n_train"],
            steps(f1["phases"]),
        )
    )
    d = k["depth"]
    for depth in d["depths"]:
        for n in d["n_train"]:
            jobs.append(
                Job(
                    "jacot2023_depth",
                    f"L={depth} N={n}",
                    d["seeds"],
                    deep_net(depth, d["width"]),
                    n,
                    steps(d["phases"]),
                )
            )
    f2 = k["fig2"]
    for depth in (f2["shallow_depth"], f2["deep_depth"]):
        jobs.append(
            Job(
                "jacot2023_fig2",
                f"L={depth}",
                len(f2["lams"]),
                (2, *[f2["width"]] * (depth - 1), f2["classes"]),
                f2["classes"] * f2["per_class"],
                steps(f2["phases"]),
            )
        )
    f3 = k["fig3"]
    for kind in ("deep", "shallow"):
        a = f3["curve"][kind]
        jobs.append(
            Job(
                "jacot2023_fig3",
                f"curve {kind}",
                1,
                (2, *[a["width"]] * (a["depth"] - 1), 2),
                f3["curve"]["n_train"],
                steps(f3["curve"]["phases"]),
            )
        )
        a = f3["mnist"][kind]
        jobs.append(
            Job(
                "jacot2023_fig3",
                f"mnist {kind}",
                1,
                (784, *[a["width"]] * (a["depth"] - 1), 784),
                f3["mnist"]["n_train"],
                steps(f3["mnist"]["phases"]),
                "float32",
            )
        )
    return jobs


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
    config = merged_config()
    jobs = training_jobs(config)
    cpu, gpu, trainings = defaultdict(float), defaultdict(float), defaultdict(set)
    for job in jobs:
        seconds = cpu_seconds_per_step(job) * job.steps
        cpu[job.target] += seconds
        gpu[job.target] += job.gpu_seconds()
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
