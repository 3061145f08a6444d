"""What a training job asks a scheduler for, from its rule's measures at paper shape."""

import math


def asked(measured: dict, steps: int, memory_margin: float, runtime_margin: float, attempt: int):
    """(mem_mb, runtime in minutes) for a job of `steps` steps of a rule measured as `measured`
    (peak_mb, startup_s, step_s): the measure times the margin times the attempt, so that a
    retry after a kill for time or memory asks for more."""
    mem_mb = math.ceil(measured["peak_mb"] * memory_margin * attempt)
    seconds = measured["startup_s"] + measured["step_s"] * steps
    return mem_mb, math.ceil(seconds * runtime_margin * attempt / 60)
