"""The GPU a build trains on, settled before its first job (imported at workflow parse time:
keep it light, torch is imported only when the config asks for CUDA).

`device: cuda` on a machine without a CUDA device stops the build with one line, instead of
failing in every training job. `cuda_mps: true` lets the build's training processes share
the GPU through CUDA's Multi-Process Service: their kernels run side by side instead of the
GPU switching between processes, which is what lets the many small paper-scale jobs (a few
kernels a step each) fill one GPU. The daemon is started for the build and stopped after it;
where it is missing or does not work the build goes on without it, and its log says so."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

MPS_CONTROL = "nvidia-cuda-mps-control"
# a process that reaches the GPU through the daemon: MPS that starts but cannot serve is off
PROBE = "import torch; print(float(torch.ones(8, device='cuda').sum()))"
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


def start_mps(directory: Path, log=print, probe: str = PROBE) -> bool:
    """Start an MPS control daemon whose pipes and logs live in `directory`, and point this
    process's environment (inherited by every job it starts) at it. True when a probe process
    reached the GPU through it; otherwise the daemon is stopped again and the environment left
    as it was. `probe`: the probe's Python code."""
    control = shutil.which(MPS_CONTROL)
    if control is None:
        log(f"cuda_mps: {MPS_CONTROL} is not on PATH; the jobs share the GPU without MPS")
        return False
    env = {
        "CUDA_MPS_PIPE_DIRECTORY": str(directory / "pipe"),
        "CUDA_MPS_LOG_DIRECTORY": str(directory / "log"),
    }
    for path in env.values():
        Path(path).mkdir(parents=True, exist_ok=True)
    every = os.environ | env
    try:
        subprocess.run([control, "-d"], env=every, check=True, timeout=20)
        probe = subprocess.run(
            [sys.executable, "-c", probe], env=every, capture_output=True, text=True, timeout=120
        )
    except (subprocess.SubprocessError, OSError) as error:
        log(f"cuda_mps: the daemon did not start ({error}); the jobs share the GPU without MPS")
        return False
    if probe.returncode != 0:
        _quit(control, every)
        last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
        log(f"cuda_mps: no process reached the GPU through it ({last}); going on without MPS")
        return False
    os.environ.update(env)
    _started.update(every)
    log(f"cuda_mps: on, its pipes in {env['CUDA_MPS_PIPE_DIRECTORY']}")
    return True


def stop_mps() -> None:
    """Stop the daemon start_mps() started (nothing when it did not)."""
    control = shutil.which(MPS_CONTROL)
    if control is not None and _started:
        _quit(control, dict(_started))
        _started.clear()


def _quit(control: str, env: dict) -> None:
    subprocess.run([control], input="quit\n", env=env, text=True, timeout=20, check=False)
