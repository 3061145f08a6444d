"""Wall-clock goals of the whole workflow, each measured in a fresh clone of this repository and
printed against its goal:

    python benchmarks/bench_workflow.py p1 [--keep DIR]  # the whole default build, --cores all
    python benchmarks/bench_workflow.py p3               # timor2022_fig1 at paper scale, 2 cores
    python benchmarks/bench_workflow.py p5 [--tree DIR]  # no-op dry run; one figure re-rendered

p5 times a tree that is already built: DIR (e.g. the one `p1 --keep DIR` leaves), or else a
fresh clone built at smoke scale first (not timed). Run from the repository root, in the
environment the README sets up, on an otherwise idle machine.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMOKE = ["--configfile", "config/smoke.yaml"]


def fresh_clone(dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(REPO), str(dest)], check=True)
    return dest


def timed_snakemake(tree: Path, *args) -> float:
    env = os.environ | {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
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


def p1(keep: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_clone(Path(keep) if keep else Path(tmp) / "clone")
        report("P1 whole default build", timed_snakemake(tree, "--cores", "all"), 30, "min")


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
    parser.add_argument("goal", choices=["p1", "p3", "p5"])
    parser.add_argument("--keep", help="p1: build in this folder and keep it")
    parser.add_argument("--tree", help="p5: an already built tree to time")
    args = parser.parse_args()
    {"p1": lambda: p1(args.keep), "p3": p3, "p5": lambda: p5(args.tree)}[args.goal]()


if __name__ == "__main__":
    main()
