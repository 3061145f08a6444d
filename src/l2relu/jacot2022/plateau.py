"""Where the minimal regularized loss stops improving with width: the plateau's onset."""

import numpy as np
import pandas as pd


def plateau_onset(widths, losses, rel_tol: float) -> int | None:
    """The smallest width from which every loss is within `rel_tol` (relative) of the plateau
    level, the lowest loss over all widths; None when even the widest width is not (no plateau
    reached). Widths must be increasing."""
    losses = np.asarray(losses, dtype=float)
    return _first_inside(widths, losses <= losses.min() * (1 + rel_tol))


def _first_inside(widths, within) -> int | None:
    """The smallest width from which every width is within; None when the widest is not."""
    widths = np.asarray(widths)
    if len(widths) == 0 or np.any(np.diff(widths) <= 0):
        raise ValueError("widths must be a non-empty increasing sequence")
    outside = np.flatnonzero(~np.asarray(within))
    first = 0 if len(outside) == 0 else outside[-1] + 1
    return int(widths[first]) if first < len(widths) else None


def _log_drop(losses) -> tuple[np.ndarray, float]:
    """log10 of the losses and the curve's whole drop in decades, first width to lowest."""
    logs = np.log10(np.asarray(losses, dtype=float))
    return logs, float(logs[0] - logs.min())


def plateau_onset_on_log_scale(widths, losses, drop_fraction: float) -> int | None:
    """The plateau as read off a log-scaled loss axis: the smallest width from which every loss
    lies within `drop_fraction` of the curve's whole drop (narrowest width to lowest loss, in
    decades) above the lowest loss. Scale-free, so a plateau at 1e-4 that training approaches
    only to a factor of 2 still reads as a plateau when the curve falls from 10. None when the
    widest width is outside."""
    logs, drop = _log_drop(losses)
    return _first_inside(widths, logs - logs.min() <= drop_fraction * drop)


def rise_beyond_spread(losses, spread) -> float:
    """The largest rise of log10(loss) from one width to the next beyond `spread`, the training
    noise at the wider width (in decades: the range of log10 loss over that width's trials);
    <= 0 when no rise exceeds the noise. Losses and spreads in increasing width."""
    logs = np.log10(np.asarray(losses, dtype=float))
    excess = np.diff(logs) - np.asarray(spread, dtype=float)[1:]
    return float(np.max(excess, initial=-np.inf)) if len(excess) else 0.0


def with_running_best(losses: pd.DataFrame, curve: list[str]) -> pd.DataFrame:
    """Add `best`: along each curve (rows sharing the `curve` columns), the lowest objective
    found at any width <= this one. A network of width w contains every narrower one (zero the
    extra neurons), so this is a valid estimate of the width-w minimum, non-increasing in width
    as the true minimum is."""
    losses = losses.sort_values([*curve, "width"]).reset_index(drop=True)
    losses["best"] = losses.groupby(curve).objective.cummin()
    return losses
