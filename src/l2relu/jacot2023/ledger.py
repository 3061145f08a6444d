"""jacot2023's measurements, each for an entry of the claims registry
(workflow/claims/jacot2023.yaml): the trained networks against the paper's statements."""

import itertools

import numpy as np
import pandas as pd

from l2relu.jacot2022.ledger import seeds_certified
from l2relu.jacot2023 import widths
from l2relu.jacot2023.rank import read_rank
from l2relu.jacot2023.regression import network
from l2relu.ledger.certificate_rows import settled_fall_measurements
from l2relu.ledger.claims import diverged_runs, measured
from l2relu.training import stationarity

MIDDLE_RANK = "jacot2023.fig1.middle_layers_rank"
KRR_FULL_RANK = "jacot2023.krr.krr_jacobian_full_rank"
KRR_RANK = "jacot2023.krr.krr_overestimates_rank"
NETWORK_JACOBIAN_RANK = "jacot2023.krr.network_jacobian_rank"
PROP3_BOUND = "jacot2023.krr.prop3_schatten_bound"
RANK_BELOW_NORM = "jacot2023.krr.jacobian_rank_below_norm"
DEPTH_RANK = "jacot2023.depth.recovering_depths"
RANK_STUDY = "jacot2023.rankstudy"
RANK_STUDY_MIDDLE = f"{RANK_STUDY}.middle_layers_rank"
RANK_STUDY_JACOBIAN = f"{RANK_STUDY}.jacobian_rank"
RANK_STUDY_SETTLED = f"{RANK_STUDY}.stationary"


def _ranks_text(values) -> str:
    return ", ".join(str(int(v)) for v in values)


def fig1_claims(layers: pd.DataFrame, runs: pd.DataFrame, true_rank: int, rank_readings):
    """Per seed: whether the network fits, ||W||^2 / L, the rank of the middle layers' Z_l under
    each of `rank_readings` (the entry's: layers has a column "rank: <reading>" for each), the
    middle layer farthest from k counting, and the nonlinearity's impact there."""
    runs = runs.sort_values("seed")
    middle = layers[layers.middle.astype(bool)].sort_values(["seed", "layer"])
    first, last = int(middle.layer.min()), int(middle.layer.max())
    case = f"middle layers {first}-{last}"
    ms = [
        measured("jacot2023.fig1.fits_data", list(runs.loss / runs.output_variance)),
        measured("jacot2023.fig1.norm_per_layer", list(runs.norm_per_layer)),
    ]
    for reading in rank_readings:
        farthest, texts = [], []
        for _, m in middle.groupby("seed", sort=True):
            ranks = m[f"rank: {reading.name}"].to_numpy()
            farthest.append(ranks[np.argmax(np.abs(ranks - true_rank))])
            texts.append(_ranks_text(ranks))
        detail = "per seed " + "; ".join(texts)
        ms.append(measured(MIDDLE_RANK, farthest, case, true_rank, detail, reading=reading.name))
    impacts = [m.nonlinearity_impact.max() for _, m in middle.groupby("seed", sort=True)]
    ms.append(measured("jacot2023.fig1.middle_nonlinearity_impact", impacts, case))
    ms.append(diverged_runs("jacot2023.fig1.no_divergence", runs))
    return ms


CERTIFIED = "jacot2023.fig1.polished_stationary"


def certificate_claims(certificate: pd.DataFrame, registry) -> tuple[list, list]:
    """Which seeds' polished networks are certified stationary (the CERTIFIED entry's bar on
    the objective's fall over the polish's second half), and that entry's row."""
    bar = registry[CERTIFIED].criterion.bounds()[1]
    certified, falls, detail = stationarity.seeds_certified(certificate, bar)
    return certified, [measured(CERTIFIED, falls, detail=detail)]


IMPACT = "jacot2023.fig1.middle_nonlinearity_impact"
THREE_PART = "jacot2023.fig1.three_part_structure"


def layer_kinds(impacts, bar: float) -> str:
    """The hidden layers in order, "i" where a layer is a near-identity (impact <= bar), "n"
    where it is nonlinear."""
    return "".join("i" if v <= bar else "n" for v in impacts)


def three_parts(impacts, bar: float) -> bool:
    """Whether the hidden layers' nonlinearity impacts (in layer order) read nonlinear, then one
    run of near-identity layers (impact <= bar), then nonlinear again: g, identities, h."""
    return [k for k, _ in itertools.groupby(layer_kinds(impacts, bar))] == ["n", "i", "n"]


def three_part_claims(layers: pd.DataFrame, registry) -> list:
    """Per seed, 1 where Fig. 1's hidden layers split into g, identity layers and h (the
    identity bar that of the middle-impact row's criterion), else 0."""
    bar = registry[IMPACT].criterion.bounds()[1]
    # the output layer is linear: its impact is not a nonlinearity's
    hidden = layers[layers.layer < layers.layer.max()].sort_values(["seed", "layer"])
    held, texts = [], []
    for _, m in hidden.groupby("seed", sort=True):
        held.append(float(three_parts(m.nonlinearity_impact, bar)))
        texts.append(layer_kinds(m.nonlinearity_impact, bar))
    detail = f"layers 1-{int(hidden.layer.max())} (i: impact <= {bar:g}): " + "; ".join(texts)
    return [measured(THREE_PART, held, detail=detail)]


FITS = "jacot2023.fig1.fits_data"
NORM_FALLS = "jacot2023.fig1.norm_falls_after_fit"
NORM_NOT_SETTLED = "jacot2023.fig1.norm_not_settled"
FIT_PHASE = "jacot2023.fig1.fit_phase_short"


def second_phase(trace: pd.DataFrame, variance: float, bar: float) -> pd.DataFrame:
    """One network's trace from the first traced step from which its MSE over `variance` stays
    within `bar` (App. F's second phase); empty where the last step is not within it."""
    trace = trace.sort_values("step")
    outside = np.flatnonzero(trace.loss.to_numpy() / variance > bar)
    start = 0 if len(outside) == 0 else outside[-1] + 1
    return trace.iloc[start:]


