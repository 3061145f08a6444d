"""timor2022's measurements, each for an entry of the claims registry
(workflow/claims/timor2022.yaml)."""

import numpy as np
import pandas as pd

from l2relu.ledger.claims import diverged_runs, measured
from l2relu.timor2022 import constructions, regions, theory
from l2relu.timor2022 import fig1 as fig1_mod
from l2relu.timor2022.data import two_points
from l2relu.training import measures, stationarity
from l2relu.training.seeding import rng_for


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


def fig1(runs: pd.DataFrame):
    """Per variant and seed of the claims (column claim_seed, a sweep of runs each): the share
    of converged runs, the smallest stable ranks; and divergence over all runs."""
    table = runs[
        [
            "variant",
            "claim_seed",
            "seed",
            "loss",
            "diverged",
            "diverged_step",
            "converged",
            "stable_rank_w1",
            "stable_rank_w2",
        ]
    ]
    ms = []
    for variant, r in runs.groupby("variant", sort=True):
        sweeps = [s for _, s in r.groupby("claim_seed", sort=True)]
        ms.append(
            measured(
                "timor2022.fig1.converged_share",
                [s.converged.mean() for s in sweeps],
                variant,
                detail="per seed " + ", ".join(f"{s.converged.sum()}/{len(s)}" for s in sweeps),
            )
        )
        ms.append(diverged_runs("timor2022.fig1.no_divergence", r, variant))
        for layer in ("w1", "w2"):
            ms.append(
                measured(
                    "timor2022.fig1.stable_rank_bounded_away_from_1",
                    [s[f"stable_rank_{layer}"][s.converged].min() for s in sweeps],
                    f"W({layer[1]}), {variant}",
                )
            )
    return table, ms


def _antipodal_allowed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    pair = np.char.add(np.char.add(np.minimum(a, b), "|"), np.maximum(a, b))
    return np.isin(pair, ["D|S", "D|S1", "D|S2", "S1|S2"])


def fig2(table: pd.DataFrame, x1, x2, extent: float, grid_size: int):
    x, _ = two_points(x1, x2)
    theta = theory.input_angle(x)
    pts = table[["w_1", "w_2"]].to_numpy()
    labels = table.region.to_numpy()
    present = [r for r in regions.REGIONS if (labels == r).any()]
    ms = [measured("timor2022.fig2.regions_nonempty", len(present))]
    # The grid is symmetric, so -w of every grid point is the mirrored grid point.
    side = int(np.sqrt(len(pts)))
    antipode = labels.reshape(side, side)[::-1, ::-1].ravel()
    nonzero = np.linalg.norm(pts, axis=1) > 0
    share = _antipodal_allowed(labels[nonzero], antipode[nonzero]).mean()
    ms.append(measured("timor2022.fig2.lines_through_origin", share))
    radius = np.linalg.norm(pts, axis=1)
    ring = (radius > 0.25 * extent) & (radius < extent)
    for region in ("S", "D"):
        ms.append(
            measured(
                f"timor2022.fig2.opening_angle_{region.lower()}",
                2 * np.pi * (labels[ring] == region).mean(),
                ref=np.pi - theta,
                detail=f"grid of {grid_size} a side",
            )
        )
    return ms


