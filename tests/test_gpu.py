"""The GPU command (profiles/gpu): a build that insists on CUDA where there is none stops
before its first job; the MPS daemon it shares the GPU through is started for the build, used
only when a process reaches the GPU through it, and stopped after. (The paper DAG runs through
the profile in tests/test_paper_shapes.py.)"""

import os
import re
import shutil
import subprocess
import sys

import pytest
import torch
from conftest import REPO, copy_workflow

from l2relu.startup import gpu


@pytest.fixture
def fake_control(tmp_path, monkeypatch):
    """An nvidia-cuda-mps-control on PATH that records each call (its arguments and stdin)."""
    calls = tmp_path / "calls.txt"
    tool = tmp_path / "bin" / gpu.MPS_CONTROL
    tool.parent.mkdir()
    tool.write_text(f'#!/bin/sh\n{{ echo "args:$*"; [ "$*" = -d ] || cat; }} >> {calls}\n')
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tool.parent}{os.pathsep}{os.environ['PATH']}")
    for key in ("CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY"):
        monkeypatch.delenv(key, raising=False)  # restored as they were after the test
    yield calls
    gpu._started.clear()  # a test that started a daemon and did not stop it leaves none behind


def test_mps_is_started_for_the_build_and_stopped_after(fake_control, tmp_path):
    said = []
    probe = "import sys; assert sys.argv[1].endswith('nvidia-cuda-mps-control')"
    assert gpu.start_mps(tmp_path / "mps", log=said.append, probe=probe)
    assert os.environ["CUDA_MPS_PIPE_DIRECTORY"] == str(tmp_path / "mps" / "pipe")
    assert (tmp_path / "mps" / "pipe").is_dir() and "cuda_mps: on" in said[-1]
    assert fake_control.read_text() == "args:-d\n"
    gpu.stop_mps(log=said.append)
    assert fake_control.read_text() == "args:-d\nargs:\nquit\n"
    gpu.stop_mps(log=said.append)  # a second stop has no daemon to quit
    assert fake_control.read_text().count("quit") == 1


def test_mps_that_serves_no_process_is_stopped_and_left_off(fake_control, tmp_path):
    said = []
    probe = "import sys; sys.exit('CUDA error: no CUDA-capable device is detected')"
    assert not gpu.start_mps(tmp_path / "mps", log=said.append, probe=probe)
    assert "CUDA_MPS_PIPE_DIRECTORY" not in os.environ
    assert fake_control.read_text() == "args:-d\nargs:\nquit\n"
    assert "no process reached the GPU through it" in said[-1]
    assert "no CUDA-capable device" in said[-1]
    gpu.stop_mps(log=said.append)  # nothing of ours to stop
    assert fake_control.read_text().count("quit") == 1


def test_a_daemon_left_by_a_killed_build_is_stopped_first(fake_control, tmp_path):
    (tmp_path / "mps" / "pipe").mkdir(parents=True)  # a killed build's daemon
    assert gpu.start_mps(tmp_path / "mps", log=lambda line: None, probe="pass")
    gpu.stop_mps(log=lambda line: None)
    assert fake_control.read_text() == "args:\nquit\nargs:-d\nargs:\nquit\n"
    # one place per working directory, whatever its spelling
    assert gpu.mps_directory(tmp_path) == gpu.mps_directory(tmp_path / ".")
    assert gpu.mps_directory(tmp_path) != gpu.mps_directory(tmp_path / "mps")


def test_a_daemon_that_does_not_quit_is_said_not_raised(fake_control, tmp_path, monkeypatch):
    said = []
    assert gpu.start_mps(tmp_path / "mps", log=said.append, probe="pass")

    def hangs(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], 20)

    monkeypatch.setattr(gpu.subprocess, "run", hangs)
    gpu.stop_mps(log=said.append)
    assert "did not answer 'quit'" in said[-1]


def test_mps_missing_leaves_the_build_without_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    said = []
    assert not gpu.start_mps(tmp_path / "mps", log=said.append)
    assert "not on PATH" in said[-1] and not (tmp_path / "mps").exists()


def test_cuda_is_a_problem_only_where_it_is_missing():
    assert gpu.cuda_problem("cpu") is None and gpu.cuda_problem("auto") is None
    problem = gpu.cuda_problem("cuda")
    assert (problem is None) == torch.cuda.is_available()


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA device")
def test_the_gpu_profile_without_a_gpu_stops_before_any_job(tmp_path):
    copy_workflow(tmp_path)
    shutil.copytree(REPO / "profiles", tmp_path / "profiles")
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--profile", "profiles/gpu", "--cores", "1",
         "timor2022_fig2", "--configfile", "config/smoke.yaml"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "config key device: 'cuda', but PyTorch finds no CUDA device" in output, output[-2000:]
    assert not (tmp_path / "results").exists() and not (tmp_path / "logs").exists()


def _with_profiles(tree):
    tree.mkdir(exist_ok=True)
    copy_workflow(tree)
    shutil.copytree(REPO / "profiles", tree / "profiles")
    return tree


def _planned_jobs(tree, *args) -> dict[str, int]:
    """Snakemake's job stats of a dry run from nothing: jobs per rule."""
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--forceall", "--quiet", "rules", *args],
        cwd=tree, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\w+) +(\d+)$", proc.stdout, re.M)}


def test_the_gpu_profile_builds_the_paper_scale(tmp_path):
    """One command: the profile's jobs are the paper scale's, every target of it."""
    tree = _with_profiles(tmp_path)
    planned = _planned_jobs(tree, "--profile", "profiles/gpu")
    assert planned["total"] > 200 and planned["train_jacot2023_fig1"] == 1
    assert planned == _planned_jobs(tree, "--configfile", "config/paper.yaml")
    assert planned != _planned_jobs(tree)  # not the default scale's


def test_a_build_with_cuda_mps_starts_the_daemon_and_goes_on_without_it(fake_control, tmp_path):
    """The build's start-up hook runs the daemon's start: here no process reaches a GPU through
    the stand-in, so the daemon is stopped again, the log says why, and the build goes on."""
    tree = _with_profiles(tmp_path / "tree")
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--profile", "profiles/gpu", "--cores", "2",
         "timor2022_fig2", "--configfile", "config/smoke.yaml",
         "--config", "device=auto", "cuda_mps=True"],
        cwd=tree, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert "cuda_mps: no process reached the GPU through it" in output
    calls = fake_control.read_text()
    assert calls.startswith("args:-d\n") and calls.endswith("quit\n"), calls
    assert (tree / "figures/timor2022_fig2.png").exists()