def norm_trace_claims(trace: pd.DataFrame, runs: pd.DataFrame, registry) -> list:
    """App. F on Fig. 1's trace, per seed (network = the seed's index): the fall of ||W||^2/L over
    the second phase under each reading of NORM_FALLS, and over the entry's last share of the
    steps (NORM_NOT_SETTLED's parameter), and the share of the steps the first phase took under
    each reading of FIT_PHASE. A seed whose last traced MSE is off the fit check's bar is left out
    of all three (fits_data)."""
    bar = registry[FITS].criterion.bounds()[1]
    share = registry[NORM_NOT_SETTLED].parameters["share"]
    late_step = (1 - share) * trace.step.max()
    phases, late, fits, phase_ends = [], [], [], {"stays": [], "first": []}
    for i, run in enumerate(runs.itertuples()):
        mine = trace[trace.network == i].sort_values("step")
        phase = second_phase(mine, run.output_variance, bar)
        phases.append(phase.norm_per_layer.to_numpy())
        fits.append(len(phase) > 0 and not run.diverged)
        fitted = mine.step[mine.loss / run.output_variance <= bar]
        ends = {"stays": phase.step, "first": fitted}
        for how, steps in ends.items():
            fraction = float(steps.iloc[0] / mine.step.iloc[-1]) if len(phase) else np.nan
            phase_ends[how].append(fraction)
        early, final = mine[mine.step <= late_step].norm_per_layer, mine.norm_per_layer.iloc[-1]
        late.append(float((early.iloc[-1] - final) / final) if len(early) else np.nan)
    meets = {"fits_data": fits}
    ms = []
    for reading in registry[NORM_FALLS].every_reading:
        values = [_fall(norms, reading.parameters["fall"]) for norms in phases]
        ms.append(measured(NORM_FALLS, values, reading=reading.name, meets=meets))
    ms.append(measured(NORM_NOT_SETTLED, late, meets=meets))
    for reading in registry[FIT_PHASE].every_reading:
        values = phase_ends[reading.parameters["phase_end"]]
        ms.append(measured(FIT_PHASE, values, reading=reading.name, meets=meets))
    return ms


def _fall(norms: np.ndarray, how: str) -> float:
    """The fall of a traced norm relative to its end: from its first value ("net"), or the least
    from one traced step to the next ("every_step"); NaN with fewer than two values."""
    if len(norms) < 2:
        return np.nan
    if how == "net":
        return float((norms[0] - norms[-1]) / norms[-1])
    return float((-np.diff(norms) / norms[1:]).min())


def krr_claims(spectra: pd.DataFrame, d_in: int, d_out: int, true_rank: int, registry):
    """App. D.1: KRR's Jacobian is full rank min(d_in, d_out), and overestimates the true rank
    even approximately (footnote 1), while the deep network's is ~ k. Approximate ranks are read
    under each reading of their entries (rank.read_rank on the spectrum relative to its
    largest). Ranks are medians over the test points, one per seed."""

    def median_ranks(model, point_rank):
        s = spectra[spectra.model == model].sort_values(["seed", "point", "index"])
        per_point = s.groupby(["seed", "point"]).ratio.apply(point_rank)
        return list(per_point.groupby("seed").median())

    exact_rel_tol = registry[KRR_FULL_RANK].every_reading[0].parameters["rel_tol"]

    def numerical(ratios):
        return int((ratios > exact_rel_tol).sum())

    ms = [
        measured(
            KRR_FULL_RANK,
            median_ranks("krr", numerical),
            ref=min(d_in, d_out),
            detail=f"s_i > {exact_rel_tol:g} s_1",
        )
    ]
    for model, claim_id in (("krr", KRR_RANK), ("network", NETWORK_JACOBIAN_RANK)):
        for reading in registry[claim_id].every_reading:
            ranks = median_ranks(
                model, lambda r, p=reading.parameters: read_rank(r.to_numpy(), **p)
            )
            ms.append(measured(claim_id, ranks, ref=true_rank, reading=reading.name))
    return ms


def schatten_share(values: pd.Series, depth: int) -> float:
    """Prop. 3's left side at one point: sum_k s_k(Jf(x))^(2/L)."""
    return float((values.to_numpy() ** (2 / depth)).sum())


PROP12 = "jacot2023.fig1.prop12_balance"


def layer_balance_gaps(arrays: dict, index: int) -> np.ndarray:
    """Prop. 12 on one network of a stacked checkpoint: per l = 1, ..., L - 1, the relative gap
    ((||W_l||_F^2 + ||b_l||^2) - ||W_(l+1)||_F^2) / ||W_(l+1)||_F^2 (float64)."""
    w, b = network(arrays, index)
    depth = len(w)
    nxt = np.array([(w[k + 1] ** 2).sum() for k in range(depth - 1)])
    here = np.array([(w[k] ** 2).sum() + (b[k] ** 2).sum() for k in range(depth - 1)])
    return (here - nxt) / nxt


def prop12_claims(arrays: dict, runs: pd.DataFrame, readings):
    """Prop. 12 on every seed's trained network: the largest relative layer gap over each
    reading's tolerance."""
    gaps = [np.abs(layer_balance_gaps(arrays, i)).max() for i in range(len(runs))]
    detail = "largest gaps " + ", ".join(f"{g:.3f}" for g in gaps)
    return [
        measured(
            PROP12,
            [g / r.parameters["tolerance"] for g in gaps],
            detail=detail,
            reading=r.name,
        )
        for r in readings
    ]


REMARK6 = "jacot2023.fig1.remark6_neuron_balance"


def neuron_balance_gaps(arrays: dict, index: int, floor: float) -> dict:
    """Remark 6 on one network of a stacked checkpoint: per hidden neuron i of layer l, in_i =
    ||W_l[i, :]||^2 + b_l[i]^2 against out_i = ||W_(l+1)[:, i]||^2. Returns the largest over
    layers of sum_i |in_i - out_i| / sum_i out_i ("weighted"), the largest |in_i - out_i| /
    max(in_i, out_i) over the neurons whose max(in_i, out_i) is at least `floor` of their
    layer's largest ("neuron"), and how many neurons that leaves out ("left_out")."""
    w, b = network(arrays, index)
    depth = len(w)
    weighted, neuron, left_out = [], [], 0
    for k in range(depth - 1):
        inner, outer = (w[k] ** 2).sum(axis=1) + b[k] ** 2, (w[k + 1] ** 2).sum(axis=0)
        gap, larger = np.abs(inner - outer), np.maximum(inner, outer)
        weighted.append(gap.sum() / outer.sum())
        kept = larger >= floor * larger.max()
        neuron.append((gap[kept] / larger[kept]).max())
        left_out += int((~kept).sum())
    return {"weighted": float(max(weighted)), "neuron": float(max(neuron)), "left_out": left_out}


def remark6_claims(arrays: dict, runs: pd.DataFrame, readings):
    """Remark 6 on every seed's trained network, each reading's gap over its tolerance."""
    ms = []
    for r in readings:
        q = r.parameters
        gaps = [neuron_balance_gaps(arrays, i, q.get("floor", 0.0)) for i in range(len(runs))]
        if q["aggregate"] == "neuron":
            detail = "; ".join(f"{g['neuron']:.3f} ({g['left_out']} left out)" for g in gaps)
        else:
            detail = "; ".join(f"{g['weighted']:.3f}" for g in gaps)
        values = [g[q["aggregate"]] / q["tolerance"] for g in gaps]
        ms.append(measured(REMARK6, values, detail=detail, reading=r.name))
    return ms


