"""Where the minimal regularized loss stops improving with width: the plateau's onset."""

import numpy as np
import pandas as pd


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


def with_running_best(losses: pd.DataFrame, curve: list[str]) -> pd.DataFrame:
    """Add `best`: along each curve (rows sharing the `curve` columns), the lowest objective
    found at any width <= this one. A network of width w contains every narrower one (zero the
    extra neurons), so this is a valid estimate of the width-w minimum, non-increasing in width
    as the true minimum is."""
    losses = losses.sort_values([*curve, "width"]).reset_index(drop=True)
    losses["best"] = losses.groupby(curve).objective.cummin()
    return losses
