"""Measure every training rule's resources at paper shape and write workflow/resources.yaml,
which sets each training job's mem_mb and runtime (workflow/rules/common.smk).

    python benchmarks/measure_resources.py TREE [--write]
    python benchmarks/measure_resources.py --raise-from PAPER_TREE [--write]

TREE is a tree built with `--configfile config/paper.yaml config/paper_shapes.yaml` (every job
at its paper shape, a few steps each; tests/test_paper_shapes.py makes one). Per training rule,
over its jobs:
- peak_mb: the largest peak resident memory (Snakemake's benchmark file, max_rss);
- startup_s: the longest wall time of a job (benchmark file): with a few steps, that is the
  job's start-up, data and analysis;
- step_s: the slowest time per step, from the job's log: the training loops print the step and
  the seconds since the loop started; the rate between two lines of one loop leaves the first
  step's warm-up out (a loop logged once gives its elapsed over its steps).
Prints the table; --write saves it with the machine and date, for the cost table of docs/running.md.

--raise-from reads a tree built at the paper scale itself (its real step counts): a rule whose
slowest job there stepped slower than workflow/resources.yaml says (a few steps at paper shape
can miss what a long run meets: step-halving GD backtracking near the end, a loaded machine)
has its step_s raised to that rate, and the file records the run it came from. A later --write
from a paper-shapes tree replaces the whole file, the raised rates too: run --raise-from again
after it (the script says so when it drops them).
"""

import argparse
import csv
import datetime
import re
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from l2relu.ledger.reference import machine_description

REPO = Path(__file__).resolve().parents[1]
LINE = re.compile(r"\[\w+ step (\d+)/(\d+)\].* elapsed ([\d.]+)s")


def step_seconds(log: Path) -> float | None:
    """The slowest seconds per step in a log, or None without progress lines."""
    rates, first_lines, previous = [], [], None
    for line in log.read_text().splitlines():
        m = LINE.search(line)
        if not m:
            continue
        step, elapsed = int(m.group(1)), float(m.group(3))
        if previous is not None and step > previous[0]:
            rates.append((elapsed - previous[1]) / (step - previous[0]))
        else:  # a loop's first line: its warm-up is in it
            first_lines.append(elapsed / step)
        previous = (step, elapsed)
    if rates:
        return max(rates)
    return max(first_lines) if first_lines else None


def measure(tree: Path) -> dict:
    rules = defaultdict(
        lambda: {"jobs": 0, "peak_mb": 0.0, "startup_s": 0.0, "step_s": 0.0, "per_job": []}
    )
    root = tree / "logs" / "benchmarks"
    for bench in sorted(root.rglob("*.tsv")):
        rule = bench.relative_to(root).parts[0]
        if not rule.startswith("train_"):  # polish jobs count iterations, not steps
            continue
        run = bench.relative_to(root / rule)
        with bench.open() as f:
            row = next(csv.DictReader(f, delimiter="\t"))
        r = rules[rule]
        r["jobs"] += 1
        r["peak_mb"] = max(r["peak_mb"], float(row["max_rss"]))
        r["startup_s"] = max(r["startup_s"], float(row["s"]))
        log = tree / "logs" / run.with_suffix(".log")
        rate = step_seconds(log) if log.exists() else None
        if rate is None:
            sys.exit(f"{rule}: no progress lines in {log}")
        r["step_s"] = max(r["step_s"], rate)
        r["per_job"].append((float(row["s"]), rate))
    return dict(rules)


def cost_table(rules: dict) -> str:
    """The paper scale's training cost per rule, from these measures: each job's own wall time
    at paper shape plus its own step rate times the paper's steps."""
    from scales import scale_config

    from l2relu.startup.experiments import steps_per_job

    steps = steps_per_job(scale_config("paper"))
    lines = [
        "| training rule | jobs | peak MB | start-up s (longest) | s/step (slowest job) "
        "| steps at paper scale | CPU-hours (sum over jobs) |",
        "|---|---|---|---|---|---|---|",
    ]
    total = 0.0
    for name, r in sorted(rules.items()):
        hours = sum(wall + rate * steps[name] for wall, rate in r["per_job"]) / 3600
        total += hours
        lines.append(
            f"| `{name}` | {r['jobs']} | {r['peak_mb']:.0f} | {r['startup_s']:.0f} | "
            f"{r['step_s']:.2g} | {steps[name]:,} | {hours:.2f} |"
        )
    lines.append(f"| all | {sum(r['jobs'] for r in rules.values())} | | | | | {total:.1f} |")
    return "\n".join(lines)