def prop3_claims(spectra: pd.DataFrame, runs: pd.DataFrame, model: str, registry):
    """Prop. 3 on the trained networks (`model`'s spectra, `runs`' parameter norms): per seed,
    the largest over the held-out points of sum_k s_k(Jf(x))^(2/L) over ||W||^2 / L; and the
    Jacobian rank, under each reading of its entry, over ||W||^2 / L."""
    norms = runs.set_index("seed").norm_per_layer
    depth = int(runs.depth.iloc[0])
    mine = spectra[spectra.model == model].sort_values(["seed", "point", "index"])
    sums, counts = [], {r.name: [] for r in registry[RANK_BELOW_NORM].every_reading}
    for seed, s in mine.groupby("seed", sort=True):
        points = s.groupby("point")
        sums.append(points.value.apply(schatten_share, depth=depth).max() / norms[seed])
        for reading in registry[RANK_BELOW_NORM].every_reading:
            q = reading.parameters
            column = "value" if q["scale"] == "absolute" else "ratio"
            rank = points[column].apply(lambda v, t=q["threshold"]: int((v >= t).sum()))
            counts[reading.name].append(rank.max() / norms[seed])
    detail = f"{model}, L = {depth}"
    ms = [measured(PROP3_BOUND, sums, detail=detail)]
    for reading, held in counts.items():
        ms.append(measured(RANK_BELOW_NORM, held, detail=detail, reading=reading))
    return ms


def depth_claims(sweep: pd.DataFrame, true_rank: int):
    """Section 4's argument, per seed and under each reading of the bottleneck rank (sweep has a
    row per run and reading): how many depths recover the true rank exactly (the bottleneck
    layer's rank equals k), at every N; that the range grows with N; that the smallest depth
    overestimates the rank. Where the sweep has a column `certified` (polished networks, each
    certified stationary or not), the rows that require `stationary` carry, per seed, whether
    every network they read is certified."""
    ms = []
    for reading, at_reading in sweep.groupby("reading", sort=False):
        ms += _depth_reading(at_reading, true_rank, reading)
    one_reading = sweep[sweep.reading == sweep.reading.iloc[0]]  # each network once
    ms.append(diverged_runs("jacot2023.depth.no_divergence", one_reading))
    return ms


def _stationary(rows: pd.DataFrame) -> dict | None:
    """{"stationary": per seed, whether every one of `rows`' networks is certified}, or None
    where the networks are the schedule's (no certificate read)."""
    if "certified" not in rows:
        return None
    return {"stationary": list(rows.groupby("seed", sort=True).certified.all())}


def _depth_reading(sweep: pd.DataFrame, true_rank: int, reading: str):
    ms, counts = [], {}
    sizes = sorted(sweep.n_train.unique())
    for n in sizes:
        at_n = sweep[sweep.n_train == n]
        per_seed = at_n.groupby("seed").apply(
            lambda s: int((s.bottleneck_rank == true_rank).sum()), include_groups=False
        )
        counts[n] = per_seed
        recovering = at_n[at_n.bottleneck_rank == true_rank].groupby("seed").depth.apply(list)
        detail = "; ".join(
            f"seed {s}: L = {_ranks_text(recovering.get(s, [])) or 'none'}" for s in per_seed.index
        )
        case = f"N = {n}, of {at_n.depth.nunique()} depths"
        ms.append(
            measured(DEPTH_RANK, list(per_seed), case, None, detail, reading, _stationary(at_n))
        )
        shallowest = at_n[at_n.depth == at_n.depth.min()].sort_values("seed")
        ms.append(
            measured(
                "jacot2023.depth.small_depth_overestimates",
                list(shallowest.bottleneck_rank),
                f"N = {n}, L = {int(shallowest.depth.iloc[0])}",
                ref=true_rank,
                reading=reading,
                meets=_stationary(shallowest),
            )
        )
    for n in sizes:  # Remark 5: no depth, the deepest included, reads a rank below k
        lowest = sweep[sweep.n_train == n].groupby("seed").bottleneck_rank.min()
        ms.append(
            measured(
                "jacot2023.depth.no_rank_underestimate",
                list(lowest),
                f"N = {n}, every depth",
                ref=true_rank,
                reading=reading,
            )
        )
    growth = counts[sizes[-1]] - counts[sizes[0]]
    case = f"N = {sizes[-1]} minus N = {sizes[0]}"
    both = sweep[sweep.n_train.isin([sizes[0], sizes[-1]])]
    ms.append(
        measured(
            "jacot2023.depth.range_grows_with_n",
            list(growth),
            case,
            reading=reading,
            meets=_stationary(both),
        )
    )
    return ms + [_identity_layer_cost(sweep[sweep.n_train == n], reading) for n in sizes]


DEPTH_CERTIFIED = "jacot2023.depth.polished_stationary"


def depth_certificate_claims(polished: pd.DataFrame) -> list:
    """Per N, every polished network's fall over the polish's second half (a stall reads
    infinite: stationarity.settled_falls), depth by depth, seed by seed; the depths with a
    network above the certificate's bar are the ones `certified` marks."""
    ms = []
    for n, at_n in polished.sort_values(["depth", "seed"]).groupby("n_train", sort=True):
        open_depths = sorted(at_n[~at_n.certified].depth.unique())
        detail = "not certified at L = " + _ranks_text(open_depths) if open_depths else ""
        case = f"N = {n}, {at_n.depth.nunique()} depths x {at_n.seed.nunique()} seeds"
        ms.append(measured(DEPTH_CERTIFIED, list(at_n.fall_last_half), case, detail=detail))
    return ms


PROP4_SLOPE = "jacot2023.depth.prop4_ratio_slope"
PROP4_BOUND = "jacot2023.depth.prop4_layer_norm_bound"


def prop4_claims(table: pd.DataFrame, registry) -> list:
    """Prop. 4 on the depth sweep (regression.prop4_table of every network), per N: each seed's
    slope of log min_l s_2/s_1(Z_l) against log L under each reading of PROP4_SLOPE, and per
    depth each seed's largest (L - l) ||W_(l+1)||_F^2 / ||W||^2. Where the table has
    `certified`, a slope's seed is read only where every network it reads is, a bound's network
    where it is."""
    ms, readings = [], registry[PROP4_SLOPE].every_reading
    for _, at_n in table.groupby("n_train", sort=True):
        ms += [_ratio_slope(at_n, r.name, r.parameters) for r in readings]
        ms += _layer_norm_bounds(at_n)
    return ms


def log_log_slope(depths, ratios) -> float | None:
    """The least-squares slope of log ratio against log depth; None where fewer than two depths
    or a ratio that is not positive leaves no slope."""
    depths, ratios = np.asarray(depths, dtype=float), np.asarray(ratios, dtype=float)
    if len(depths) < 2 or not (np.isfinite(ratios).all() and (ratios > 0).all()):
        return None
    return float(np.polyfit(np.log(depths), np.log(ratios), 1)[0])


