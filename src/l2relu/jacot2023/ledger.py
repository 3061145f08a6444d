"""jacot2023's ledger rows: the trained networks against the paper's statements."""

import numpy as np
import pandas as pd

from l2relu import claims


def _ranks_text(values) -> str:
    return ", ".join(str(int(v)) for v in values)


def fig1_claims(
    layers: pd.DataFrame,
    runs: pd.DataFrame,
    true_rank: int,
    norm_paper: float,
    norm_factor: float,
    rank_tolerance: int,
    impact_max: float,
    fit_max: float,
) -> pd.DataFrame:
    """||W||^2 / L against the paper's ~6, the middle layers' numerical ranks against the true
    rank k, the nonlinearity's impact there, and whether the network fits at all."""
    target = "jacot2023_fig1"
    run = runs.iloc[0]
    middle = layers[layers.middle.astype(bool)]
    first, last = int(middle.layer.min()), int(middle.layer.max())
    ranks = middle.centred_rank.to_numpy()
    worst = ranks[np.argmax(np.abs(ranks - true_rank))]
    rows = [
        claims.at_most(
            target,
            "training fits: final MSE relative to the outputs' variance",
            "fits (MSE term near 0)",
            run.loss / run.output_variance,
            fit_max,
            fmt="{:.2e}",
        ),
        claims.between(
            target,
            f"||W||^2 / L at the end of training (within a factor {norm_factor:g} of the paper's)",
            f"~ {norm_paper:g}",
            float(run.norm_per_layer),
            norm_paper / norm_factor,
            norm_paper * norm_factor,
            fmt="{:.3g}",
        ),
        claims.within(
            target,
            f"middle layers {first}-{last}: numerical rank of the centred Z_l vs the true rank",
            true_rank,
            float(worst),
            rank_tolerance,
            fmt="{:g}",
            paper_text=f"~ k = {true_rank}",
            measured_text=_ranks_text(ranks),
        ),
        claims.at_most(
            target,
            f"middle layers {first}-{last}: largest nonlinearity impact",
            "vanishes (~ 0)",
            float(middle.nonlinearity_impact.max()),
            impact_max,
            fmt="{:.3f}",
        ),
        claims.no_divergence(
            target, "the network diverged (NaN/inf loss)", runs.diverged, runs.diverged_step
        ),
    ]
    return claims.table(rows)


def krr_claims(
    spectra: pd.DataFrame,
    d_in: int,
    d_out: int,
    true_rank: int,
    exact_rel_tol: float,
    approx_rel_tol: float,
    rank_tolerance: int,
) -> pd.DataFrame:
    """App. D.1: KRR's Jacobian is full rank min(d_in, d_out) (and overestimates the true rank
    even approximately, footnote 1), while the deep network's is ~ k. Ranks are medians over
    the test points."""
    target = "jacot2023_krr"

    def median_rank(model, rel_tol):
        s = spectra[spectra.model == model]
        return float(s.groupby("point").ratio.apply(lambda r: (r > rel_tol).sum()).median())

    full = min(d_in, d_out)
    rows = [
        claims.within(
            target,
            f"KRR Jacobian: numerical rank (s_i > {exact_rel_tol:g} s_1)",
            full,
            median_rank("krr", exact_rel_tol),
            0,
            fmt="{:g}",
            paper_text=f"full: min(d_in, d_out) = {full}",
        ),
        claims.at_least(
            target,
            f"KRR Jacobian: approximate rank (s_i > {approx_rel_tol:g} s_1) above the true rank",
            f"overestimates k = {true_rank}",
            median_rank("krr", approx_rel_tol),
            true_rank + 1,
            fmt="{:g}",
        ),
        claims.within(
            target,
            f"deep network's Jacobian: approximate rank (s_i > {approx_rel_tol:g} s_1)",
            true_rank,
            median_rank("network", approx_rel_tol),
            rank_tolerance,
            fmt="{:g}",
            paper_text=f"~ k = {true_rank}",
        ),
    ]
    return claims.table(rows)


