"""Wall time per target of a build in which several targets ran side by side, read from the
build's Snakemake logs (.snakemake/log/*.snakemake.log): each job's start and end, and, for
each target, the jobs of its own DAG (a dry run of it alone with --forceall, under the same
config) that ran in that build.

    python benchmarks/target_times.py LOG... -- SNAKEMAKE_ARGS...
    python benchmarks/target_times.py .snakemake/log/*.log -- --configfile config/paper.yaml

Prints a markdown table: per build and target, its jobs that ran, the job-seconds they took,
and when its last one ended, counted from the build's first job (targets ran together, so this
is the time to the target in that build, not the time it would take alone).
"""

import re
import subprocess
import sys
from datetime import datetime

from scales import REPO

STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ [\d:]+ \d{4})\]$")
RULE = re.compile(r"^(?:local)?rule (\w+):$")
FINISHED = re.compile(r"^Finished jobid: (\d+) \(Rule: (\w+)\)$")
FIELD = re.compile(r"^\s+(output|jobid): (.*)$")


def jobs_of_log(text: str) -> dict:
    """{jobid: {rule, outputs, start, end}} of one build's log (a job not ended has no end)."""
    jobs, when, current = {}, None, None
    for line in text.splitlines():
        if m := STAMP.match(line):
            when = datetime.strptime(m[1], "%a %b %d %H:%M:%S %Y")
        elif m := RULE.match(line):
            current = {"rule": m[1], "outputs": set(), "start": when, "end": None}
        elif current is not None and (m := FIELD.match(line)):
            if m[1] == "output":
                current["outputs"] = set(m[2].split(", "))
            else:
                jobs[int(m[2])] = current
                current = None
        elif m := FINISHED.match(line):
            jobs[int(m[1])]["end"] = when
    return jobs


def dag_outputs(target: str, snakemake_args: list[str]) -> set[str]:
    """Every output of every job of `target` built alone from nothing (a dry run)."""
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--forceall", *snakemake_args, "--", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {f for m in re.finditer(r"^\s+output: (.*)$", out, re.M) for f in m[1].split(", ")}


def main(argv):
    split = argv.index("--") if "--" in argv else len(argv)
    logs, snakemake_args = argv[:split], argv[split + 1 :]
    print("| build | target | jobs | job-seconds | last job ended (s after the build's start) |")
    print("|---|---|---|---|---|")
    dags = {}
    for log in logs:
        text = open(log).read()
        jobs = jobs_of_log(text)
        if not jobs:
            continue
        start = min(j["start"] for j in jobs.values())
        # the build's targets: its command line's config `targets`
        targets = re.search(r"^  Command: .*targets=\[([^\]]*)\]", text, re.M)
        for target in sorted(targets[1].split(",") if targets else []):
            if target not in dags:  # one dry run a target, whatever the logs
                dags[target] = dag_outputs(target, snakemake_args)
            dag = dags[target]
            ran = [j for j in jobs.values() if j["outputs"] & dag or j["rule"] == target]
            ended = [j for j in ran if j["end"]]
            if not ended:
                continue
            seconds = sum((j["end"] - j["start"]).total_seconds() for j in ended)
            last = max(j["end"] for j in ended) - start
            print(
                f"| {log.rsplit('/', 1)[-1][:19]} | `{target}` | {len(ran)} | {seconds:.0f} | "
                f"{last.total_seconds():.0f} |"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