def _ratio_slope(at_n: pd.DataFrame, reading: str, parameters: dict):
    seeds = sorted(at_n.seed.unique())
    read = at_n[at_n.depth >= parameters["min_depth"]].sort_values("depth")
    slopes, texts = [], []
    for s in seeds:
        mine = read[read.seed == s]
        slopes.append(log_log_slope(mine.depth, mine.min_ratio))
        texts.append(f"seed {s}: " + ", ".join(f"{v:.3g}" for v in mine.min_ratio))
    depths = _ranks_text(sorted(read.depth.unique()))
    detail = f"min ratio at L = {depths}; " + "; ".join(texts) if depths else "no depth read"
    meets = None
    if "certified" in at_n:
        meets = {"stationary": [bool(read[read.seed == s].certified.all()) for s in seeds]}
    case = f"N = {int(at_n.n_train.iloc[0])}, of {at_n.depth.nunique()} depths"
    return measured(PROP4_SLOPE, slopes, case, None, detail, reading, meets)


def _layer_norm_bounds(at_n: pd.DataFrame) -> list:
    """A case per depth at one N: each seed's largest (L - l) ||W_(l+1)||_F^2 / ||W||^2, with
    the median C_N = ||W||^2 - L beside it."""
    ms = []
    for depth, at_l in at_n.sort_values("seed").groupby("depth", sort=True):
        detail = f"median ||W||^2 - L {at_l.c_n.median():.1f}"
        meets = {"stationary": list(at_l.certified)} if "certified" in at_l else None
        case = f"N = {int(at_l.n_train.iloc[0])}, L = {depth}"
        ms.append(measured(PROP4_BOUND, list(at_l.bound), case, detail=detail, meets=meets))
    return ms


IDENTITY_LAYER = "jacot2023.depth.identity_layer_cost"


def _identity_layer_cost(at_n: pd.DataFrame, reading: str):
    """Sec. 4's cost of an added identity layer at the deepest two swept depths L < L', per seed:
    (||W||^2 at L' - ||W||^2 at L) / (L' - L) over the bottleneck rank at L'."""
    shallower, deeper = sorted(at_n.depth.unique())[-2:]
    by_depth = at_n.set_index(["depth", "seed"]).sort_index()
    norms = by_depth.norm_per_layer * by_depth.index.get_level_values("depth")
    seeds = sorted(at_n.seed.unique())
    added = [(norms[deeper, s] - norms[shallower, s]) / (deeper - shallower) for s in seeds]
    ranks = [int(by_depth.bottleneck_rank[deeper, s]) for s in seeds]
    pairs = list(zip(added, ranks, strict=True))
    detail = "; ".join(
        f"seed {s}: {a:.1f} per layer, rank {r}" for s, (a, r) in zip(seeds, pairs, strict=True)
    )
    case = f"N = {int(at_n.n_train.iloc[0])}, L = {shallower} to {deeper}"
    read = at_n[at_n.depth.isin([shallower, deeper])]
    ratios = [a / r for a, r in pairs]
    return measured(IDENTITY_LAYER, ratios, case, None, detail, reading, _stationary(read))


def _fits(runs: pd.DataFrame) -> list:
    """Per network: whether it fits its training set (accuracy 1) without diverging."""
    return list((runs.train_accuracy == 1) & ~runs.diverged.astype(bool))


def fig2_claims(summary: pd.DataFrame, shallow: int, deep: int):
    """Tripoints inside the data's region, per seed: present for the shallow networks, absent
    for the deep ones, with and without L2; a network that does not fit its training set is
    left out (the registry's precondition, as in the Fig. 2 study)."""
    ms = []
    for (depth, lam), runs in summary.groupby(["depth", "lam"], sort=True):
        if depth in (shallow, deep):
            runs = runs.sort_values("seed")
            claim_id, case = _tripoint_case(depth, lam, shallow)
            ms.append(
                measured(
                    claim_id,
                    list(runs.tripoints),
                    case,
                    detail="train accuracy " + ", ".join(f"{a:.3f}" for a in runs.train_accuracy),
                    meets={"fits": _fits(runs)},
                )
            )
    ms.append(diverged_runs("jacot2023.fig2.no_divergence", summary))
    return ms


def _tripoint_case(depth: int, lam: float, shallow: int) -> tuple[str, str]:
    claim_id = f"jacot2023.fig2.tripoints_{'shallow' if depth == shallow else 'deep'}"
    return claim_id, f"L = {depth}, lambda = {lam:g}"


def fig2_unregularized(
    summary: pd.DataFrame, polished: pd.DataFrame, shallow: int, deep: int
) -> list[tuple[str, str]]:
    """The (claim_id, case) of fig2_claims' rows over networks that were not polished, those
    trained without L2 (classes.polish_panels: cross-entropy alone has no minimum, it falls as
    the weights grow), so they are read on one network."""
    pairs = summary[~summary.lam.isin(polished.lam)][["depth", "lam"]].drop_duplicates()
    return [
        _tripoint_case(d, lam, shallow)
        for d, lam in pairs.itertuples(index=False)
        if d in (shallow, deep)
    ]


