"""timor2022's ledger rows: what the paper states, against what this run measured."""

import numpy as np
import pandas as pd

from l2relu import claims, measures
from l2relu.timor2022 import fig1 as fig1_mod
from l2relu.timor2022 import regions, theory

# What the paper states (Section 3.1): 79 of 288 runs converged.
PAPER_CONVERGED, PAPER_RUNS = 79, 288


def _binomial_tol(p: float, n: int) -> float:
    """Three standard deviations of a share measured on n independent runs."""
    return 3 * np.sqrt(p * (1 - p) / n)


def _weights(runs: pd.DataFrame, layer: str) -> np.ndarray:
    """(R, 2, 2) final W(1) ('w', rows = neurons) or W(2) ('v', columns = neurons)."""
    w = np.empty((len(runs), 2, 2))
    for i in range(2):
        for j in range(2):
            value = runs[f"{layer}{i + 1}_{j + 1}"].to_numpy()
            if layer == "w":
                w[:, i, j] = value
            else:
                w[:, j, i] = value
    return w


def fig1(runs: pd.DataFrame, stable_rank_floor: float):
    target = "timor2022_fig1"
    table = runs[
        [
            "variant",
            "seed",
            "loss",
            "diverged",
            "diverged_step",
            "converged",
            "stable_rank_w1",
            "stable_rank_w2",
        ]
    ]
    rows = []
    paper_share = PAPER_CONVERGED / PAPER_RUNS
    for variant, r in runs.groupby("variant", sort=True):
        n, k = len(r), int(r.converged.sum())
        rows.append(
            claims.within(
                target,
                f"runs converged to loss below threshold ({variant})",
                paper_share,
                k / n,
                _binomial_tol(paper_share, n),
                fmt="{:.3f}",
                paper_text=f"{PAPER_CONVERGED}/{PAPER_RUNS} = {paper_share:.3f}",
                measured_text=f"{k}/{n} = {k / n:.3f}",
            )
        )
        rows.append(
            claims.no_divergence(
                target,
                f"runs that diverged (NaN/inf loss) ({variant})",
                r.diverged,
                r.diverged_step,
            )
        )
        conv = r[r.converged]
        for layer in ("w1", "w2"):
            rows.append(
                claims.at_least(
                    target,
                    f"smallest stable rank of W({layer[1]}) over converged runs ({variant})",
                    "bounded away from 1",
                    conv[f"stable_rank_{layer}"].min() if k else np.nan,
                    stable_rank_floor,
                    fmt="{:.3f}",
                )
            )
    return table, claims.table(rows)


def _antipodal_allowed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    pair = np.char.add(np.char.add(np.minimum(a, b), "|"), np.maximum(a, b))
    return np.isin(pair, ["D|S", "D|S1", "D|S2", "S1|S2"])


def fig2(table: pd.DataFrame, x1, x2, extent: float, grid_size: int) -> pd.DataFrame:
    target = "timor2022_fig2"
    x, _ = fig1_mod.data(x1, x2)
    theta = theory.input_angle(x)
    pts = table[["w_1", "w_2"]].to_numpy()
    labels = table.region.to_numpy()
    rows = []
    present = [r for r in regions.REGIONS if (labels == r).any()]
    rows.append(
        claims.at_least(
            target,
            "regions D, S, S1, S2 that are nonempty (App. B)",
            "all four",
            len(present),
            4,
            fmt="{:d}",
        )
    )
    # The grid is symmetric, so -w of every grid point is the mirrored grid point.
    side = int(np.sqrt(len(pts)))
    antipode = labels.reshape(side, side)[::-1, ::-1].ravel()
    nonzero = np.linalg.norm(pts, axis=1) > 0
    share = _antipodal_allowed(labels[nonzero], antipode[nonzero]).mean()
    rows.append(
        claims.at_least(
            target,
            "share of lines through 0 meeting exactly {S,D}, {S_i,D} or {S1,S2} (App. B)",
            "every line",
            share,
            1.0,
            fmt="{:.4f}",
        )
    )
    radius = np.linalg.norm(pts, axis=1)
    ring = (radius > 0.25 * extent) & (radius < extent)
    tol = 8 / (grid_size - 1)  # one grid cell seen from the ring's inner edge, in radians
    for region, expected, source in (("S", np.pi - theta, "Eq. (12)"), ("D", np.pi - theta, "")):
        measured = 2 * np.pi * (labels[ring] == region).mean()
        rows.append(
            claims.within(
                target,
                f"opening angle of {region} in rad {source}".strip(),
                expected,
                measured,
                tol,
                fmt="{:.4f}",
                paper_text=f"pi - angle(x1,x2) = {expected:.4f}",
            )
        )
    return claims.table(rows)