HEADER = (
    "# Each training rule's resources, measured at its paper shape by\n"
    "# benchmarks/measure_resources.py (peak resident MB, wall seconds of a job with a\n"
    "# few steps, seconds per step of its slowest job, one thread unless the rule asks\n"
    "# for more). Jobs ask for these times resources.*_margin times the attempt.\n"
)


def raise_from(paper_tree: Path, write: bool) -> None:
    """Raise each rule's step_s to its slowest rate in a paper-scale tree, where slower."""
    path = REPO / "workflow/resources.yaml"
    document = yaml.safe_load(path.read_text())
    raised = []
    for name, r in sorted(measure(paper_tree).items()):
        known = document["rules"][name]
        rate = float(f"{r['step_s']:.3g}")  # as the file keeps it, so that a rerun raises nothing
        verdict = "raised" if rate > known["step_s"] else "kept"
        print(
            f"{name:36} s/step {known['step_s']:.3g} in resources.yaml, {rate:.3g} "
            f"at paper scale: {verdict}"
        )
        if verdict == "raised":
            known["step_s"] = rate
            raised.append(name)
    document["raised_from_paper_scale"] = {
        "date": datetime.date.today().isoformat(),
        "machine": machine_description(),
        "build": "config/paper.yaml, the targets of reference/paper, --cores 2",
        # with the rules an earlier run raised: their rates are still the raised ones
        "rules": sorted(
            set(document.get("raised_from_paper_scale", {}).get("rules", [])) | set(raised)
        ),
    }
    if write:
        path.write_text(HEADER + yaml.safe_dump(document, sort_keys=False))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path, nargs="?")
    parser.add_argument("--raise-from", type=Path, help="a tree built at paper scale")
    parser.add_argument("--write", action="store_true", help="save workflow/resources.yaml")
    parser.add_argument("--table", action="store_true", help="print the paper-cost table")
    args = parser.parse_args()
    if args.raise_from:
        return raise_from(args.raise_from, args.write)
    if args.tree is None:
        parser.error("a tree built with the paper shapes, or --raise-from")
    rules = measure(args.tree)
    print(f"{'rule':36} {'jobs':>4} {'peak MB':>8} {'start-up s':>10} {'s/step':>10}")
    for name, r in sorted(rules.items()):
        peak, startup, step = r["peak_mb"], r["startup_s"], r["step_s"]
        print(f"{name:36} {r['jobs']:4d} {peak:8.0f} {startup:10.1f} {step:10.2e}")
    if args.table:
        print(cost_table(rules))
    if args.write:
        document = {
            "measured": {
                "date": datetime.date.today().isoformat(),
                "machine": machine_description(),
                "build": "config/paper.yaml + config/paper_shapes.yaml, every target, --cores 2",
            },
            "rules": {
                name: {  # the largest of its jobs
                    "peak_mb": round(r["peak_mb"], 1),
                    "startup_s": round(r["startup_s"], 1),
                    "step_s": float(f"{r['step_s']:.3g}"),
                }
                for name, r in sorted(rules.items())
            },
        }
        path = REPO / "workflow/resources.yaml"
        raised = yaml.safe_load(path.read_text()).get("raised_from_paper_scale")
        if raised and raised["rules"]:
            print(
                f"rates raised from a paper-scale run ({', '.join(raised['rules'])}) are "
                "replaced: run --raise-from with that run's tree again"
            )
        path.write_text(HEADER + yaml.safe_dump(document, sort_keys=False))


if __name__ == "__main__":
    main()