def fig2_polished_runs(schedule: pd.DataFrame, polished: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2's runs (or class maps) as the ledger reads them on polished networks: the
    networks trained with L2 polished, the others as the schedule left them (trained without
    L2, they have no minimum to polish towards), so that L2's effect compares the polished
    partitions with the unregularized ones."""
    return pd.concat([schedule[~schedule.lam.isin(polished.lam)], polished], ignore_index=True)


FIG2_CERTIFIED = "jacot2023.fig2.polished_stationary"


def fig2_certificate_claims(certificates: pd.DataFrame) -> list:
    """Per depth, every polished network's (each lambda > 0, every seed) fall over the polish's
    second half (the check's bar is the entry's criterion; a stall reads infinite)."""

    def case(depth, group):
        lams = ", ".join(f"{lam:g}" for lam in sorted(group.lam.unique()))
        return f"L = {depth}, lambda = {lams}, {group.seed.nunique()} seeds"

    return settled_fall_measurements(FIG2_CERTIFIED, certificates, "depth", ["lam", "seed"], case)


L2_EFFECT = "jacot2023.fig2.l2_little_effect"


def fig2_l2_claims(regions: pd.DataFrame, summary: pd.DataFrame, shallow, deep, readings):
    """L2's "little effect" on the partition, per depth and seed: the share of the grid whose
    class differs between the networks trained without and with L2, over the reading's scale
    (the share that differs between the two depths at the same lambda, the smaller of the two;
    or a fixed share of the plotted box). Every network the reading compares must fit: the pair,
    and for the depth's scale the other depth's pair too."""
    lams = sorted(regions.lam.unique())
    seeds = sorted(regions.seed.unique())
    maps = {k: g.label.to_numpy() for k, g in regions.groupby(["seed", "depth", "lam"])}
    keys = zip(summary.seed, summary.depth, summary.lam, strict=True)
    fits = dict(zip(keys, _fits(summary), strict=True))
    ms = []
    for depth in (shallow, deep):
        l2 = [np.mean(maps[s, depth, lams[0]] != maps[s, depth, lams[-1]]) for s in seeds]
        by_depth = [
            min(np.mean(maps[s, shallow, lam] != maps[s, deep, lam]) for lam in lams) for s in seeds
        ]
        for reading in readings:
            q = reading.parameters
            scale = by_depth if q["against"] == "depth" else [q["share"]] * len(seeds)
            compared = (shallow, deep) if q["against"] == "depth" else (depth,)
            fit = [all(fits[s, d, lam] for d in compared for lam in lams) for s in seeds]
            ratios = [a / b for a, b in zip(l2, scale, strict=True)]
            detail = "shares " + ", ".join(f"{a:.3f}" for a in l2)
            detail += "; across depths " + ", ".join(f"{b:.3f}" for b in by_depth)
            if q["against"] == "depth":
                pair_fits = [all(fits[s, depth, lam] for lam in lams) for s in seeds]
                detail += "; " + _earlier_precondition(ratios, pair_fits)
            ms.append(
                measured(
                    L2_EFFECT,
                    ratios,
                    f"L = {depth}",
                    detail=detail,
                    reading=reading.name,
                    meets={"fits": fit},
                )
            )
    return ms


def _earlier_precondition(ratios, pair_fits) -> str:
    """What the reading against the depth's effect read before its precondition widened to the
    other depth's pair (the entry's history): the ratios of the seeds whose pair at the row's
    depth fits."""
    kept = [f"{r:.2f}" for r, fit in zip(ratios, pair_fits, strict=True) if fit]
    return (
        f"under the earlier precondition (this depth's pair fits): "
        f"{len(kept)} of {len(ratios)} seeds measured"
        + (f", ratios {', '.join(kept)}" if kept else "")
    )


# the data set whose shallow autoencoder the paper shows (Fig. 3 C); MNIST has no shallow panel
SHALLOW_PANEL = "curve"


def fig3_claims(summary: pd.DataFrame):
    """Per seed: the deep autoencoder's mean distance to the data over its inputs' (deep ones
    denoise), and, on the data set of the paper's shallow panel, over the shallow one's."""
    ms = []
    for dataset, group in summary.groupby("dataset", sort=False):
        deep = group[group.depth == group.depth.max()].sort_values("seed")
        shallow = group[group.depth == group.depth.min()].sort_values("seed")
        case = f"{dataset}, L = {int(deep.depth.iloc[0])} vs {int(shallow.depth.iloc[0])}"
        if dataset == SHALLOW_PANEL:
            ms.append(
                measured(
                    "jacot2023.fig3.deep_vs_shallow",
                    list(deep.output_distance.to_numpy() / shallow.output_distance.to_numpy()),
                    case,
                )
            )
        ms.append(
            measured(
                "jacot2023.fig3.deep_denoises",
                list(deep.output_distance / deep.input_distance),
                f"{dataset}, L = {int(deep.depth.iloc[0])}",
            )
        )
    ms.append(diverged_runs("jacot2023.fig3.no_divergence", summary))
    return ms


FIG3_CERTIFIED = "jacot2023.fig3.polished_stationary"


def fig3_certificate_claims(certificates: pd.DataFrame) -> list:
    """Per data set, every autoencoder's (both depths, every seed) polished fall over the
    polish's second half (the check's bar is the entry's criterion; a stall reads infinite)."""

    def case(dataset, group):
        depths = " and ".join(str(d) for d in sorted(group.depth.unique()))
        return f"{dataset}, L = {depths}, {group.seed.nunique()} seeds"

    return settled_fall_measurements(
        FIG3_CERTIFIED, certificates, "dataset", ["depth", "seed"], case
    )


FIG2_STUDY = "jacot2023.fig2study"


def fig2_study_claims(networks: pd.DataFrame, tripoints: pd.DataFrame, shallow: int, deep: int):
    """The Fig. 2 study: per family, box and lambda, the tripoints of the shallow and of the
    deep networks, one value per seed (a network that does not fit its training set, accuracy
    1, is left out by the registry's precondition, and counted); a family whose S's do not
    interleave reads only the deep networks, under its own id. Per family, depth and lambda,
    whether any network's tripoint count in any box changed over the last fifth of the steps."""
    ms = []
    keys = ["family", "depth", "lam", "seed"]
    runs = networks.set_index(keys)
    for (family, depth, lam, pad), counts in tripoints.groupby(
        ["family", "depth", "lam", "pad"], sort=True
    ):
        counts = counts.sort_values("seed")
        mine = runs.loc[[tuple(k) for k in counts[keys].values]]
        interleaved = bool(mine.interleaved.iloc[0])
        if depth not in (shallow, deep) or (depth == shallow and not interleaved):
            continue
        claim_id = f"{FIG2_STUDY}.tripoints_{'shallow' if depth == shallow else 'deep'}"
        where = "data box" if pad == 1 else f"{pad:g}x box"
        ms.append(
            measured(
                claim_id if interleaved else f"{FIG2_STUDY}.tripoints_deep_not_interleaved",
                list(counts.tripoints),
                f"{family}, {where}, L = {depth}, lambda = {lam:g}",
                meets={"fits": _fits(mine)},
            )
        )
    for (family, depth, lam), mine in networks.groupby(["family", "depth", "lam"], sort=True):
        ms.append(
            measured(
                f"{FIG2_STUDY}.tripoints_settled",
                list(mine.sort_values("seed").tripoints_changed_last_fifth),
                f"{family}, L = {depth}, lambda = {lam:g}",
            )
        )
    return ms


def fig2_study_unregularized(
    networks: pd.DataFrame, tripoints: pd.DataFrame, polished: pd.DataFrame, shallow, deep
) -> list[tuple[str, str]]:
    """The (claim_id, case) of fig2_study_claims' tripoint rows over networks that were not
    polished, those trained without L2 (polishing.polish_fig2_study: cross-entropy alone has no
    minimum, it falls as the weights grow), so they are read on one network."""
    kept = lambda t: t[~t.lam.isin(polished.lam)]  # noqa: E731
    ms = fig2_study_claims(kept(networks), kept(tripoints), shallow, deep)
    return [(m.claim_id, m.case) for m in ms if m.claim_id != f"{FIG2_STUDY}.tripoints_settled"]


FIG2_STUDY_CERTIFIED = f"{FIG2_STUDY}.polished_stationary"


