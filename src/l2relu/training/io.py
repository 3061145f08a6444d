"""Atomic writes (nothing half-written is ever left behind) and run provenance."""

import contextlib
import os
import re
import subprocess
import tempfile
from pathlib import Path

from l2relu import __version__

# Fixed float format: identical numbers give identical bytes, run after run.
FLOAT_FORMAT = "%.12g"


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path beside `path`; move it into place only if the block succeeds.
    A process killed mid-write leaves only a hidden temporary file, never `path`; the next
    write of `path` removes it (one job writes each path, so no other writer is racing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        stale.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_table(df, path) -> None:
    """Write a pandas table as CSV, atomically, with a fixed float format."""
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)


def fail_once(marker) -> None:
    """Tests of an executor's retries: fail when `marker` names a file that does not exist yet,
    after creating it, so that the job's next attempt passes. An empty marker does nothing."""
    if marker and not Path(marker).exists():
        Path(marker).parent.mkdir(parents=True, exist_ok=True)
        Path(marker).touch()
        raise RuntimeError(f"failure injected by fail_once_marker ({marker}); a retry will pass")


def code_version() -> str:
    """Package version plus the git commit of the source tree when there is one."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{__version__}+{commit}" if commit else __version__


def save_checkpoint(path, *, config: dict, seed, arrays: dict) -> None:
    """Save trained parameters with everything needed to know where they came from."""
    import torch

    payload = {
        "config": config,
        "seed": seed,
        "code_version": code_version(),
        "arrays": {k: torch.as_tensor(v) for k, v in arrays.items()},
    }
    with atomic_path(path) as tmp:
        torch.save(payload, tmp)


class CheckpointError(ValueError):
    """A checkpoint that cannot be read as plain data."""


def load_checkpoint(path) -> dict:
    """A checkpoint read as data only (tensors, dicts, lists, strings, numbers): unpickling
    anything else could run code from whoever wrote the file, so such a file is refused."""
    import pickle

    import torch

    try:
        return torch.load(path, weights_only=True)
    except pickle.UnpicklingError as error:
        raise CheckpointError(
            f"{path}: not a checkpoint of plain data, not read (it could run code): "
            f"{_what_was_refused(str(error))}"
        ) from None


def checkpoint_arrays(path) -> tuple[dict, dict]:
    """A checkpoint (load_checkpoint) and its stacked arrays as numpy arrays."""
    checkpoint = load_checkpoint(path)
    return checkpoint, {k: v.numpy() for k, v in checkpoint["arrays"].items()}


def _what_was_refused(message: str) -> str:
    """The object torch's data-only unpickler refused ("Unsupported global: ..."), in one line
    without terminal escapes."""
    message = re.sub(r"\x1b\[[0-9;]*m", "", message)
    found = re.search(r"WeightsUnpickler error: ([^\n]*?\.)(?: |$)", message)
    return found.group(1) if found else message.strip().splitlines()[0]
