"""A training job killed mid-run resumes to the uninterrupted result, with nothing half-written
left behind; a diverging sweep stops early and is shown as failed in the ledger and figure."""

import filecmp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import activated_environment, copy_workflow, snakemake

from l2relu.training import engine

pytestmark = pytest.mark.e2e

RUN = "jacot2022/fig2/teacher/w16_d3_lam1e-06_s0-1"
RUNS = f"results/{RUN}/runs.csv"
LOG = f"logs/{RUN}.log"
# Long enough to be killed in the middle; a save at every step.
LONG_TRAINING = """checkpoint_every_s: 0
jacot2022:
  fig2:
    teacher:
      adam_steps: 3000
      gd_steps: 300
"""


def training_processes(checkout: Path) -> list[int]:
    """PIDs of the training script's processes running in `checkout`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if "train_jacot2022_fig2" in cmdline and Path(cwd) == checkout:
            pids.append(int(entry.name))
    return pids


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def start(checkout: Path, *args) -> subprocess.Popen:
    """Snakemake in the background, as `conftest.snakemake` runs it."""
    return subprocess.Popen(
        [sys.executable, "-m", "snakemake", *args],
        cwd=checkout,
        env=activated_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs Linux's /proc")
def test_a_killed_training_job_resumes_to_the_uninterrupted_result(tmp_path):
    overlay = tmp_path / "long.yaml"
    overlay.write_text(LONG_TRAINING)
    args = ["--cores", "1", RUNS, "--configfile", "config/smoke.yaml", str(overlay)]
    (tmp_path / "reference").mkdir()
    (tmp_path / "killed").mkdir()
    reference = copy_workflow((tmp_path / "reference").resolve())
    snakemake(reference, *args)

    checkout = copy_workflow((tmp_path / "killed").resolve())
    proc = start(checkout, *args)
    deadline = time.time() + 300
    while "[adam step 1000/" not in _read(checkout / LOG):
        assert proc.poll() is None and time.time() < deadline, "training never got going"
        time.sleep(0.2)
    pids = training_processes(checkout)
    assert pids
    for pid in pids:
        os.kill(pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
    assert proc.wait(timeout=120) != 0
    assert not (checkout / RUNS).exists()
    # at most a hidden temporary file of the save being written when the job was killed
    assert all(p.name.startswith(".") for p in checkout.rglob("*.tmp"))
    leftovers = [p for p in (checkout / f"results/{RUN}").rglob("*") if p.is_file()]
    assert leftovers and all(".resume" in str(p) for p in leftovers), leftovers  # saved state

    snakemake(checkout, *args)
    assert "[resumed at step" in _read(checkout / LOG)
    assert filecmp.cmp(checkout / RUNS, reference / RUNS, shallow=False)
    assert not [p for p in (checkout / "results").rglob("*") if ".resume" in p.name]
    assert not list(checkout.rglob("*.tmp"))


def test_a_diverging_sweep_stops_early_and_is_shown_as_failed(workflow_copy, tmp_path):
    overlay = tmp_path / "diverge.yaml"
    # a step of 1e30 per weight: representable in float32 (Fig. 2's type), and three layers of
    # such weights overflow it
    overlay.write_text("jacot2022:\n  fig2:\n    teacher:\n      adam_lr: 1.0e+30\n")
    snakemake(
        workflow_copy,
        "--cores",
        "2",
        "jacot2022_fig2",
        "--configfile",
        "config/smoke.yaml",
        str(overlay),
    )
    runs = pd.read_csv(workflow_copy / "results/jacot2022/fig2/diverged.csv")
    assert set(runs.dataset) == {"teacher"} and len(runs) == 6  # 3 widths x 2 trials
    assert (runs.diverged_step == 1).all()  # the first Adam step overflows
    log = _read(workflow_copy / "logs/jacot2022/fig2/teacher/w16_d3_lam1e-06_s0-1.log")
    # stopped at the first check of the flags, not after the Adam phase's 199 more steps, and
    # no GD or Adam-on steps after it
    assert f"[adam step {engine.CHECK_EVERY}/200] every network diverged" in log
    assert "gd step" not in log and log.count("every network diverged") == 1
    ledger = pd.read_csv(workflow_copy / "results/jacot2022/claims/jacot2022_fig2.csv")
    row = ledger[ledger.claim_id == "jacot2022.fig2.no_divergence"].iloc[0]
    assert row.status == "fail" and row.reproduced_value == "6 (of 18; at step 1)"
    notebook = _read(workflow_copy / "results/notebooks/jacot2022_fig2.ipynb")
    assert (workflow_copy / "figures/jacot2022_fig2.png").stat().st_size > 5_000
    assert "6 run(s) diverged (NaN/inf at step 1), not plotted" in notebook  # the figure's note