def fig2_study_certificate_claims(certificates: pd.DataFrame) -> list:
    """Per family and depth, every polished network's (each lambda > 0, every seed) fall over
    the polish's second half (the check's bar is the entry's criterion; a stall reads
    infinite)."""

    def case(key, group):
        family, depth = key
        lams = ", ".join(f"{lam:g}" for lam in sorted(group.lam.unique()))
        return f"{family}, L = {depth}, lambda = {lams}, {group.seed.nunique()} seeds"

    return settled_fall_measurements(
        FIG2_STUDY_CERTIFIED, certificates, ["family", "depth"], ["lam", "seed"], case
    )


def data_rank(projections: pd.DataFrame, variance_held: float) -> int:
    """The fewest principal directions of the training digits that hold `variance_held` of
    their variance (`projections` of one network: fig3_study.projections)."""
    return int(projections.loc[projections.variance_held >= variance_held, "rank"].min())


def reading_rank(projections: pd.DataFrame, data_dimension: float, parameters: dict) -> int:
    """The digits' dimension k under one reading: their intrinsic dimension (`data_dimension`,
    the TwoNN estimate, rounded) or the fewest principal directions holding `variance_held`."""
    if "estimator" in parameters:
        if parameters["estimator"] != "twonn":
            raise ValueError(f"unknown dimension estimator {parameters['estimator']!r}")
        return int(round(data_dimension))
    return data_rank(projections, parameters["variance_held"])


def span_rank(projections: pd.DataFrame) -> int:
    """The dimension of the span of the centred training digits (`projections` of one network):
    the fewest principal directions holding all their variance, to rounding. The affine
    projection on that span, x -> mean + P (x - mean), reproduces every training digit."""
    return data_rank(projections, 1 - 1e-9)


def _mnist_projection(deep: pd.DataFrame, projections: pd.DataFrame, readings, meets) -> list:
    """Per seed, where the deep autoencoder's noise share lies between that of the PCA projection
    on the digits' k leading directions (0) and that of the projection on their span (1,
    span_rank), k their dimension under each reading (reading_rank; the networks'
    data_dimension column holds the digits' TwoNN estimate). `meets`: the rows' preconditions
    per seed, besides not_collapsed (a network whose Jacobian is zero at every clean digit is
    constant there); fit_matched counts as met by a seed that fails the reading even so (a
    worse fit passes less of everything, so it can only flatter the row)."""
    deep_shares = projections[projections.depth == deep.depth.max()]
    ms = []
    for reading in readings:
        ranks, values = [], []
        for seed in deep.index:
            mine = deep_shares[deep_shares.seed == seed].sort_values("rank")
            ranks.append(reading_rank(mine, deep.data_dimension[seed], reading.parameters))
            share = mine.set_index("rank").pca_noise_share
            at_k, span = share[ranks[-1]], share[span_rank(mine)]
            # where k reaches the span the two bars meet: the reading cannot place the network
            gap = span - at_k
            values.append((deep.noise_share[seed] - at_k) / gap if gap > 0 else None)
        fails = [v is not None and not reading.criterion.holds(v) for v in values]
        matched = [m or f for m, f in zip(meets["fit_matched"], fails, strict=True)]
        ms.append(
            measured(
                "jacot2023.fig3study.mnist_noise_like_projection",
                values,
                f"mnist, L = {int(deep.depth.iloc[0])}",
                detail="k = " + ", ".join(map(str, sorted(set(ranks)))),
                reading=reading.name,
                meets={"not_collapsed": list(deep.jacobian_norm > 0)}
                | meets
                | {"fit_matched": matched},
            )
        )
    return ms


def last_change(runs: pd.DataFrame) -> pd.Series:
    """Each network's relative change of its objective over its last stretch of training (the
    converged check and the rows' precondition settled read it; so does the study's figure)."""
    return (1 - runs.objective / runs.objective_before_last_phase).abs()


def fig3_study_claims(
    curves: pd.DataFrame,
    mnist: pd.DataFrame,
    projections: pd.DataFrame,
    shallow: int,
    deep_from: int,
    registry,
):
    """The Fig. 3 study. Curves, one value per (curve, seed) network: at every depth from
    `deep_from` on, the distance ratio to the curve, against the shallow network of the same curve
    and seed, and the Jacobian's s_2/s_1 at the data; at `shallow`, the distance ratio. MNIST,
    one value per seed: the deep autoencoder's noise share against PCA's (`projections`) under
    each reading of the digits' dimension. A network is measured once settled (its change under
    the converged check's bar), the deep MNIST one once it fits as the shallow one does (the
    mnist_deep_fits check's bar). Checks: every network's settling, the MNIST fit, and whether
    the trained curves are injective (curves: a column `injective` per network). On polished
    networks (fig3_study_polished: a column `certified`), the rows about the learned
    autoencoder's rank carry whether each network is certified stationary."""
    # a network has settled when its objective moved by at most the converged check's bar
    settled_bar = registry["jacot2023.fig3study.converged"].every_reading[0].parameters["bar"]

    def settled(runs) -> pd.Series:
        return last_change(runs) <= settled_bar

    ms = _fig3_study_curve_rows(curves, shallow, deep_from, settled)
    ms += _fig3_study_mnist_rows(mnist, projections, registry, settled)
    return ms + _fig3_study_checks(curves, mnist, settled_bar)


def _at_minima(runs, meets: dict) -> dict:
    """`meets`, and for polished networks (fig3_study_polished) whether each is certified
    stationary."""
    return meets | ({"stationary": list(runs.certified)} if "certified" in runs else {})


def _fig3_study_curve_rows(curves, shallow, deep_from, settled) -> list:
    """The curves' rows: the shallow networks' distance ratio, and at every depth from
    `deep_from` on the deep ones', against the shallow one, and their Jacobian's s_2/s_1."""
    key = ["curve", "seed"]
    base = curves[curves.depth == shallow].set_index(key).sort_index()
    ratio = base.output_distance / base.input_distance
    ms = [
        measured(
            "jacot2023.fig3study.shallow_does_not_denoise",
            list(ratio),
            f"curves, L = {shallow}",
            meets={"settled": list(settled(base))},
        )
    ]
    for depth, runs in curves[curves.depth >= deep_from].groupby("depth", sort=True):
        runs = runs.set_index(key).sort_index()
        case = f"curves, L = {depth}"
        meets = {"settled": list(settled(runs))}
        ms.append(
            measured(
                "jacot2023.fig3study.deep_denoises",
                list(runs.output_distance / runs.input_distance),
                case,
                detail=f"||W||^2/L median {runs.norm_per_layer.median():.3g}",
                meets=meets,
            )
        )
        # a pair is measured when both its networks settled (aligned by curve and seed)
        both = settled(runs) & settled(base).reindex(runs.index)
        ms.append(
            measured(
                "jacot2023.fig3study.deep_vs_shallow",
                list(runs.output_distance / base.output_distance),
                f"curves, L = {depth} vs {shallow}",
                meets={"settled": list(both)},
            )
        )
        ms.append(
            measured(
                "jacot2023.fig3study.deep_jacobian_rank_one",
                list(runs.jacobian_ratio),
                case,
                meets=_at_minima(runs, meets),
            )
        )
    return ms