def depth_claims(sweep: pd.DataFrame, true_rank: int, rank_tolerance: int) -> pd.DataFrame:
    """Section 4's argument: a range of depths recovers the true rank, and it does not shrink
    as N grows. A depth recovers k when the median bottleneck rank over its seeds is within
    rank_tolerance of k."""
    target = "jacot2023_depth"
    median = sweep.groupby(["n_train", "depth"]).bottleneck_rank.median().reset_index()
    rows, counts = [], []
    for n, group in median.groupby("n_train"):
        recovered = group[np.abs(group.bottleneck_rank - true_rank) <= rank_tolerance]
        counts.append(len(recovered))
        rows.append(
            claims.at_least(
                target,
                f"N = {n}: depths whose bottleneck rank is within {rank_tolerance} of k = "
                f"{true_rank} (of {len(group)} depths)",
                "a range of depths recovers k",
                len(recovered),
                1,
                fmt="{:d}",
                measured_text=f"{len(recovered)}: L = {_ranks_text(recovered.depth)}"
                if len(recovered)
                else "0",
            )
        )
        shallowest = group.sort_values("depth").iloc[0]
        rows.append(
            claims.at_least(
                target,
                f"N = {n}: bottleneck rank at the smallest depth L = {int(shallowest.depth)}",
                "too small depths overestimate the rank",
                float(shallowest.bottleneck_rank),
                true_rank + rank_tolerance + 1,
                fmt="{:g}",
            )
        )
    rows.append(
        claims.at_least(
            target,
            "recovering depths at the largest N minus at the smallest N",
            "the range grows with N",
            counts[-1] - counts[0],
            0,
            fmt="{:d}",
        )
    )
    rows.append(
        claims.no_divergence(
            target, "networks that diverged (NaN/inf loss)", sweep.diverged, sweep.diverged_step
        )
    )
    return claims.table(rows)


def fig2_claims(summary: pd.DataFrame, shallow: int, deep: int) -> pd.DataFrame:
    """Tripoints inside the data's region: present for the shallow networks, absent for the
    deep ones, with and without L2."""
    target = "jacot2023_fig2"
    rows = []
    for run in summary.sort_values(["depth", "lam"]).itertuples():
        panel = f"L = {run.depth}, lambda = {run.lam:g}"
        if run.depth == shallow:
            rows.append(
                claims.at_least(
                    target, f"{panel}: tripoints", "present", run.tripoints, 1, fmt="{:d}"
                )
            )
        elif run.depth == deep:
            rows.append(
                claims.at_most(
                    target, f"{panel}: tripoints", "absent", run.tripoints, 0, fmt="{:d}"
                )
            )
    rows.append(
        claims.no_divergence(
            target, "networks that diverged (NaN/inf loss)", summary.diverged, summary.diverged_step
        )
    )
    return claims.table(rows)


def fig3_claims(summary: pd.DataFrame, ratio_max: float) -> pd.DataFrame:
    """Deep autoencoders send noisy or random inputs onto the data, shallow ones do not: the
    deep one's mean distance to the data over the shallow one's."""
    target = "jacot2023_fig3"
    rows = []
    for dataset, group in summary.groupby("dataset", sort=False):
        deep = group.loc[group.depth.idxmax()]
        shallow = group.loc[group.depth.idxmin()]
        what = "the clean image" if dataset == "mnist" else "the curve"
        rows.append(
            claims.at_most(
                target,
                f"{dataset}: mean distance of outputs to {what}, deep (L = {int(deep.depth)}) "
                f"/ shallow (L = {int(shallow.depth)})",
                "deep much closer",
                deep.output_distance / shallow.output_distance,
                ratio_max,
                fmt="{:.3f}",
            )
        )
        rows.append(
            claims.at_most(
                target,
                f"{dataset}: deep autoencoder's mean distance to {what} / the inputs'",
                "denoising (< 1)",
                deep.output_distance / deep.input_distance,
                ratio_max,
                fmt="{:.3f}",
            )
        )
    rows.append(
        claims.no_divergence(
            target,
            "autoencoders that diverged (NaN/inf loss)",
            summary.diverged,
            summary.diverged_step,
        )
    )
    return claims.table(rows)
