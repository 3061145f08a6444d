"""Wall-clock goals of the whole workflow, each measured in a fresh clone of this repository and
printed against its goal:

    python benchmarks/bench_workflow.py p1 [--keep DIR]  # the whole default build, --cores all
    python benchmarks/bench_workflow.py p3               # timor2022_fig1 at paper scale, 2 cores
    python benchmarks/bench_workflow.py p5 [--tree DIR]  # no-op dry run; one figure re-rendered
    python benchmarks/bench_workflow.py targets [--keep DIR]  # each default target alone
    python benchmarks/bench_workflow.py tests            # the README's test command (pytest)

p1 also times a yardstick of the machine's speed that day, before and after the build: the bare
PyTorch loop of `bench_engine.py` on a fixed job, jacot2023 Fig. 1's as commit fd3f1ab ran it
(YARDSTICK_JOB, 2 threads), and prints the build time in units of that loop's time for the job's
steps, so that a slow day shows as such and a change to Fig. 1's job does not move the unit;
the job time of every rule, summed over its jobs, from Snakemake's records; and
`bench_flops.py`'s table of the training rules' FLOP/s beside same-shape products.

targets builds the default targets one after another in a fresh clone, each with `--cores all`
(what a reviewer rebuilding one figure waits for; data another target already generated is not
counted again), then the ledger, between two yardsticks.

tests runs pytest, as the README's second command does after its install, in a fresh clone
(with ../shared beside it when this checkout has one) between two yardsticks, and prints its
summary, its slowest tests and its minutes in yardstick units.

p5 times a tree that is already built: DIR (e.g. the one `p1 --keep DIR` leaves), or else a
fresh clone built at smoke scale first (not timed). Run from the repository root, in the
environment the README sets up, on an otherwise idle machine.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import yaml

from l2relu.startup.experiment import Job

REPO = Path(__file__).resolve().parents[1]
SMOKE = ["--configfile", "config/smoke.yaml"]


def fresh_clone(dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(REPO), str(dest)], check=True)
    return dest


def activated() -> dict:
    """This environment's tools first on PATH, as the README's activated environment has them."""
    return os.environ | {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}


def timed_snakemake(tree: Path, *args) -> float:
    env = activated()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"snakemake {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return elapsed


def report(name: str, seconds: float, goal: float, unit: str = "s") -> None:
    scale = 60.0 if unit == "min" else 1.0
    verdict = "meets" if seconds <= goal * scale else "MISSES"
    print(
        f"{name}: {seconds / scale:.2f} {unit} (goal <= {goal:g} {unit}; "
        f"{seconds / (goal * scale):.2f} of it; {verdict} the goal)"
    )


# The yardstick's job, fixed whatever the config later says, so that a change to Fig. 1's job does
# not move the unit: jacot2023 Fig. 1's job as commit fd3f1ab ran it (3 seeds in one batch,
# float64, Adam for 12,000 + 6,000 steps).
YARDSTICK_JOB = Job(
    name="jacot2023 Fig. 1 at fd3f1ab",
    batch=3,
    widths=(50, *[100] * 12, 50),
    n_points=500,
    phases=(("adam", 12000, False), ("adam", 6000, False)),
    loss="mse",
    bias=True,
    dtype="float64",
)


def yardstick() -> tuple[float, int]:
    """Steps/s of the bare loop on the yardstick's job (median of 5 timings of 100 steps), and
    its steps."""
    import torch
    from bench_engine import bare_run

    torch.set_num_threads(2)
    torch.set_flush_denormal(True)
    run = bare_run(YARDSTICK_JOB, "adam", samples_major=False)
    run(3)
    rates = []
    for _ in range(5):
        start = time.perf_counter()
        run(100)
        rates.append(100 / (time.perf_counter() - start))
    return statistics.median(rates), YARDSTICK_JOB.steps


def job_times(tree: Path) -> dict[str, tuple[int, float]]:
    """Per rule: (jobs, seconds summed over its jobs), from Snakemake's per-output records."""
    jobs = {}
    for record in (tree / ".snakemake/metadata").iterdir():
        meta = json.loads(record.read_text())
        if meta.get("starttime") and meta.get("endtime"):
            jobs[meta["job_hash"]] = (meta["rule"], meta["endtime"] - meta["starttime"])
    per_rule = defaultdict(lambda: [0, 0.0])
    for rule, seconds in jobs.values():
        per_rule[rule][0] += 1
        per_rule[rule][1] += seconds
    return {rule: tuple(v) for rule, v in per_rule.items()}