def _fig3_study_mnist_rows(mnist, projections, registry, settled) -> list:
    """MNIST's rows: the deep autoencoder's noise share against the projections' under each
    reading, measured once it settled and fits as the shallow one does, and that fit."""
    matched_bar = registry["jacot2023.fig3study.mnist_deep_fits"].criterion
    deep_mnist = mnist[mnist.depth == mnist.depth.max()].set_index("seed").sort_index()
    shallow_mnist = mnist[mnist.depth == mnist.depth.min()].set_index("seed").sort_index()
    fit = deep_mnist.loss / shallow_mnist.loss.reindex(deep_mnist.index)
    meets = {
        "settled": list(settled(deep_mnist)),
        "fit_matched": [matched_bar.holds(v) for v in fit],
    }
    meets = _at_minima(deep_mnist, meets)
    readings = registry["jacot2023.fig3study.mnist_noise_like_projection"].every_reading
    ms = _mnist_projection(deep_mnist, projections, readings, meets)
    ms.append(
        measured(
            "jacot2023.fig3study.mnist_deep_fits",
            list(fit),
            f"mnist, L = {int(deep_mnist.depth.iloc[0])} vs {int(shallow_mnist.depth.iloc[0])}",
        )
    )
    return ms


def _fig3_study_checks(curves, mnist, settled_bar) -> list:
    """Every network's settling, and whether the trained curves are injective."""
    every = pd.concat([curves.assign(data="curves"), mnist.assign(data="mnist")])
    change = last_change(every)
    repeats = every.groupby(["data", "depth"]).last_phase_repeats.max()
    first = curves.drop_duplicates("curve").sort_values("curve")
    return [
        measured(
            "jacot2023.fig3study.converged",
            int((change > settled_bar).sum()),
            detail=f"of {len(every)}; largest change {change.max():.2%}; last phase repeated "
            + ", ".join(f"{r} ({d}, L = {L})" for (d, L), r in repeats.items()),
        ),
        measured(
            "jacot2023.fig3study.curves_injective",
            [int(not v) for v in first.injective],
            detail="curves " + ", ".join(map(str, first.curve)),
        ),
    ]


FIG3_STUDY_CERTIFIED = "jacot2023.fig3study.polished_stationary"


def fig3_study_polished(polished: pd.DataFrame, certificates: pd.DataFrame, keys, bar: float):
    """The study's polished networks (one table: curves or MNIST; `keys` name a network in it
    and in the certificates) as its rows read them: a polished network's last stretch is its
    polish's second half, so objective_before_last_phase is the objective there (the rows'
    precondition settled reads the polish as it reads training; a stall at a kink reads an
    infinite fall, so it is not settled), and `certified` says whether that fall is at most
    `bar`."""
    mine = certificates[certificates.network == "polished"]
    # a stall reads an infinite fall: neither settled nor certified
    falls = mine[keys].assign(fall=stationarity.settled_falls(mine))
    table = polished.merge(falls, on=keys, how="left", validate="one_to_one")
    return table.assign(
        objective_before_last_phase=table.objective * (1 + table.fall),
        certified=table.fall <= bar,
    ).drop(columns=["fall"])


def fig3_study_certificate_claims(certificates: pd.DataFrame) -> list:
    """Per data set and depth, every polished autoencoder's fall over the polish's second half
    (the check's bar is the entry's criterion; a stall reads infinite)."""

    def case(key, group):
        data, depth = key
        return f"{data}, L = {depth}, {len(group)} networks"

    order = [k for k in ("curve", "seed") if k in certificates]
    return settled_fall_measurements(
        FIG3_STUDY_CERTIFIED, certificates, ["data", "depth"], order, case
    )


# constructions.constructions_table's checks: the entry that reads each
CONSTRUCTION_IDS = {
    "claim1_rank_gap": "jacot2023.theory.claim1_bijection_rank",
    "example1_jump": "jacot2023.theory.example1_continuous",
    "example1_identity": "jacot2023.theory.example1_identity_on_cross",
    "example1_rank": "jacot2023.theory.example1_rank_one",
    "doubling_error": "jacot2023.theory.cor1_neuron_doubling",
    "krr_rank_gap": "jacot2023.theory.krr_rank_formula",
    "rank_one_ties": "jacot2023.theory.rank_one_no_three_classes",
    "prop5_misfit": "jacot2023.theory.prop5_construction_fits",
    "prop5_constant_spread": "jacot2023.theory.prop5_norm_kl_plus_c",
    "appf_true_rank": "jacot2023.theory.fig1_true_rank",
    "prop2_misfit": "jacot2023.theory.prop2_interpolator_fits",
    "prop2_constant_spread": "jacot2023.theory.prop2_norm_l_plus_cn",
    "range_growth": "jacot2023.theory.range_grows_with_n",
    "undercut_depth": "jacot2023.theory.large_depth_undercut",
    "thm2_slope_over_tsp": "jacot2023.theory.thm2_tsp_slope",
    "thm2_tsp_rate": "jacot2023.theory.thm2_tsp_rate",
    "prop10_norm_over_bound": "jacot2023.theory.prop10_norm_bound",
    "prop1_violations": "jacot2023.theory.prop1_rank_properties",
    "thm1_sandwich_order": "jacot2023.theory.thm1_sandwich_order",
    "thm1_sandwich_closes": "jacot2023.theory.thm1_sandwich_closes",
    "thm1_properties_misfit": "jacot2023.theory.thm1_properties_fit",
    "thm1_properties_constant_spread": "jacot2023.theory.thm1_properties_cost",
    "thm1_affine_closes": "jacot2023.theory.thm1_affine_closes",
    "sec2_slope": "jacot2023.theory.sec2_reduction_slope",
    "sec2_reduction_misfit": "jacot2023.theory.sec2_reduction_fits",
    "sec2_network_misfit": "jacot2023.theory.sec2_network_same_function",
    "sec2_cost_scaling": "jacot2023.theory.sec2_cost_scaling",
    "sec3_misfit": "jacot2023.theory.sec3_bijection_network_fits",
    "sec3_constant_spread": "jacot2023.theory.sec3_bijection_cost",
    "sec3_closes": "jacot2023.theory.sec3_bijection_closes",
}


def construction_claims(table: pd.DataFrame):
    """A row per check, reading and case (where a check has cases) of
    constructions.constructions_table."""
    return [
        measured(CONSTRUCTION_IDS[r.check], r.value, getattr(r, "case", ""), reading=r.reading)
        for r in table.fillna("").itertuples()
    ]


