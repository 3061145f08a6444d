"""chen2024's ledger rows: the constructed networks against the paper's statements."""

import numpy as np
import pandas as pd

from l2relu import claims

TARGET = "chen2024_theory"
# What each construction states, with the architecture whose parameter count the paper gives.
STATEMENT = {
    "prop4.1": "Prop. 4.1, width M",
    "cor4.2": "Cor. 4.2, widths Q: Q(M + Q^2) weights",
    "thm5.2": "Thm 5.2, width M",
}


def theory_claims(networks: pd.DataFrame, float_zero: float) -> pd.DataFrame:
    """Per construction: on how many grid points (M, Q, N) it could not be built although the
    data meet its assumptions (the same architecture serves every N), and its largest cost."""
    rows = []
    for name, built in networks.groupby("construction", sort=False):
        rows.append(
            claims.at_most(
                TARGET,
                f"{STATEMENT[name]}: (M, Q, N) of {len(built)} where no network was built",
                "none: it exists for every N",
                int((~built.built.astype(bool)).sum()),
                0,
                fmt="{:d}",
            )
        )
        costs = built.cost[built.built.astype(bool)]
        rows.append(
            claims.at_most(
                TARGET,
                f"{STATEMENT[name]}: largest cost (14) through the training engine",
                "0 (a global minimum)",
                costs.max() if len(costs) else np.nan,
                float_zero,
                fmt="{:.1e}",
            )
        )
    rows += _count_claims(networks)
    return claims.table(rows)


def _count_claims(networks: pd.DataFrame) -> list[dict]:
    """The parameter counts of the built networks against the paper's two formulas, per (M, Q):
    one count for every N, or not measured."""
    rows = []
    built = networks[networks.built.astype(bool)]
    formulas = [
        (
            "cor4.2",
            "weights",
            "Cor. 4.2: weights of the width-Q network that interpolates",
            lambda m, q: q * (m + q**2),
            "Q(M + Q^2)",
        ),
        (
            "thm5.2",
            "description_numbers",
            "abstract / eq. (3): numbers fixing Thm 5.2's minimum beyond the data (per layer an "
            "aperture, a normal in R^M, a point on the segment)",
            lambda m, q: q * (m + 2),
            "Q(M + 2)",
        ),
    ]
    for name, column, claim, formula, text in formulas:
        for (m, q), group in networks[networks.construction == name].groupby(["M", "Q"]):
            counts = built[(built.construction == name) & (built.M == m) & (built.Q == q)][column]
            ok = len(counts) == len(group) and counts.nunique() == 1
            rows.append(
                claims.within(
                    TARGET,
                    f"{claim}, M = {m}, Q = {q}, every N",
                    formula(m, q),
                    float(counts.iloc[0]) if ok else np.nan,
                    0,
                    fmt="{:g}",
                    paper_text=f"{text} = {formula(m, q)}",
                )
            )
    return rows


def fig2_claims(grid: pd.DataFrame, p, h, theta, tol: float) -> pd.DataFrame:
    """Lemma 3.4 on the drawn grid: tau is the identity on the forward cone and sends the
    backward cone to the base point p; and what the figure shows between the cones: tau sends
    those points onto the forward cone's edges (in 2-D one unit is cut there)."""
    target = "chen2024_fig2"
    forward = grid[grid.region == "forward"]
    backward = grid[grid.region == "backward"]
    moved = np.hypot(forward.tau1 - forward.x1, forward.tau2 - forward.x2).max()
    off = np.hypot(backward.tau1 - p[0], backward.tau2 - p[1]).max()
    sides = grid[grid.region == "neither"]
    d = np.vstack([sides.tau1 - p[0], sides.tau2 - p[1]])
    angle = np.degrees(np.arccos(np.clip(h @ d / np.linalg.norm(d, axis=0), -1, 1)))
    off_edge = np.abs(angle - np.degrees(theta) / 2).max()
    return claims.table(
        [
            claims.at_most(
                target,
                f"largest |angle(tau(x) - p, h) - theta/2| in degrees over the {len(sides)} grid "
                "points in neither cone (tau puts them on the forward cone's edges)",
                "0 (Fig. 2: projected along the orange arrows)",
                off_edge,
                1e-6,
                fmt="{:.1e}",
            ),
            claims.at_most(
                target,
                f"largest |tau(x) - x| over the {len(forward)} grid points in the forward cone",
                "0 (identity)",
                moved,
                tol,
                fmt="{:.1e}",
            ),
            claims.at_most(
                target,
                f"largest |tau(x) - p| over the {len(backward)} grid points in the backward cone",
                "0 (collapsed to the base point)",
                off,
                tol,
                fmt="{:.1e}",
            ),
        ]
    )


def fig1_claims(points: pd.DataFrame, notes: dict, tol: float) -> pd.DataFrame:
    """Prop. 4.1's first layer on the drawn data: its class collapsed to the cone's base point,
    the other classes untouched; and the two conditions the data must meet."""
    target = "chen2024_fig1"
    mine = points[points.label == 0]
    others = points[points.label != 0]
    return claims.table(
        [
            claims.at_most(
                target,
                "condition (55): delta / min_j |x_j - x| of the drawn clusters",
                "c0 < 1/4",
                notes["c0_needed"],
                0.25,
                fmt="{:.3f}",
            ),
            claims.at_most(
                target,
                "condition (59): max_j theta_*,j of the drawn clusters, in degrees",
                "< 180",
                float(np.degrees(notes["widest_theta_j"])),
                180.0,
                fmt="{:.1f}",
            ),
            claims.at_most(
                target,
                f"largest |tau(x) - p| over the {len(mine)} points of the cut class",
                "0 (collapsed to the base point)",
                mine.to_base.max(),
                tol,
                fmt="{:.1e}",
            ),
            claims.at_most(
                target,
                f"largest |tau(x) - x| over the {len(others)} points of the other classes",
                "0 (untouched)",
                others.moved.max(),
                tol,
                fmt="{:.1e}",
            ),
        ]
    )


def fig3_claims(orderings: pd.DataFrame, notes: dict, float_zero: float) -> pd.DataFrame:
    """Fig. 3's data: sequentially separable in exactly one ordering, not clustered, and Thm
    5.2's network on it at zero cost."""
    target = "chen2024_fig3"
    valid = orderings[orderings.valid]
    refused = notes["clustered_condition"]
    return claims.table(
        [
            claims.within(
                target,
                f"orderings of the classes that are sequentially separable (Def. 5.1), of "
                f"{len(orderings)}: {', '.join(valid.ordering) or 'none'}",
                1,
                len(valid),
                0,
                fmt="{:d}",
                paper_text="1 (the only possible one)",
            ),
            claims.at_least(
                target,
                "Prop. 4.1's assumptions fail on these data (not clustered)",
                "yes",
                1 if refused else 0,
                1,
                measured_text=f"yes, condition {refused}" if refused else "no, they hold",
            ),
            claims.at_most(
                target,
                "cost (14) of Thm 5.2's network in that ordering, through the training engine",
                "0 (a global minimum)",
                notes.get("cost", np.nan),
                float_zero,
                fmt="{:.1e}",
            ),
        ]
    )