def _pair_angle_range(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Smallest and largest angle between a point of `a` and a point of `b` (directions only)."""
    pa = np.unique(np.round(np.arctan2(a[:, 1], a[:, 0]), 6))
    pb = np.unique(np.round(np.arctan2(b[:, 1], b[:, 0]), 6))
    d = np.abs(pa[:, None] - pb[None, :])
    d = np.minimum(d, 2 * np.pi - d)
    return float(d.min()), float(d.max())


def fig3(table: pd.DataFrame, x1, x2, w0_norm: float) -> pd.DataFrame:
    target = "timor2022_fig3"
    x, _ = fig1_mod.data(x1, x2)
    theta = theory.input_angle(x)
    pts = table[["w_1", "w_2"]].to_numpy()
    rows = []
    for i in (1, 2):
        f = table[f"F{i}"].to_numpy()
        min_norm = np.linalg.norm(pts[f], axis=1).min() if f.any() else np.nan
        rows.append(
            claims.at_least(
                target,
                f"smallest ||w|| in F{i} (Eq. 11)",
                "> sqrt(3)/2",
                min_norm,
                np.sqrt(3) / 2,
                fmt="{:.4f}",
            )
        )
    f1, f2 = pts[table.F1.to_numpy()], pts[table.F2.to_numpy()]
    lo, hi = np.pi - theta, theta + 2 * np.arcsin(2 * w0_norm / np.sqrt(3))
    smallest, largest = _pair_angle_range(f1, f2)
    rows.append(
        claims.at_least(
            target,
            "smallest angle between F1 and F2 in rad (Lemma 6)",
            f">= pi - theta = {lo:.4f}",
            smallest,
            lo - 1e-6,
            fmt="{:.4f}",
        )
    )
    rows.append(
        claims.at_most(
            target,
            "largest angle between F1 and F2 in rad (Lemma 6)",
            f"< theta + 2 arcsin(2 r0 / sqrt 3) = {hi:.4f}",
            largest,
            hi,
            fmt="{:.4f}",
        )
    )
    return claims.table(rows)


def theory_claims(theorem1: pd.DataFrame, deep: pd.DataFrame, fig1_runs: pd.DataFrame, x1, x2):
    target = "timor2022_theory"
    x, _ = fig1_mod.data(x1, x2)
    theta = theory.input_angle(x)
    rows = [
        claims.at_most(
            target,
            f"largest loss of the Theorem 1 network over {len(theorem1)} random data sets",
            "0 (exact construction)",
            theorem1.loss.max(),
            1e-20,
            fmt="{:.2e}",
        ),
        claims.at_most(
            target,
            "largest sigma_2/sigma_1 of its W (rank(W) = 1, Theorem 1)",
            "0",
            theorem1.sv_ratio.max(),
            1e-12,
            fmt="{:.2e}",
        ),
    ]
    bound = theory.theorem3_bound(theta)
    for variant, r in fig1_runs.groupby("variant", sort=True):
        w = _weights(r, "w")
        conv = r.converged.to_numpy()
        share = theory.theorem3_event(w, conv, theta).mean()
        tol = _binomial_tol(bound, len(r))
        rows.append(
            claims.at_least(
                target,
                f"share of fig1 runs in Theorem 3's event E ({variant}; v(0) != 0 here)",
                f">= 2(theta/2pi)^2 = {bound:.4f}",
                share,
                bound - tol,
                fmt="{:.4f}",
            )
        )
        rank2 = measures.numerical_rank(w[conv], rtol=1e-6) == 2
        rows.append(
            claims.at_least(
                target,
                f"share of converged fig1 runs with rank W(1) = 2 (Theorem 2) ({variant})",
                "all",
                rank2.mean() if conv.any() else np.nan,
                1.0,
                fmt="{:.3f}",
            )
        )
        w0 = r[["w1_init_norm", "w2_init_norm"]].to_numpy()
        v0 = r[["v1_init_norm", "v2_init_norm"]].to_numpy()
        applies, in_f = theory.lemma6_membership(w[conv], w0[conv], v0[conv], *x.T)
        n_app = int(applies.sum())
        rows.append(
            claims.at_least(
                target,
                f"share of converged fig1 runs with neurons in S1, S2 whose w_i lies in F_i "
                f"(Lemma 6; norms to a relative {theory.GD_NORM_SLACK:g}, GD not GF) ({variant})",
                "all",
                in_f.sum() / n_app if n_app else np.nan,
                1.0,
                fmt="{:.3f}",
                measured_text=f"{int(in_f.sum())}/{n_app}",
            )
        )
    rows.append(
        claims.no_divergence(
            target,
            "deep networks that diverged (NaN/inf loss), Theorems 4-5",
            deep.diverged,
            deep.diverged_step,
        )
    )
    for (thm, depth), r in deep.groupby(["theorem", "depth"], sort=True):
        ok = r[~r.diverged]
        best = ok.loc[ok.objective.idxmin()] if len(ok) else None
        rows.append(
            claims.at_least(
                target,
                f"Theorem {thm}: mean ||W||_sigma/||W||_F of the best-objective depth-{depth} "
                "network",
                f">= bound {r.bound.iloc[0]:.4f}",
                best.mean_ratio if best is not None else np.nan,
                r.bound.iloc[0],
                fmt="{:.4f}",
            )
        )
    return claims.table(rows)


def mark_best(deep: pd.DataFrame) -> pd.DataFrame:
    """Flag, per theorem and depth, the network with the lowest regularized objective."""
    deep = deep.copy()
    deep["best"] = False
    ok = deep[~deep.diverged]
    deep.loc[ok.groupby(["theorem", "depth"]).objective.idxmin().to_numpy(), "best"] = True
    return deep