def _pair_angle_range(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Smallest and largest angle between a point of `a` and a point of `b` (directions only)."""
    pa = np.unique(np.round(np.arctan2(a[:, 1], a[:, 0]), 6))
    pb = np.unique(np.round(np.arctan2(b[:, 1], b[:, 0]), 6))
    d = np.abs(pa[:, None] - pb[None, :])
    d = np.minimum(d, 2 * np.pi - d)
    return float(d.min()), float(d.max())


def fig3(table: pd.DataFrame, x1, x2, w0_norm: float):
    x, _ = two_points(x1, x2)
    theta = theory.input_angle(x)
    pts = table[["w_1", "w_2"]].to_numpy()
    ms = []
    for i in (1, 2):
        f = table[f"F{i}"].to_numpy()
        min_norm = np.linalg.norm(pts[f], axis=1).min() if f.any() else np.nan
        ms.append(measured("timor2022.fig3.f_norm_floor", min_norm, f"F{i}"))
    f1, f2 = pts[table.F1.to_numpy()], pts[table.F2.to_numpy()]
    lo, hi = np.pi - theta, theta + 2 * np.arcsin(2 * w0_norm / np.sqrt(3))
    smallest, largest = _pair_angle_range(f1, f2)
    # The angles are read on a grid; 1e-6 rad is the rounding of _pair_angle_range.
    ms.append(measured("timor2022.fig3.f_angle_lower", smallest, ref=lo - 1e-6))
    ms.append(measured("timor2022.fig3.f_angle_upper", largest, ref=hi))
    return ms


def theory_claims(
    theorem1: pd.DataFrame, deep: pd.DataFrame, fig1_runs: pd.DataFrame, x1, x2, rank_readings
):
    """The theorems' rows; Thm. 2's rank under each of `rank_readings` (its entry's readings:
    W(1) has rank 2 where sigma_2/sigma_1 exceeds the reading's rel_tol)."""
    x, _ = two_points(x1, x2)
    theta = theory.input_angle(x)
    ms = [
        measured(
            "timor2022.theory.thm1_zero_loss",
            theorem1.loss.max(),
            detail=f"{len(theorem1)} data sets",
        ),
        measured("timor2022.theory.thm1_rank_one", theorem1.sv_ratio.max()),
    ]
    bound = theory.theorem3_bound(theta)
    for variant, r in fig1_runs.groupby("variant", sort=True):
        shares, in_f_shares, texts, no_dead = [], [], [], []
        interval_shares = {"norm": [], "angle": []}
        rank2_shares = {reading.name: [] for reading in rank_readings}
        for _, sweep in r.groupby("claim_seed", sort=True):
            w = _weights(sweep, "w")
            conv = sweep.converged.to_numpy()
            shares.append(theory.theorem3_event(w, conv, theta).mean())
            for reading in rank_readings:
                rank2 = measures.numerical_rank(w[conv], rtol=reading.parameters["rel_tol"]) == 2
                rank2_shares[reading.name].append(rank2.mean() if conv.any() else np.nan)
            w0 = sweep[["w1_init_norm", "w2_init_norm"]].to_numpy()
            v0 = sweep[["v1_init_norm", "v2_init_norm"]].to_numpy()
            applies, in_f = theory.lemma6_membership(w[conv], w0[conv], v0[conv], *x.T)
            n_app = int(applies.sum())
            in_f_shares.append(in_f.sum() / n_app if n_app else np.nan)
            texts.append(f"{int(in_f.sum())}/{n_app}")
            no_dead.append(theory.no_dead_row(w[conv], x).mean() if conv.any() else np.nan)
            _, norm_ok, angle_ok = theory.lemma6_intervals(w[conv], w0[conv], *x.T)
            for name, ok in (("norm", norm_ok), ("angle", angle_ok)):
                interval_shares[name].append(ok.sum() / n_app if n_app else np.nan)
        ms.append(
            measured(
                "timor2022.theory.thm3_event_share",
                shares,
                variant,
                detail=f"bound 2(theta/2pi)^2 = {bound:.4f}",
            )
        )
        for reading, held in rank2_shares.items():
            ms.append(measured("timor2022.theory.thm2_rank_two", held, variant, reading=reading))
        ms.append(
            measured(
                "timor2022.theory.lemma6_in_f",
                in_f_shares,
                variant,
                detail="per seed " + ", ".join(texts),
            )
        )
        for name, held in interval_shares.items():
            ms.append(measured(f"timor2022.theory.lemma6_{name}_interval", held, variant))
        ms.append(measured("timor2022.theory.lemma4_no_dead_row", no_dead, variant))
    ms.append(diverged_runs("timor2022.theory.deep_no_divergence", deep))
    return ms + ratio_claims(deep)


def _stand_ins(runs: pd.DataFrame, bar: float | None):
    """One theorem and depth's stand-ins (lowest-objective networks) by seed, every seed, and,
    with `bar` (the networks polished), whether each seed's stand-in is certified stationary. A
    seed whose every restart diverged has no network: not measured, so not holding."""
    best = runs[runs.best].set_index("claim_seed")
    seeds = sorted(runs.claim_seed.unique())
    if bar is None:
        return best, seeds, None
    settled = _settled(best)
    return best, seeds, {"stationary": [settled.get(s, np.inf) <= bar for s in seeds]}


def ratio_claims(deep: pd.DataFrame, bar: float | None = None) -> list:
    """Thms. 4-5's ratio per theorem, depth and seed, on its stand-in (lowest-objective network).
    With `bar` (networks polished, `deep` carrying each one's fall_last_half): whether each
    seed's stand-in is certified stationary (its objective fell by at most `bar`)."""
    return _ratio_rows(
        deep, ["depth"], lambda thm: f"timor2022.theory.thm{thm}_ratio_bound", "L = {}", bar
    )


# Secs. 4-5's "the result does not depend on the width": Thms. 4-5's ratio at the other widths
WIDTH_FREE_IDS = {4: "timor2022.theory.thm4_width_free", 5: "timor2022.theory.thm5_width_free"}


def width_free_claims(deep: pd.DataFrame, bar: float | None = None) -> list:
    """Thms. 4-5's ratio per theorem, width m', depth and seed on the networks trained at the
    widths other than the sweep's, on each seed's stand-in, against the same width-free bound
    as ratio_claims (a case each width and depth); `bar` as there."""
    return _ratio_rows(deep, ["width", "depth"], WIDTH_FREE_IDS.get, "m' = {}, L = {}", bar)


def _ratio_rows(deep: pd.DataFrame, keys: list, claim_id, case: str, bar) -> list:
    """A row per theorem and `keys` (case: `case` formatted with them) of the stand-ins' mean
    ratios against the bound; Theorem 5's rows also say whether each stand-in classifies every
    point (its entries' precondition fits)."""
    ms = []
    for (thm, *key), r in deep.groupby(["theorem", *keys], sort=True):
        best, seeds, meets = _stand_ins(r, bar)
        if thm == 5:
            meets = (meets or {}) | {"fits": _classifies(best, seeds)}
        ratios = [best.mean_ratio.get(s, np.nan) for s in seeds]
        ms.append(
            measured(claim_id(thm), ratios, case.format(*key), ref=r.bound.iloc[0], meets=meets)
        )
    return ms


def _classifies(stand_ins: pd.DataFrame, seeds) -> list[bool]:
    """Per seed, whether its stand-in (Theorem 5's) has y_i N(x_i) > 0 at every point (column
    fit, the smallest normalized margin): a seed without one, or whose network is 0 on a point,
    does not."""
    return [bool(stand_ins.fit.get(s, np.nan) > 0) for s in seeds]


def _settled(stand_ins: pd.DataFrame) -> dict:
    """Per seed of the claims, its polished stand-in's fall (infinite where it stalled)."""
    return dict(zip(stand_ins.index, stationarity.settled_falls(stand_ins), strict=True))


POLISHED_STATIONARY = "timor2022.theory.polished_stationary"


def certificate_claims(polished: pd.DataFrame) -> list:
    """Per theorem and depth, each seed's polished stand-in's objective fall over the polish's
    second half (the certificate's bar is the entry's criterion)."""
    ms = []
    for (thm, depth), r in polished.groupby(["theorem", "depth"], sort=True):
        best = r[r.best].set_index("claim_seed")
        settled = _settled(best)
        falls = [settled.get(s, np.nan) for s in sorted(r.claim_seed.unique())]
        stalls = int(best.stalled.sum())
        detail = f"{stalls} stalled at a kink" if stalls else ""
        ms.append(measured(POLISHED_STATIONARY, falls, f"Thm. {thm}, L = {depth}", detail=detail))
    return ms


def _layers(arrays: dict) -> list[np.ndarray]:
    """The stacked layers W1, W2, ... (each (networks, out, in)) of a checkpoint, in float64."""
    return [np.asarray(arrays[f"W{i + 1}"], float) for i in range(len(arrays))]


def _norms(weights) -> np.ndarray:
    """(networks, layers): each layer's ||W_i||_F."""
    return np.stack([np.linalg.norm(w, axis=(1, 2)) for w in weights], axis=1)


def _spread(norms: np.ndarray) -> np.ndarray:
    return np.ptp(norms, axis=1) / norms.mean(axis=1)


def layer_norm_spread(arrays: dict) -> np.ndarray:
    """Per network of a stacked checkpoint (W1, W2, ... each (networks, out, in)): the spread
    (max - min) / mean of the layers' ||W_i||_F."""
    return _spread(_norms(_layers(arrays)))


def rescaling_violations(arrays: dict, x: np.ndarray) -> np.ndarray:
    """Lemmas 14-15's argument on each network of a stacked checkpoint: its layers scaled to the
    geometric mean of their norms (positive factors, product 1). True where the outputs on x
    moved by more than 1e-9 (relative) or, for a network whose spread exceeds 1e-6, the squared
    norm did not fall."""
    weights = _layers(arrays)
    norms = _norms(weights)
    mean = np.exp(np.log(norms).mean(axis=1))
    rescaled = [w * (mean / n)[:, None, None] for w, n in zip(weights, norms.T, strict=True)]
    return rescaling_fails(weights, rescaled, x)


def rescaling_fails(weights, rescaled, x) -> np.ndarray:
    """Per network: the rescaled layers moved the outputs on x by more than 1e-9 (relative), or
    an unbalanced network's squared norm did not fall."""
    before, after = constructions.outputs(weights, x), constructions.outputs(rescaled, x)
    moved = np.abs(after - before).max(axis=(1, 2)) > 1e-9 * np.abs(before).max(axis=(1, 2))
    norms = _norms(weights)
    squared_after = (_norms(rescaled) ** 2).sum(axis=1)
    return moved | ((_spread(norms) > 1e-6) & ~(squared_after < (norms**2).sum(axis=1)))


STANDINS = "timor2022.theory.standins_balanced"
RESCALING_IDS = {4: "timor2022.theory.lemma14_rescaling", 5: "timor2022.theory.lemma15_rescaling"}


def standin_claims(deep: pd.DataFrame) -> list:
    """Per theorem and depth, each seed's stand-in (lowest-objective network): its layer-norm
    spread (a check); per theorem, how many of its networks Lemmas 14-15's rescaling fails on."""
    ms = []
    for (thm, depth), r in deep.groupby(["theorem", "depth"], sort=True):
        best = r[r.best].set_index("claim_seed").norm_spread
        spreads = [best.get(s, np.nan) for s in sorted(r.claim_seed.unique())]
        ms.append(measured(STANDINS, spreads, f"Thm. {thm}, L = {depth}"))
    for thm, r in deep.groupby("theorem", sort=True):
        count = int(r.rescaling_violation.sum())
        ms.append(measured(RESCALING_IDS[thm], count, detail=f"of {len(r)} networks"))
    return ms


DEEPENED_TEACHER = "timor2022.theory.eq18_deepened_teacher"


def construction_claims(teachers: dict) -> list:
    """App. D's N' built from Theorem 4's teacher, one row per depth k' of the sweep.
    `teachers`: {k': (x, y, the teacher's layers)}."""
    return [
        measured(
            DEEPENED_TEACHER,
            constructions.theorem4_construction_gap(weights, x, y, depth),
            f"k' = {depth}",
        )
        for depth, (x, y, weights) in sorted(teachers.items())
    ]


WIDTH_TWO_TEACHER = "timor2022.theory.eq20_deepened_teacher"


def theorem5_construction_claims(teachers: dict, probes: int = 1000) -> list:
    """App. E's N' built from Theorem 5's teacher, one row per depth k' of the sweep, its
    outputs compared on the data and on `probes` Gaussian inputs (N'(x) = N(x) for every x).
    `teachers`: {k': (x, y, the teacher's layers)}."""
    ms = []
    for depth, (x, _, weights) in sorted(teachers.items()):
        rng = rng_for("timor2022", "eq20_probes", depth)
        inputs = np.concatenate([x, rng.standard_normal((x.shape[0], probes))], axis=1)
        gap = constructions.theorem5_construction_gap(weights, inputs, depth)
        ms.append(measured(WIDTH_TWO_TEACHER, gap, f"k' = {depth}", detail=f"{probes} probes"))
    return ms


# Eq. (19) and Eq. (21) and the mean spectral norm >= 1 that follows each, per theorem
OPTIMUM_IDS = {
    4: ("timor2022.theory.eq19_layer_norm", "timor2022.theory.eq19_mean_spectral"),
    5: ("timor2022.theory.eq21_layer_norm", "timor2022.theory.eq21_mean_spectral"),
}
OPTIMUM_COLUMNS = ("constraint_scale", "layer_norm_over_bound", "scaled_mean_spectral")


def optimum_measures(arrays: dict, x: np.ndarray, y: np.ndarray, teacher_weights, theorem: int):
    """Per network of a stacked checkpoint, App. D's or App. E's two steps after Lemma 14 or 15
    (OPTIMUM_COLUMNS): the factor c each layer is scaled by so that the network meets the
    constraint the step reads (Theorem 4: c = 1 for Eq. (19), whose norm comparison needs no
    rescaling, and c^k' = y_j / N(x_j) for the mean spectral norm, j the data point with
    ||x_j|| <= 1 and the largest y_j >= 1; Theorem 5: c^k' = 1 / min_i y_i N(x_i), the network
    made feasible for Problem (6) with its constraint active, for both); the largest
    ||c W_i||_F^2 over the bound (Eq. (19): B^(2k/k'); Eq. (21): 2 (B^2/2)^(k/k') (k'+1)/k'),
    and the mean over layers of ||c W_i||_sigma. A network no positive c makes feasible
    (N(x_j) <= 0, or a point misclassified) reads an infinite ratio and a mean of 0."""
    weights = _layers(arrays)
    depth, k = len(weights), len(teacher_weights)
    b = constructions.least_layer_bound(teacher_weights)
    out = constructions.outputs(weights, x)[:, 0, :]
    largest = (_norms(weights) ** 2).max(axis=1)
    spectral = np.stack([np.linalg.norm(w, ord=2, axis=(1, 2)) for w in weights], axis=1)
    unit = np.linalg.norm(x, axis=0) <= 1
    if theorem == 4:
        if not (unit & (y >= 1)).any():
            raise ValueError("Theorem 4's data has no point with ||x_i|| <= 1 and y_i >= 1")
        j = int(np.argmax(np.where(unit, y, -np.inf)))
        fit = out[:, j] / y[j]
        bound = b ** (2 * k / depth)
        norm_scale = np.ones(len(out))
    else:
        if not unit.any():
            raise ValueError("Theorem 5's data has no point with ||x_i|| <= 1")
        fit = (out * y).min(axis=1)
        bound = 2 * (b**2 / 2) ** (k / depth) * (depth + 1) / depth
    feasible = fit > 0
    scale = np.full(len(out), np.nan)
    scale[feasible] = fit[feasible] ** (-1 / depth)
    if theorem == 5:
        norm_scale = scale
    return pd.DataFrame(
        {
            "constraint_scale": scale,
            "layer_norm_over_bound": np.where(feasible, norm_scale**2 * largest / bound, np.inf),
            "scaled_mean_spectral": np.where(feasible, scale * spectral.mean(axis=1), 0.0),
        }
    )


def optimum_claims(deep: pd.DataFrame, bar: float | None = None) -> list:
    """Per theorem and depth, each seed's stand-in's (lowest-objective network's) Eq. (19) or
    Eq. (21) ratio and rescaled mean spectral norm (optimum_measures' columns); with `bar` (the
    networks polished), whether each seed's stand-in is certified stationary, as ratio_claims."""
    ms = []
    for (thm, depth), r in deep.groupby(["theorem", "depth"], sort=True):
        best, seeds, meets = _stand_ins(r, bar)
        scales = "c per seed " + ", ".join(
            f"{best.constraint_scale.get(s, np.nan):.4f}" for s in seeds
        )
        norm_id, spectral_id = OPTIMUM_IDS[thm]
        rows = (
            (norm_id, "layer_norm_over_bound", scales if thm == 5 else "unscaled (c = 1)"),
            (spectral_id, "scaled_mean_spectral", scales),
        )
        for claim_id, column, detail in rows:
            values = [best[column].get(s, np.nan) for s in seeds]
            ms.append(measured(claim_id, values, f"L = {depth}", detail=detail, meets=meets))
    return ms


THEOREM3 = "timor2022.theory.thm3_own_initialization"


def theorem3_claims(x1, x2, seeds: int, converged_loss: float, runs: int, steps: int, lr: float):
    """Theorem 3 under its own initialization, per law of w_i(0) (a case each) and seed: the
    share of `runs` gradient-descent runs ending in event E (zero loss read as below
    `converged_loss`, Fig. 1's), as its distance from the bound in standard deviations of a
    share of `runs` runs at the bound."""
    x, y = two_points(x1, x2)
    theta = theory.input_angle(x)
    bound = theory.theorem3_bound(theta)
    sd = np.sqrt(bound * (1 - bound) / runs)
    ms = []
    for law in theory.THEOREM3_LAWS:
        shares, converged = [], []
        for seed in range(seeds):
            w, loss = theory.theorem3_descent(
                x, y, runs, law, ("timor2022", "theorem3", seed), steps, lr
            )
            shares.append(theory.theorem3_event(w, loss < converged_loss, theta).mean())
            converged.append((loss < converged_loss).mean())
        detail = (
            f"shares {', '.join(f'{v:.3f}' for v in shares)} against {bound:.4f} (sd {sd:.4f});"
            f" converged {', '.join(f'{v:.2f}' for v in converged)}; {runs} runs of {steps} steps"
        )
        ms.append(measured(THEOREM3, [(v - bound) / sd for v in shares], law, detail=detail))
    return ms


def mark_best(deep: pd.DataFrame) -> pd.DataFrame:
    """Flag, per theorem, depth, width (where the table has one) and seed of the claims, the
    network with the lowest regularized objective."""
    deep = deep.copy()
    deep["best"] = False
    ok = deep[~deep.diverged]
    keys = ["theorem", "depth", *(["width"] if "width" in deep else []), "claim_seed"]
    best = ok.groupby(keys).objective.idxmin()
    deep.loc[best.to_numpy(), "best"] = True
    return deep


def lemma3_claims(x1, x2, networks: int):
    """Lemma 3 on Fig. 1's data: the smallest loss any rank-1 first layer outside the lemma's
    conclusion (w_2 = alpha w_1 with alpha > 0, or a zero row) reaches with its best V."""
    x, y = two_points(x1, x2)
    losses = theory.lemma3_losses(x, y, networks, ("timor2022", "lemma3"))
    return [
        measured(
            "timor2022.theory.lemma3_rank_one_needs_opposite_rows",
            losses.min(),
            detail=f"{networks} first layers",
        )
    ]


def lemma7_claims(x1, x2, networks: int):
    """Lemma 7 on random networks with a neuron in S_1: the largest |sin| between its gradient
    and x_1."""
    x, y = two_points(x1, x2)
    sines = theory.lemma7_sines(x, y, networks, ("timor2022", "lemma7"))
    return [
        measured(
            "timor2022.theory.lemma7_gradient_along_x", sines.max(), detail=f"{networks} networks"
        )
    ]


def assumption_claims(x1, x2, pairs: int):
    """Assumptions 1 and 2 on Fig. 1's data, and Sec. 3's probability 1/2 of Assumption 2's
    angle for inputs drawn uniformly on the circle."""
    x, y = two_points(x1, x2)
    m = theory.assumption_margins(x, y)
    share = theory.wide_angle_share(pairs, ("timor2022", "assumption2"))
    return [
        measured("timor2022.theory.assumption1_unit_targets", m["target_norm"]),
        measured("timor2022.theory.assumption1_independent_targets", m["target_det"]),
        measured("timor2022.theory.assumption2_unit_inputs", m["input_norm"]),
        measured(
            "timor2022.theory.assumption2_angle",
            m["angle_margin"],
            detail=f"angle {theory.input_angle(x):.6f} rad",
        ),
        measured("timor2022.theory.assumption2_probability", share, detail=f"{pairs} pairs"),
    ]


def balance_claims(fig1_runs: pd.DataFrame, x1, x2, lr: float):
    """Lemma 9 on Fig. 1's runs, per variant and seed: the largest drift of a neuron's
    ||w_i||^2 - ||v_i||^2 over the runs that did not diverge, against gradient descent's bound."""
    _, y = two_points(x1, x2)
    ms = []
    for variant, r in fig1_runs.groupby("variant", sort=True):
        bound = theory.balance_drift_bound(lr, fig1_mod.VARIANTS[variant]["loss_scale"], y)
        drift = []
        for _, s in r.groupby("claim_seed", sort=True):
            d = theory.balance_drift(s[~s.diverged.astype(bool)])
            # a seed whose every run diverged has no drift to read: not measured
            drift.append(float(d.max()) if d.size else np.nan)
        ms.append(measured("timor2022.theory.lemma9_balance", drift, variant, ref=bound))
    return ms


def lemma_2_5_8_claims(x1, x2, networks: int):
    """Lemma 2 on random data sets with exclusive rows; Lemma 5 by gradient descent from a
    neuron in D on Fig. 1's data (its final loss over the least loss a rank-1 hidden layer
    allows, (1/2) sigma_min(Y)^2); Lemma 8 on zero-loss networks built on Fig. 1's data."""
    x, y = two_points(x1, x2)
    loss, kept = theory.dead_row_descent(x, y, networks, ("timor2022", "lemma5"))
    floor = 0.5 * np.linalg.svd(y, compute_uv=False)[-1] ** 2
    slacks = theory.lemma8_slacks(x, y, networks, ("timor2022", "lemma8"))
    residuals = theory.lemma2_residuals(networks, ("timor2022", "lemma2"))
    return [
        measured(
            "timor2022.theory.lemma2_exclusive_rows_fit",
            residuals.max(),
            detail=f"{networks} data sets",
        ),
        measured(
            "timor2022.theory.lemma5_dead_row_stays",
            (loss / floor).min(),
            detail=f"{networks} runs; w_1 unmoved in {int(kept.sum())}",
        ),
        measured(
            "timor2022.theory.lemma8_norm_bound",
            slacks.min(),
            detail=f"{len(slacks)} neurons with |eps| <= 1",
        ),
    ]


ZERO_V_IDS = {
    "lemma10": "timor2022.theory.lemma10_point_losses_fall",
    "lemma11": "timor2022.theory.lemma11_first_steps",
    "lemma12": "timor2022.theory.lemma12_stays_in_g",
}


# Lemma 13's end: zero loss to float64 rounding, and parameters that no longer move
ZERO_LOSS, STILL = 1e-20, 1e-10


def zero_v_counts(table: pd.DataFrame) -> dict:
    """Per lemma, the runs of theory.zero_v_descent that break it; for Lemma 13, the runs that do
    not end at loss below ZERO_LOSS, parameters moving less than STILL over the last
    theory.LATE_STEPS steps, with both w_i in int S_i."""
    ended = (table.final_loss < ZERO_LOSS) & (table.late_change < STILL) & table.ends_in_own_regions
    counts = {k: int((table[k] > 0).sum()) for k in ZERO_V_IDS}
    return counts | {"lemma13": int((~ended).sum())}


def zero_v_claims(x1, x2, runs: int, steps: int, lr: float):
    """Lemmas 10-13 on gradient-descent runs from v_i(0) = 0, w_i(0) in int S_i on Fig. 1's data
    (zero_v_counts)."""
    x, y = two_points(x1, x2)
    table = theory.zero_v_descent(x, y, runs, ("timor2022", "zero_v"), steps, lr)
    detail = f"{runs} runs of {steps} steps, lr {lr:g}"
    ids = ZERO_V_IDS | {"lemma13": "timor2022.theory.lemma13_converges_in_own_regions"}
    end = (
        f"; largest final loss {table.final_loss.max():.1e}, largest change over the last"
        f" {min(steps, theory.LATE_STEPS)} steps {table.late_change.max():.1e}"
    )
    return [
        measured(ids[k], n, detail=detail + (end if k == "lemma13" else ""))
        for k, n in zero_v_counts(table).items()
    ]