def rules_by_flops(tree: Path) -> str:
    """bench_flops.py's table of the training and polishing rules of `tree`."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks/bench_flops.py"), str(tree)],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout


def p1(keep: str | None) -> None:
    before, yardstick_steps = yardstick()
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_clone(Path(keep) if keep else Path(tmp) / "clone")
        seconds = timed_snakemake(tree, "--cores", "all")
        times = job_times(tree)
        flops_table = rules_by_flops(tree)
    after, _ = yardstick()
    rate = (before + after) / 2
    print(f"{'rule':40} {'jobs':>5} {'job time s':>10}")
    for rule, (n, t) in sorted(times.items(), key=lambda kv: -kv[1][1]):
        print(f"{rule:40} {n:>5} {t:>10.1f}")
    light = [v for r, v in times.items() if not r.startswith(("train_", "compute_", "construct_"))]
    print(
        f"all jobs {sum(t for _, t in times.values()):.0f} s; notebooks, aggregation and "
        f"ledger jobs {sum(t for _, t in light):.0f} s in {sum(n for n, _ in light)} jobs"
    )
    print(
        f"yardstick: bare loop on {YARDSTICK_JOB.name} {before:.1f} steps/s before the "
        f"build, {after:.1f} after; its {yardstick_steps} steps take {yardstick_steps / rate:.0f} s"
    )
    # 30 minutes with every empirical claim over the default 3 seeds (20 with one seed)
    report("P1 whole default build", seconds, 30, "min")
    units = seconds / (yardstick_steps / rate)
    print(f"P1 in yardstick units: {units:.2f} x the bare loop of {YARDSTICK_JOB.name}")
    print(flops_table)


def per_target(keep: str | None) -> None:
    before, yardstick_steps = yardstick()
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_clone(Path(keep) if keep else Path(tmp) / "clone")
        targets = yaml.safe_load((tree / "config/config.yaml").read_text())["targets"]
        times = {target: timed_snakemake(tree, "--cores", "all", target) for target in targets}
        times["the ledger (rule all)"] = timed_snakemake(tree, "--cores", "all")
    after, _ = yardstick()
    unit = yardstick_steps / ((before + after) / 2)
    print(f"{'target':24} {'s':>6} {'min':>5} {'yardstick units':>16}")
    for target, seconds in times.items():
        print(f"{target:24} {seconds:>6.0f} {seconds / 60:>5.1f} {seconds / unit:>16.2f}")
    print(
        f"all {sum(times.values()) / 60:.1f} min; yardstick {before:.1f} steps/s before, "
        f"{after:.1f} after (one unit: {unit:.0f} s)"
    )


def tests() -> None:
    before, yardstick_steps = yardstick()
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_clone(Path(tmp) / "clone")
        if (REPO.parent / "shared").is_dir():  # the papers' texts, as CI has them
            (Path(tmp) / "shared").symlink_to(REPO.parent / "shared")
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
            cwd=tree,
            env=activated() | {"PYTHONPATH": str(tree / "src")},  # the clone's package, not ours
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
    after, _ = yardstick()
    unit = yardstick_steps / ((before + after) / 2)
    durations = proc.stdout.rfind("slowest")
    print(proc.stdout[durations - 40 :] if durations >= 0 else proc.stdout[-3000:] + proc.stderr)
    print(f"yardstick {before:.1f} steps/s before, {after:.1f} after (one unit: {unit:.0f} s)")
    report(f"the README's test command (pytest, exit code {proc.returncode})", seconds, 20, "min")
    print(f"in yardstick units: {seconds / unit:.2f}")


def p3() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_clone(Path(tmp) / "clone")
        seconds = timed_snakemake(
            tree, "--cores", "2", "timor2022_fig1", "--configfile", "config/paper.yaml"
        )
        report("P3 timor2022_fig1 at paper scale, from nothing", seconds, 60)


def p5(tree_arg: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if tree_arg:
            tree, scale = Path(tree_arg), []
        else:
            tree, scale = fresh_clone(Path(tmp) / "clone"), SMOKE
            timed_snakemake(tree, "--cores", "2", *scale)
        no_op = statistics.median(timed_snakemake(tree, "-n", *scale) for _ in range(3))
        report(
            f"P5 no-op dry run ({'default' if tree_arg else 'smoke'} tree, median of 3)", no_op, 3
        )
        figure = "figures/jacot2022_fig2.png"
        seconds = timed_snakemake(tree, "--cores", "2", "--force", figure, *scale)
        report(f"P5 re-render {figure} from cached results", seconds, 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goal", choices=["p1", "p3", "p5", "targets", "tests"])
    parser.add_argument("--keep", help="p1, targets: build in this folder and keep it")
    parser.add_argument("--tree", help="p5: an already built tree to time")
    args = parser.parse_args()
    goals = {
        "p1": lambda: p1(args.keep),
        "p3": p3,
        "p5": lambda: p5(args.tree),
        "targets": lambda: per_target(args.keep),
        "tests": tests,
    }
    goals[args.goal]()


if __name__ == "__main__":
    main()