def _rank_study_case(scale, factor, depth, cell) -> str:
    case = f"{scale} data, lambda x{factor:g} = {cell.lam.iloc[0]:g}, L = {depth}"
    return case + (", the selected setting" if cell.selected.all() else "")


def rank_study_claims(
    networks: pd.DataFrame, true_rank: int, registry, certified: dict | None = None
):
    """The rank study, one case per setting (data scale, lambda, depth): per seed the fit (the
    precondition of the norm's and the ranks' rows, read with its entry's bar) and how far the
    norm still moved at the end, ||W||^2/L with Prop. 3's floor beside it, Prop. 3's bound, and
    the middle layers' and the Jacobian's ranks under each reading (networks has a column per
    reading). With `certified` ({(scale, lam_factor, depth, seed): whether the network is
    certified stationary}), on polished networks, the Jacobian's rank, stated at minima, carries
    it as the precondition `stationary`."""
    fit_bar = registry[f"{RANK_STUDY}.fits"].criterion
    ms = []
    cells = networks.groupby(["scale", "lam_factor", "depth"], sort=False)
    for (scale, factor, depth), cell in cells:
        cell = cell.sort_values("seed")
        case = _rank_study_case(scale, factor, depth, cell)
        fit = list(cell.loss / cell.output_variance)
        fitted = [fit_bar.holds(v) and not d for v, d in zip(fit, cell.diverged, strict=True)]
        meets = {"fits_data": fitted}
        at_minima = meets
        if certified is not None:
            at_minima = meets | {"stationary": seeds_certified(certified, rank_study_keys(cell))}

        ms.append(measured(f"{RANK_STUDY}.fits", fit, case))
        ms.append(measured(RANK_STUDY_SETTLED, list(cell.norm_drift), case))
        floor = "Prop. 3's floor " + ", ".join(f"{v:.2f}" for v in cell.floor_median)
        norms = list(cell.norm_per_layer)
        ms.append(measured(f"{RANK_STUDY}.norm_per_layer", norms, case, detail=floor, meets=meets))
        bound = list(cell.floor_max / cell.norm_per_layer)
        ms.append(measured(f"{RANK_STUDY}.prop3_bound", bound, case))
        for reading in registry[RANK_STUDY_MIDDLE].every_reading:
            values = list(cell[f"middle rank: {reading.name}"])
            detail = "per seed " + "; ".join(cell[f"middle ranks: {reading.name}"].astype(str))
            ms.append(
                measured(RANK_STUDY_MIDDLE, values, case, true_rank, detail, reading.name, meets)
            )
        for reading in registry[RANK_STUDY_JACOBIAN].every_reading:
            values = list(cell[f"jacobian rank: {reading.name}"])
            ms.append(
                measured(RANK_STUDY_JACOBIAN, values, case, true_rank, "", reading.name, at_minima)
            )
        ms.append(diverged_runs(f"{RANK_STUDY}.no_divergence", cell, case))
    return ms


RANK_STUDY_CERTIFIED = f"{RANK_STUDY}.polished_stationary"
RANK_STUDY_NETWORK = ["scale", "lam_factor", "depth", "seed"]


def rank_study_keys(table: pd.DataFrame) -> list[tuple]:
    """Each row's network, (scale, lam_factor, depth, seed) as plain values."""
    columns = (table[k] for k in RANK_STUDY_NETWORK)
    return [(str(s), float(f), int(d), int(n)) for s, f, d, n in zip(*columns, strict=True)]


def rank_study_certified(certificates: pd.DataFrame, bar: float) -> dict:
    """{rank_study_keys' network: whether that polished network's fall over the polish's second
    half is at most `bar`} (a stall reads infinite: stationarity.settled_falls)."""
    polished = certificates[certificates.network == "polished"]
    falls = stationarity.settled_falls(polished)
    return {
        key: bool(fall <= bar) for key, fall in zip(rank_study_keys(polished), falls, strict=True)
    }


def rank_study_certificate_claims(certificates: pd.DataFrame, selected_depth: int) -> list:
    """Per setting, every seed's polished network's fall over the polish's second half (the
    check's bar is the entry's criterion), |grad J| beside it."""

    def case(setting, cell):
        scale, factor, depth = setting
        return _rank_study_case(scale, factor, depth, cell.assign(selected=depth == selected_depth))

    return settled_fall_measurements(
        RANK_STUDY_CERTIFIED, certificates, RANK_STUDY_NETWORK[:3], ["seed"], case
    )


REMARK2_SUFFICES = "jacot2023.theory.remark2_width_suffices"
REMARK2_SMALLER = "jacot2023.theory.remark2_smaller_width"
REMARK2_CERTIFIED = "jacot2023.theory.remark2_polished_stationary"


def _case(n: int, depth: int) -> str:
    return f"X = I_N, Y = B_N, N = {n}, L = {depth}"


def remark2_claims(
    losses: pd.DataFrame, n: int, depth: int, readings, certified: dict | None = None
) -> list:
    """Remark 2 on its runs' losses, per seed: how much lower than the best at N(N + 1) the
    wider networks get (relative; 0 when no wider one does better), and, under each reading of
    REMARK2_SMALLER (its onset tolerance), the plateau onset over N(N + 1). With `certified`
    ({(setting, N, seed): whether every width's network is certified stationary}), on polished
    networks, each measurement carries that as the precondition `stationary`."""
    tables = {
        r.name: widths.sufficiency_table(losses, n, r.parameters["rel_tol"]) for r in readings
    }
    table = next(iter(tables.values()))  # the lowest losses do not depend on the tolerance
    meets = {}
    if certified is not None:
        keys = [(losses.setting.iloc[0], n, int(seed)) for seed in table.seed]
        meets = {"stationary": seeds_certified(certified, keys)}
    ms = []
    for name, t in tables.items():
        detail = "onsets " + ", ".join(str(o) for o in t.onset)
        ratios = list(t.onset / t.n_n_plus_1)
        ms.append(measured(REMARK2_SMALLER, ratios, _case(n, depth), None, detail, name, meets))
    lower = list(table.lowest / table.best_upto_n_n_plus_1 - 1)
    detail = f"N(N + 1) = {n * (n + 1)}"
    ms.append(measured(REMARK2_SUFFICES, lower, _case(n, depth), detail=detail, meets=meets))
    return ms


def remark2_certificate_claims(falls: pd.DataFrame, n: int, depth: int) -> list:
    """Every width's and seed's polished Remark 2 network's fall (`falls`: jacot2022's
    polished_falls of the certificates), judged by REMARK2_CERTIFIED's criterion; which widths
    stalled is in the certificates (certificate.csv beside each polished run)."""
    widths_seeds = f"{falls.width.nunique()} widths x {falls.seed.nunique()} seeds"
    return [measured(REMARK2_CERTIFIED, list(falls.fall), f"{_case(n, depth)}, {widths_seeds}")]
