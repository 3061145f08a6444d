"""profiles/slurm against a real single-node SLURM cluster started on this machine (Debian, as
root): two whole targets at smoke scale go through sbatch, one job fails once and is retried."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, copy_workflow

CLUSTER = REPO / "tests" / "slurm" / "local_cluster.sh"
TARGETS = ["timor2022_fig2", "chen2024_fig2"]

needs_root_debian = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("apt-get") is None,
    reason="starting a SLURM cluster needs root on a Debian machine",
)


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    state = tmp_path_factory.mktemp("slurm")
    started = subprocess.run(
        ["bash", str(CLUSTER), "start", str(state)], capture_output=True, text=True, timeout=600
    )
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield state, dict(os.environ)
    finally:
        subprocess.run(["bash", str(CLUSTER), "stop", str(state)], timeout=60)


@needs_root_debian
def test_two_targets_run_through_slurm_and_a_failed_job_is_retried(slurm, tmp_path):
    state, env = slurm
    work = copy_workflow(tmp_path)
    shutil.copytree(REPO / "profiles", work / "profiles")
    marker = "results/.fail_once"
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    proc = subprocess.run(
        [
            sys.executable, "-m", "snakemake", "--profile", "profiles/slurm", *TARGETS, "claims",
            "--configfile", "config/smoke.yaml",
            "--config", f"fail_once_marker={marker}", f"targets={TARGETS}",
            # no accounting daemon here: job states come from squeue
            "--slurm-status-command", "squeue",
            "--slurm-init-seconds-before-status-checks", "2",
            "--slurm-no-account",
        ],
        cwd=work, env=env, capture_output=True, text=True, timeout=1500,
    )  # fmt: skip
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    for target in TARGETS:
        assert (work / "figures" / f"{target}.png").exists()
    assert (work / "results" / "claims.csv").exists() and (work / marker).exists()
    # every job went through SLURM: the ids Snakemake reports are in SLURM's own completion log
    submitted = set(re.findall(r"SLURM jobid (\d+)", log))
    completions = (state / "jobcomp.txt").read_text().splitlines()
    jobs = {
        line.split("JobId=")[1].split()[0]: line.split("JobState=")[1].split()[0]
        for line in completions
        if f"WorkDir={work}" in line
    }
    assert submitted and submitted == set(jobs), (submitted, jobs)
    states = list(jobs.values())
    assert states.count("FAILED") == 1, jobs  # the injected failure, once
    # one job a target (its table; its notebook is a local rule, run where Snakemake runs)
    # and the ledger's retry
    assert states.count("COMPLETED") == len(TARGETS) + 1, jobs


def test_a_slurm_run_without_slurm_stops_before_any_job(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    copy_workflow(work)
    shutil.copytree(REPO / "profiles", work / "profiles")
    # a PATH with this environment's tools and a shell, but no SLURM command
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "sh", "which", "env", "cat", "uname", "git"):
        if shutil.which(tool):
            (tools / tool).symlink_to(shutil.which(tool))
    path = os.path.dirname(sys.executable) + os.pathsep + str(tools)
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--profile", "profiles/slurm", "timor2022_fig2",
         "--configfile", "config/smoke.yaml"],
        cwd=work, env=os.environ | {"PATH": path}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "needs SLURM's sbatch, and none is on PATH" in proc.stdout + proc.stderr
    assert not (work / "results").exists() and not (work / "logs").exists()
