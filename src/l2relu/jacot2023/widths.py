"""Remark 2: a width of N(N + 1) always suffices for the L2-regularized minimum (Jacot et al.
2022b, jacot2022 here), and a much smaller one may. Read on jacot2022's Prop. 14 task with
deeper networks: the lowest loss at every narrow width, at N(N + 1) and at 2N(N + 1)."""

import pandas as pd

from l2relu.jacot2022.plateau import plateau_onset

# the two groups of widths, trained as separate jobs so that the narrow networks are not padded
# to the widest (jacot2022.theory.train_plateau trains a group in one batch)
GROUPS = ("narrow", "wide")


def remark2_widths(n: int, group: str) -> list[int]:
    """Every width from 1 to one past N(N + 1)/2 (so that an onset at half of N(N + 1), the
    smaller-width row's bar, reads as such), or N(N + 1), 2N(N + 1)."""
    if group == "narrow":
        return list(range(1, n * (n + 1) // 2 + 2))
    return [n * (n + 1), 2 * n * (n + 1)]


def sufficiency_table(losses: pd.DataFrame, n: int, rel_tol: float) -> pd.DataFrame:
    """Per seed: the lowest objective at widths up to N(N + 1) (a wider network contains every
    narrower one, so that is the best at N(N + 1)) and at any width; and the plateau onset over
    all widths, the smallest width from which the running best is within rel_tol of the lowest."""
    rows = []
    for seed, mine in losses.sort_values("width").groupby("seed", sort=True):
        best = mine.objective.cummin()
        upto = best[mine.width <= n * (n + 1)].iloc[-1]
        rows.append(
            {
                "seed": seed,
                "best_upto_n_n_plus_1": upto,
                "lowest": best.iloc[-1],
                "onset": plateau_onset(mine.width, best, rel_tol),
                "n_n_plus_1": n * (n + 1),
            }
        )
    return pd.DataFrame(rows)
