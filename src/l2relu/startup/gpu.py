"""The GPU a build trains on, settled before its first job (imported at workflow parse time:
keep it light, torch is imported only when the config asks for CUDA).

`device: cuda` on a machine without a CUDA device stops the build with one line, instead of
failing in every training job. `cuda_mps: true` lets the build's training processes share
the GPU through CUDA's Multi-Process Service: their kernels run side by side instead of the
GPU switching between processes, which is what lets the many small paper-scale jobs (a few
kernels a step each) fill one GPU. The daemon is started for the build and stopped after it;
where it is missing or does not serve a process, the build goes on without it, and its log
says so."""

import atexit
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MPS_CONTROL = "nvidia-cuda-mps-control"
# A process that reaches the GPU and, while it holds its CUDA context, asks the daemon (argv[1])
# for its servers: a CUDA program that cannot reach the daemon runs without MPS, silently, so
# only a server serving it shows that MPS is in use.
PROBE = """import subprocess, sys, torch
torch.ones(8, device="cuda").sum().item()
servers = subprocess.run([sys.argv[1]], input="get_server_list\\n", capture_output=True,
                         text=True, timeout=20).stdout.split()
sys.exit(0 if servers else "no MPS server serves a CUDA process")
"""
_started: dict = {}  # the environment of the daemon this process started, if any


def cuda_problem(device: str) -> str | None:
    """One line when `device` insists on CUDA and PyTorch finds none; else None."""
    if device != "cuda":
        return None
    import torch

    if torch.cuda.is_available():
        return None
    return (
        "config key device: 'cuda', but PyTorch finds no CUDA device on this machine "
        f"(torch {torch.__version__}, built for CUDA {torch.version.cuda}); use device: auto "
        "or cpu, or run where a GPU is visible"
    )


def mps_directory(workdir: Path) -> Path:
    """Where the daemon of a build in `workdir` keeps its pipes and logs: one place per user
    and working directory, so that a later build there finds a daemon a killed one left."""
    key = hashlib.sha1(str(workdir.resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"l2relu-mps-{os.getuid()}-{key}"


def start_mps(directory: Path, log=print, probe: str = PROBE) -> bool:
    """Start an MPS control daemon whose pipes and logs live in `directory` (first stopping one
    left there by a build that was killed), and point this process's environment (inherited by
    every job it starts) at it. True when the probe (Python code, given the control program
    as argv[1]) succeeds through it; otherwise the daemon is stopped again and the environment
    left as it was. The daemon is stopped when this process exits, if not before."""
    control = shutil.which(MPS_CONTROL)
    if control is None:
        log(f"cuda_mps: {MPS_CONTROL} is not on PATH; the jobs share the GPU without MPS")
        return False
    env = {
        "CUDA_MPS_PIPE_DIRECTORY": str(directory / "pipe"),
        "CUDA_MPS_LOG_DIRECTORY": str(directory / "log"),
    }
    every = os.environ | env
    if (directory / "pipe").exists():
        _quit(control, every, log)  # a daemon of a build that was killed
    for path in env.values():
        Path(path).mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run([control, "-d"], env=every, check=True, timeout=20)
    except (subprocess.SubprocessError, OSError) as error:
        log(f"cuda_mps: the daemon did not start ({error}); the jobs share the GPU without MPS")
        return False
    try:
        result = subprocess.run(
            [sys.executable, "-c", probe, control],
            env=every,
            capture_output=True,
            text=True,
            timeout=120,
        )
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        failed = None if result.returncode == 0 else last
    except (subprocess.SubprocessError, OSError) as error:
        failed = str(error)
    if failed is not None:
        _quit(control, every, log)
        log(f"cuda_mps: no process reached the GPU through it ({failed}); going on without MPS")
        return False
    os.environ.update(env)
    _started.update(every)
    atexit.register(stop_mps)
    log(f"cuda_mps: on, its pipes in {env['CUDA_MPS_PIPE_DIRECTORY']}")
    return True


def stop_mps(log=print) -> None:
    """Stop the daemon start_mps() started (nothing when it did not, or did already)."""
    control = shutil.which(MPS_CONTROL)
    if control is not None and _started:
        _quit(control, dict(_started), log)
        _started.clear()


def _quit(control: str, env: dict, log) -> None:
    """Ask the daemon to quit; a daemon that does not answer is said, not raised: the build's
    own outcome stands."""
    try:
        subprocess.run([control], input="quit\n", env=env, text=True, timeout=20, check=False)
    except (subprocess.SubprocessError, OSError) as error:
        log(f"cuda_mps: the daemon did not answer 'quit' ({error})")
