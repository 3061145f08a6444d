"""Where the minimal regularized loss stops improving with width: the plateau's onset."""

import numpy as np


def plateau_onset(widths, losses, rel_tol: float) -> int | None:
    """The smallest width from which every loss is within `rel_tol` (relative) of the plateau
    level, the lowest loss over all widths; None when even the widest width is not (no plateau
    reached). Widths must be increasing."""
    widths, losses = np.asarray(widths), np.asarray(losses, dtype=float)
    if len(widths) == 0 or np.any(np.diff(widths) <= 0):
        raise ValueError("widths must be a non-empty increasing sequence")
    within = losses <= losses.min() * (1 + rel_tol)
    outside = np.flatnonzero(~within)
    first = 0 if len(outside) == 0 else outside[-1] + 1
    return int(widths[first]) if first < len(widths) else None
