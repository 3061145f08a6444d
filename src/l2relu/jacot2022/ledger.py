"""jacot2022's measurements, each for an entry of the claims registry
(workflow/claims/jacot2022.yaml)."""

import numpy as np
import pandas as pd

from l2relu.jacot2022 import infeasible, theory
from l2relu.jacot2022.plateau import plateau_onset, plateau_onset_on_log_scale, rise_beyond_spread
from l2relu.ledger.certificate_rows import settled_fall_measurements
from l2relu.ledger.claims import diverged_runs, measured
from l2relu.training import stationarity

ONSET_FIG2 = "jacot2022.fig2.plateau_onset"
TEST_BELOW_TRAIN = "jacot2022.fig2.test_below_train"
RAYS = "jacot2022.fig1.neurons_along_rays"
CLUSTERS = "jacot2022.fig1.inputs_cluster_by_digit"
FORCES = "jacot2022.fig1.forces_cancel"
INWARD = "jacot2022.fig1.attraction_inward"
OUTWARD = "jacot2022.fig1.repulsion_outward"
APART = "jacot2022.fig1.classes_pushed_apart"
ONSET_IDS = {
    "bipartite": "jacot2022.theory.prop14_bipartite_onset",
    "onehot": "jacot2022.theory.prop14_onehot_onset",
    "oned": "jacot2022.theory.prop15_oned_onset",
}


def onset_readings(losses: pd.DataFrame, registry, onehot_classes: int):
    """Every setting's plateau onsets under every reading of its entry (ONSET_IDS), as
    (reading, onsets) pairs, and the onsets of each setting's primary reading (the figure's)."""
    pairs, primary = [], []
    for setting, claim_id in ONSET_IDS.items():
        mine = losses[losses.setting == setting]
        for n, reading in enumerate(registry[claim_id].every_reading if len(mine) else []):
            onsets = theory.onsets(mine, **reading.parameters).assign(reading=reading.name)
            onsets["expected"] = [
                theory.expected_onset(setting, k, onehot_classes) for k in onsets.N
            ]
            pairs.append((reading.name, onsets))
            primary += [onsets] if n == 0 else []
    return pairs, pd.concat(primary, ignore_index=True)


PROP19_ENDPOINT = "jacot2022.theory.prop19_not_reformulation_minimum"


def theory_claims(
    prop13, remark23, prop1, prop19, onset_readings, plateau_levels, lam, prop19_readings=()
):
    """`onset_readings`: (reading, onsets) pairs, each setting's onsets under each reading of
    its entry (ONSET_IDS); `prop19_readings`: the readings of PROP19_ENDPOINT's entry."""
    ms = []
    for r in prop13.itertuples():
        ms.append(
            measured("jacot2022.theory.prop13_edge_count", r.edges, f"N = {r.N}", ref=r.N**2 / 4)
        )
        ms.append(measured("jacot2022.theory.prop13_no_triangles", r.triangles, f"N = {r.N}"))
    for r in remark23.itertuples():
        case = f"N = {r.N}"
        ms.append(
            measured(
                "jacot2022.theory.remark23_width_n_norm", r.width_N_norm, case, ref=r.N**2 + r.N
            )
        )
        ms.append(measured("jacot2022.theory.remark23_width_n_output", r.width_N_error, case))
    ms.append(
        measured(
            "jacot2022.theory.prop1_reformulation_identity",
            prop1.relative_gap.max(),
            detail=f"largest of {len(prop1)} random Z",
        )
    )
    p19 = prop19.iloc[0]
    ms.append(
        measured(
            "jacot2022.theory.prop19_local_minimum",
            p19.lowest_nearby - p19.loss_at_point,
            detail=f"{int(p19.samples)} points within {p19.radius:g}",
        )
    )
    for reading in prop19_readings:
        q = reading.parameters
        ms.append(
            measured(
                PROP19_ENDPOINT,
                p19[f"endpoint_{q['outputs']}_{q['perturbation']}"],
                detail=f"covariances within {p19.endpoint_distance:.1e}",
                reading=reading.name,
            )
        )
    ms += onset_claims(onset_readings)
    for n, r in plateau_levels.groupby("N", sort=True):
        r = r.sort_values("seed")
        ms.append(
            measured(
                "jacot2022.theory.remark23_plateau_level", list(r.level / lam), f"N = {n}", ref=n**2
            )
        )
    return ms


def onset_claims(onset_readings, certified: pd.DataFrame | None = None) -> list:
    """Per setting, N and reading, every seed's plateau onset (`onset_readings` as
    onset_readings returns them). With `certified` (per setting, N and seed: whether every
    width's network is certified stationary, certified()), on polished networks, each
    measurement carries that as the precondition `stationary`."""
    ms = []
    for reading, onsets in onset_readings:
        for (setting, n), r in onsets.groupby(["setting", "N"], sort=True):
            r = r.sort_values("seed")
            ref = 4 * n if setting == "oned" else r.expected.iloc[0]
            meets = None
            if certified is not None:
                keys = zip([setting] * len(r), [n] * len(r), r.seed, strict=True)
                meets = {"stationary": seeds_certified(certified, keys)}
            ms.append(
                measured(ONSET_IDS[setting], list(r.onset), f"N = {n}", ref, "", reading, meets)
            )
    return ms


def seeds_certified(certified, keys) -> list[bool]:
    """Whether each network set `keys` names is certified; one with no certificate at all is an
    error, never read as uncertified."""
    keys = list(keys)
    missing = [k for k in keys if k not in certified]
    if missing:
        raise ValueError(f"no certificate read for {missing}")
    return [bool(certified[k]) for k in keys]


PLATEAU_CERTIFIED = "jacot2022.theory.polished_stationary"


PLATEAU_NETWORK = ["setting", "N", "seed", "width"]
FIG2_NETWORK = ["dataset", "lam", "trial", "width"]


def polished_falls(certificates: pd.DataFrame, keys: list) -> pd.DataFrame:
    """One row per polished network of `certificates` (named by `keys`: PLATEAU_NETWORK,
    FIG2_NETWORK) with its fall over the polish's second half (infinite where it stalled:
    stationarity.settled_falls)."""
    polished = certificates[certificates.network == "polished"].sort_values(keys)
    return polished.assign(fall=stationarity.settled_falls(polished))[[*keys, "fall"]]


def certified(falls: pd.DataFrame, keys: list, bar: float) -> dict:
    """{a network set (polished_falls' `keys` but the width, as a tuple of plain values): whether
    every width's polished network falls by at most `bar`}: a plateau seed, a Fig. 2 trial."""
    sets = [k for k in keys if k != "width"]
    held = (falls.fall <= bar).groupby([falls[k] for k in sets]).all()
    plain = lambda key: tuple(v.item() if isinstance(v, np.generic) else v for v in key)  # noqa: E731
    return {plain(key): bool(v) for key, v in held.items()}


def plateau_certificate_claims(falls: pd.DataFrame, bar: float) -> list:
    """Per setting and N, every width's and seed's polished network's fall (the check's bar is
    the entry's criterion); the detail names the widths with a network above it."""
    ms = []
    for (setting, n), r in falls.groupby(["setting", "N"], sort=True):
        open_widths = sorted(r[~(r.fall <= bar)].width.unique())
        detail = "not certified at width " + ", ".join(map(str, open_widths)) if open_widths else ""
        case = f"{setting}, N = {n}, {r.width.nunique()} widths x {r.seed.nunique()} seeds"
        ms.append(measured(PLATEAU_CERTIFIED, list(r.fall), case, detail=detail))
    return ms


def _fig2_onset(trial: pd.DataFrame, drop_fraction=None, decades=None):
    """A trial's plateau onset on its running-best loss: within `drop_fraction` of the curve's
    whole drop on the log axis, or within a fixed number of `decades` of its lowest loss."""
    best = trial.objective.cummin()
    if decades is not None:
        return plateau_onset(trial.width, best, 10**decades - 1)
    return plateau_onset_on_log_scale(trial.width, best, drop_fraction)


def _test_over_train(trial: pd.DataFrame, from_width) -> float:
    """A trial's largest ratio of test loss to training loss (with its L2 term) over the widths
    from `from_width` ("widest": the widest alone); NaN where no width is that wide."""
    read = trial.tail(1) if from_width == "widest" else trial[trial.width >= from_width]
    return float((read.test_loss / read.objective).max()) if len(read) else np.nan


EASIER = "jacot2022.fig2.plateau_easier_on_mnist"


def on_plateau_shares(curve: pd.DataFrame, drop_fraction=None, decades=None) -> list:
    """Per trial of one curve (data set, lambda): the share of the widths from the onset of the
    best-of-trials curve (read as _fig2_onset reads it) on which the trial's objective lies within
    the band of that onset reading above the curve's lowest objective; NaN where the best curve
    reaches no plateau."""
    best = curve.groupby("width", as_index=False).objective.min().sort_values("width")
    onset = _fig2_onset(best, drop_fraction, decades)
    logs = np.log10(best.objective.cummin().to_numpy())
    band = decades if decades is not None else drop_fraction * (logs[0] - logs.min())
    shares = []
    for _, t in curve.groupby("trial", sort=True):
        read = t[t.width >= onset] if onset is not None else t.iloc[:0]
        inside = np.log10(read.objective.to_numpy()) - logs.min() <= band
        shares.append(float(inside.mean()) if len(read) else np.nan)
    return shares


def easier_claims(runs: pd.DataFrame, readings) -> list:
    """App. A: per MNIST lambda and reading, each seed's on-plateau share on MNIST minus the
    teacher's."""
    teacher = runs[runs.dataset == "teacher"]
    ms = []
    for lam, mnist in runs[runs.dataset == "mnist"].groupby("lam", sort=True):
        for reading in readings:
            shares = [on_plateau_shares(c, **reading.parameters) for c in (mnist, teacher)]
            detail = f"MNIST {_shares_text(shares[0])}; teacher {_shares_text(shares[1])}"
            values = [m - t for m, t in zip(*shares, strict=True)]
            ms.append(
                measured(EASIER, values, f"MNIST lambda = {lam:g}", None, detail, reading.name)
            )
    return ms


def _shares_text(shares) -> str:
    return ", ".join(f"{v:.2f}" for v in shares)


NONINCREASING = "jacot2022.fig2.train_loss_nonincreasing"


def fig2_claims(runs: pd.DataFrame, onset_readings, ratio_readings, certified=None):
    """Per curve (data set, lambda) and per trial: the plateau onset under each of
    `onset_readings` (the onset entry's readings, _fig2_onset's parameters), and the largest rise
    of the trial's training loss from one width to the next beyond the spread of the trials at
    the wider width (the training noise); on the teacher's curve (the figure's right panel), the
    test-to-training loss ratio under each of `ratio_readings` (_test_over_train's parameters).
    With `certified` ({(data set, lambda, trial): every width's network certified stationary},
    certified()), on polished networks, the rise carries it as the precondition
    `stationary`."""
    ms = []
    for (dataset, lam), curve in runs.groupby(["dataset", "lam"], sort=True):
        case = f"{dataset}, lambda = {lam:g}"
        trials = [t.sort_values("width") for _, t in curve.groupby("trial", sort=True)]
        for reading in onset_readings:
            onsets = [_fig2_onset(t, **reading.parameters) for t in trials]
            onsets = [np.nan if o is None else o for o in onsets]
            ms.append(measured(ONSET_FIG2, onsets, case, reading=reading.name))
        if dataset == "teacher":
            for reading in ratio_readings:
                ratios = [_test_over_train(t, **reading.parameters) for t in trials]
                ms.append(measured(TEST_BELOW_TRAIN, ratios, case, reading=reading.name))
        spread = curve.groupby("width").objective.agg(lambda o: np.ptp(np.log10(o)))
        rises = [rise_beyond_spread(t.objective, spread.loc[t.width].to_numpy()) for t in trials]
        meets = None
        if certified is not None:
            keys = [(dataset, lam, trial) for trial, _ in curve.groupby("trial", sort=True)]
            meets = {"stationary": seeds_certified(certified, keys)}
        ms.append(measured(NONINCREASING, rises, case, meets=meets))
    ms.append(diverged_runs("jacot2022.fig2.no_divergence", runs))
    return ms


FIG2_CERTIFIED = "jacot2022.fig2.polished_stationary"


def fig2_certificate_claims(falls: pd.DataFrame) -> list:
    """Per curve (data set, lambda), every width's and trial's polished network's fall (the
    check's bar is the entry's criterion)."""
    ms = []
    for (dataset, lam), r in falls.groupby(["dataset", "lam"], sort=True):
        case = (
            f"{dataset}, lambda = {lam:g}, {r.width.nunique()} widths x {r.trial.nunique()} trials"
        )
        ms.append(measured(FIG2_CERTIFIED, list(r.fall), case))
    return ms


def _rays_found(layers: pd.DataFrame, meets: dict, reading: str, parameters: dict) -> str:
    """For a reading that takes the number of rays from the data: how many it found (median
    and range over the layers that meet every precondition, `meets` as the row's), for the
    row's detail; "" for the others."""
    kept = [all(seed) for seed in zip(*meets.values(), strict=True)]
    if "max_rays" not in parameters or not any(kept):
        return ""
    k = layers[kept][f"rays: {reading}"]
    return f"rays found {k.median():g} [{k.min():g}, {k.max():g}]"


def _joined(*details: str) -> str:
    return "; ".join(d for d in details if d)


def fig1_claims(layers: pd.DataFrame, runs: pd.DataFrame, n_rays: int, ray_readings: dict):
    """Fig. 1's observations per hidden layer, one value per seed: the data cluster by digit,
    the neurons lie on rays (under each of `ray_readings` {reading: its parameters}: layers'
    "mass_on_ray: <reading>"), the forces cancel on the feasible directions, attraction pulls
    inward and repulsion pushes outward (per reading of forces.force_directions), repulsion
    pushes the inputs away from the other digits; and the radial
    balance that weight decay gives any trained ReLU network. A collapsed network (a constant
    function: a dead layer) has no features, and its forces' ratios read 0 against 0; a layer of
    n_rays or fewer active neurons is on n_rays rays by construction: the registry's
    preconditions leave such seeds out, and a check counts the collapsed ones. Prop. 1's
    local-minimum rows read `runs` (prop1_claims)."""
    ms = []
    n_seeds = layers.seed.nunique()
    # forces.force_directions' readings, as the table's columns name them
    direction_readings = [
        c.split(": ", 1)[1] for c in layers.columns if c.startswith("attraction_inward: ")
    ]
    collapsed = layers[layers.collapsed.astype(bool)].seed.nunique()
    for layer, per_seed in layers.groupby("layer", sort=True):
        per_seed = per_seed.sort_values("seed")
        case = f"Z{layer}"
        alive = list(~per_seed.collapsed.astype(bool))
        readable = list(per_seed.active_neurons > n_rays)
        live = {"not_collapsed": alive}
        ms.append(measured(CLUSTERS, list(per_seed.silhouette), case, meets=live))
        active = "active neurons " + ", ".join(map(str, per_seed.active_neurons[alive]))
        for reading, parameters in ray_readings.items():
            shares = list(per_seed[f"mass_on_ray: {reading}"])
            rays = live | {"readable_layer": readable}
            detail = _joined(active, _rays_found(per_seed, rays, reading, parameters))
            ms.append(measured(RAYS, shares, case, None, detail, reading, rays))
        ms.append(measured(FORCES, list(per_seed.balance), case, meets=live))
        for reading in direction_readings:
            for claim_id, column in ((INWARD, "attraction_inward"), (OUTWARD, "repulsion_outward")):
                shares = list(per_seed[f"{column}: {reading}"])
                ms.append(measured(claim_id, shares, case, reading=reading, meets=live))
        # one share, judged against each of the entry's bars (its readings differ in criterion)
        ms.append(measured(APART, list(per_seed.pushed_apart), case, meets=live))
        kept = per_seed[alive]
        ms.append(
            measured(
                "jacot2022.fig1.radial_balance",
                [kept.balance_radial.max() if len(kept) else None],
                case,
                detail=f"{collapsed} of {n_seeds} collapsed, left out" if collapsed else "",
            )
        )
    ms.append(measured("jacot2022.fig1.no_collapse", collapsed, detail=f"of {n_seeds}"))
    ms.append(diverged_runs("jacot2022.fig1.no_divergence", runs))
    return ms + prop1_claims(runs)


PROP1_Z = "jacot2022.fig1.prop1_z_local_minimum"
PROP1_PSI = "jacot2022.fig1.prop1_psi_local_minimum"
# the readings of both entries, each a column "<z or psi>_<reading>" of the runs' table
# (prop1.local_minimum_readings)
PROP1_READINGS = ("fall", "curvature")


def prop1_claims(runs: pd.DataFrame) -> list:
    """Prop. 1's two local-minimum directions on each seed's network (the runs' table, one row
    per seed, with prop1.local_minimum_readings' columns): L^r_lambda around Z(W) along feasible
    curves (PROP1_Z) and L_lambda around Psi(Z(W)) (PROP1_PSI), under each reading; the
    stationary precondition is the polished network's certificate (evaluate_networks)."""
    runs = runs.sort_values("seed")
    ranks = "ranks of the hidden Z^sigma " + ", ".join(map(str, runs.ranks))
    gaps = f"|L(Psi(Z)) - L^r(Z)| / L^r(Z) up to {runs.psi_gap.max():.1e}"
    ms = []
    for claim_id, prefix, detail in ((PROP1_Z, "z", ranks), (PROP1_PSI, "psi", gaps)):
        for reading in PROP1_READINGS:
            values = list(runs[f"{prefix}_{reading}"])
            ms.append(measured(claim_id, values, detail=detail, reading=reading))
    return ms


FIG1_CERTIFIED = "jacot2022.fig1.polished_stationary"


def fig1_certificate_claims(certificates: pd.DataFrame, bar: float) -> tuple[list, list]:
    """Which seeds' polished Fig. 1 networks are certified stationary (their fall over the
    polish's second half at most `bar`, FIG1_CERTIFIED's criterion; a stall reads infinite), in
    seed order, and that entry's row."""
    certified, falls, detail = stationarity.seeds_certified(certificates, bar)
    return certified, [measured(FIG1_CERTIFIED, falls, detail=detail)]


def fig1_study_claims(networks: pd.DataFrame, n_rays: int, ray_readings: dict):
    """The Fig. 1 study, per setting (inputs, lambda, GD step and steps) and per seed: the share
    of each hidden layer's norm on rays, in the full space and (Z1) in the figure's plane, under
    each of `ray_readings` {reading: its parameters} (columns "mass_on_ray: <reading>",
    "mass_on_ray_plane: <reading>"), and whether training had settled. A collapsed
    network (a constant function) has no features to align, and a layer of n_rays or fewer
    active neurons is on n_rays rays by construction: the registry's preconditions leave both
    out, and the rows count them (a plane share that cannot be read, too few neurons seen in
    the plane, is left out as not measured)."""
    ms = []
    settings = networks.groupby(["inputs", "lam", "lr", "steps"], sort=True)
    for (inputs, lam, lr, steps), setting in settings:
        case = f"{inputs} inputs, lambda = {lam:g}, GD step {lr:g} x {steps}"
        z1 = setting[setting.layer == 1].sort_values("seed")
        z2 = setting[setting.layer == 2].sort_values("seed")
        alive = list(~z1.collapsed.astype(bool))
        live = z1[alive]
        cut = (
            f"median always-active {live.always_active_neurons.median():g} of "
            f"{live.active_neurons.median():g} active neurons"
            if len(live)
            else ""
        )
        for reading, parameters in ray_readings.items():
            for claim_id, layer, column, note in (
                ("jacot2022.fig1study.z1_rays", z1, "mass_on_ray", cut),
                ("jacot2022.fig1study.z2_rays", z2, "mass_on_ray", ""),
                ("jacot2022.fig1study.z1_rays_plane", z1, "mass_on_ray_plane", ""),
            ):
                meets = {
                    "not_collapsed": alive,
                    "readable_layer": list(layer.active_neurons > n_rays),
                }
                shares = list(layer[f"{column}: {reading}"])
                if column == "mass_on_ray":  # the plane's rays are found in the plane
                    note = _joined(note, _rays_found(layer, meets, reading, parameters))
                ms.append(measured(claim_id, shares, case, None, note, reading, meets))
        ms += _fig1_study_settled(case, z1, z2, alive, n_rays)
    return ms


FIG1_STUDY_CERTIFIED = "jacot2022.fig1study.polished_stationary"


def fig1_study_certificate_claims(certificates: pd.DataFrame) -> list:
    """Per setting, every seed's polished network's fall over the polish's second half (the
    check's bar is the entry's criterion; a stall reads infinite)."""

    def case(setting, group):
        inputs, lam, lr, steps = setting
        return f"{inputs} inputs, lambda = {lam:g}, GD step {lr:g} x {steps}"

    return settled_fall_measurements(
        FIG1_STUDY_CERTIFIED, certificates, ["inputs", "lam", "lr", "steps"], ["seed"], case
    )


def _fig1_study_settled(case: str, z1, z2, alive: list, n_rays: int) -> list:
    """Whether a setting's training had settled over its last fifth of steps: each network's
    relative change of the objective (a rise counts as much as a fall), and each scored layer's
    change of its share on rays (the primary reading), from four fifths of the steps to the end.
    Collapsed networks (at the zero solution, trivially still) are not read, nor, for the
    shares, layers the ray rows leave out (n_rays or fewer active neurons); both are counted."""
    changed = (z1.objective - z1.objective_four_fifths).abs() / z1.objective_four_fifths
    live = np.array(alive)
    left = int((~live).sum())
    ms = []
    if live.any():
        detail = f"{left} collapsed network(s) not read" if left else ""
        ms.append(
            measured(
                "jacot2022.fig1study.objective_settled", list(changed[live]), case, None, detail
            )
        )
    for name, layer in (("Z1", z1), ("Z2", z2)):
        scored = np.array(alive) & (layer.active_neurons > n_rays).to_numpy()
        if not scored.any():
            continue
        moved = (layer.mass_on_ray - layer.mass_on_ray_four_fifths).abs()[scored]
        left = int((~scored).sum())
        detail = f"{left} network(s) not scored (collapsed, or {n_rays} or fewer active neurons)"
        ms.append(
            measured(
                "jacot2022.fig1study.rays_settled",
                list(moved),
                f"{case}, {name}",
                detail=detail if left else "",
            )
        )
    return ms


def onehot_root_claims(root: pd.DataFrame):
    """App. D.1: the largest distance of a class block of (Y^T Y)^(1/2) from the stated 1/m_i."""
    values = ", ".join(f"m = {r.m}: {r.value:.4g}" for r in root.itertuples())
    return [
        measured(
            "jacot2022.theory.onehot_root_blocks",
            root.off.max(),
            detail=f"block values {values}",
        )
    ]


def covariance_claims(reduction: pd.DataFrame, prop5: pd.DataFrame, remark23: pd.DataFrame):
    """Props. 3, 5, 7, 8 and Lemma 10 on random networks (covariances.reduction_table and
    convexity_table), and Sec. 4.3's width-N^2/4 network W1 = E, W2 = E^T (remark23)."""
    n = int(reduction.N.iloc[0])
    widths = ", ".join(str(w) for w in sorted(reduction.width.unique()))
    # the rebuilt network's norm against L^k's penalty (the same at every width) and against
    # the original's (no larger: ||W||^2 >= sum_l Tr[K_l (K^sigma_{l-1})^+])
    excess = np.maximum(
        (reduction.rebuilt_norm - reduction.trace_cost).abs() / reduction.trace_cost,
        (reduction.rebuilt_norm - reduction.norm) / reduction.norm,
    )
    ratio = reduction.rebuilt_norm / reduction.norm
    ms = [
        measured(
            "jacot2022.theory.prop3_trace_identity",
            reduction.identity_gap.max(),
            detail=f"{reduction.network.nunique()} random networks, N = {n}",
        ),
        measured(
            "jacot2022.theory.lemma10_caratheodory_width",
            reduction.reduced_gram_error.max(),
            detail=f"width {reduction.original_width.max()} reduced to at most "
            f"{reduction.reduced_width.max()} (N(N+1) = {n * (n + 1)})",
        ),
        measured(
            "jacot2022.theory.prop8_rebuilt_network",
            reduction[["gram_error", "output_error"]].to_numpy().max(),
            detail=f"widths {widths}",
        ),
        measured(
            "jacot2022.theory.prop7_same_norm_every_width",
            excess.max(),
            detail=f"widths {widths}; rebuilt / original norm {ratio.min():.2f}-{ratio.max():.2f}",
        ),
        measured(
            "jacot2022.theory.prop5_midpoint_convexity",
            prop5.midpoint_gap.min(),
            detail=f"{len(prop5)} segments",
        ),
    ]
    for r in remark23.itertuples():
        case = f"N = {r.N}"
        ms.append(measured("jacot2022.theory.bn_edge_network_output", r.edge_network_error, case))
        ms.append(
            measured("jacot2022.theory.bn_edge_network_norm", r.edge_network_norm, case, ref=r.N**2)
        )
    return ms


PROPORTIONAL = "jacot2022.theory.proportional_forces"
MERGE = "jacot2022.theory.aligned_neurons_merge"


def alignment_claims(table: pd.DataFrame, readings) -> list:
    """Sec. 3.1 on alignment.alignment_table: the largest force gap between a neuron and its
    proportional copy over the signs of alpha each reading admits (its parameter `signs`: both
    or positive), and the largest change of Z_L when an aligned (alpha > 0) copy is merged."""
    gaps = table.set_index("sign")
    ms = []
    for reading in readings:
        signs = list(gaps.index) if reading.parameters["signs"] == "both" else ["positive"]
        detail = ", ".join(f"alpha {s}: {gaps.force_gap[s]:.1e}" for s in gaps.index)
        ms.append(
            measured(PROPORTIONAL, gaps.force_gap[signs].max(), detail=detail, reading=reading.name)
        )
    ms.append(measured(MERGE, gaps.merge_change["positive"]))
    return ms


APPB1 = "jacot2022.theory.appb1_loss_explodes"


def appb1_claims(table: pd.DataFrame, readings) -> list:
    """App. B.1 on infeasible.appb1_table, per hidden width: the least ratio of the term
    ||Z~_{l+1} (Z~^sigma_l)^+||_F^2 to the paper's bound over eps and the perturbations each
    reading admits (its parameter `perturbations`: any, or feasible); not measured where it
    admits none."""
    ms = []
    for reading in readings:
        least = infeasible.least_ratios(table, reading.parameters["perturbations"])
        for width in sorted(table.width.unique()):
            mine = least[least.width == width]
            detail = "; ".join(
                f"eps {r.eps:g}: {r.min:.3g} over {r.size}" for r in mine.itertuples()
            )
            value = mine["min"].min() if len(mine) else None
            case = f"n_l = {width}"
            detail = detail or "no perturbation admitted"
            ms.append(measured(APPB1, value, case, detail=detail, reading=reading.name))
    return ms


APPB1_FLOW = "jacot2022.theory.appb1_flow_stays_feasible"


def appb1_flow_claims(table: pd.DataFrame) -> list:
    """App. B.1's flow on infeasible.flow_table, per hidden width: the largest constraint residual
    at the flow time over instances at the finer step, the coarser's beside it, and the losses."""
    ms = []
    for width, mine in table.groupby("width", sort=True):
        by_steps = mine.groupby("steps").residual.max()
        fine = mine[mine.steps == by_steps.index.max()]
        detail = ", ".join(f"{n} steps: {r:.3g}" for n, r in by_steps.items())
        detail += (
            f"; loss from {fine.loss_start.min():.3g}-{fine.loss_start.max():.3g} "
            f"to {fine.loss_end.min():.3g}-{fine.loss_end.max():.3g}"
        )
        ms.append(measured(APPB1_FLOW, by_steps.iloc[-1], f"n_1 = {width}", detail=detail))
    return ms


CP_RANK = "jacot2022.theory.prop13_cp_rank"


def cp_rank_claims(table: pd.DataFrame) -> list:
    """Prop. 13 on theory.cp_rank_table, per graph: how many times the best residual with k - 1
    rows exceeds the best with k rows (the search's resolution); a factorization with fewer
    rows than edges would bring it to about 1."""
    ms = []
    for r in table.itertuples():
        ratio = r.best_residual_below_k / max(r.best_residual_at_k, np.finfo(float).tiny)
        detail = (
            f"k = {r.edges} edges, rank {r.rank}; best relative residual "
            f"{r.best_residual_below_k:.2e} with k - 1 rows, {r.best_residual_at_k:.1e} with k"
        )
        ms.append(measured(CP_RANK, ratio, r.graph, detail=detail))
    return ms


REMARK11 = "jacot2022.theory.remark11_plateau_compresses_to_onset"


def remark11_tolerances(registry) -> list:
    """The merge tolerances REMARK11's readings read."""
    return sorted({r.parameters["tol"] for r in registry[REMARK11].every_reading})


def compression_claims(table: pd.DataFrame, onsets: pd.DataFrame, registry) -> list:
    """Remark 11 on theory.compression_table against each seed's plateau onset (the primary
    reading of its setting's entry), per data set and reading (its tolerance): the widest
    network's compressed width minus the onset. A seed counts when the merged network keeps Z_L
    to the tolerance and its objective within the onset's tolerance of its data set's lowest
    (an equivalent network at the minimum), and when the merge decides: it reached the onset, or
    a lower bound on Rank_sigma passes it (else another reduction might still reach the onset)."""
    ms = []
    joined = table.merge(onsets[["setting", "N", "seed", "onset", "rel_tol"]])
    for reading in registry[REMARK11].every_reading:
        at_tol = joined[joined.tol == reading.parameters["tol"]]
        for (setting, n), rows in at_tol.groupby(["setting", "N"], sort=False):
            rows = rows.sort_values("seed")
            detail = "; ".join(
                f"seed {r.seed}: {r.groups} of {r.width} neurons, Rank_sigma >= {r.rank_bound} "
                f"(Z_L moved {r.change:.0e}, objective x {r.over_lowest:.4f}), onset {r.onset}"
                for r in rows.itertuples()
            )
            decided = (rows.groups <= rows.onset) | (rows.rank_bound > rows.onset)
            kept = ((rows.over_lowest - 1).abs() <= rows.rel_tol) & (rows.change <= rows.tol)
            meets = {"at_lowest": list(kept), "decided": list(decided)}
            ms.append(
                measured(
                    REMARK11,
                    list(rows.groups - rows.onset),
                    f"{setting}, N = {n}",
                    detail=detail,
                    reading=reading.name,
                    meets=meets,
                )
            )
    return ms


GD_LOWER = "jacot2022.fig2.gd_reaches_lower"


def gd_lower_claims(runs: pd.DataFrame) -> list:
    """App. A on Fig. 2's runs, per curve (data set, lambda) and trial: the share of the widths
    at which Adam then GD ends at a lower objective than Adam run on from the same point for as
    many steps (objective_adam_only); diverged networks left out of both arms."""
    ms = []
    ok = runs[~runs.diverged.astype(bool) & runs.objective_adam_only.notna()]
    for (dataset, lam), curve in ok.groupby(["dataset", "lam"], sort=True):
        trials = [t for _, t in curve.groupby("trial", sort=True)]
        shares = [float((t.objective < t.objective_adam_only).mean()) for t in trials]
        ratio = curve.objective / curve.objective_adam_only
        detail = f"GD's objective over Adam's: {ratio.min():.3g}-{ratio.max():.3g}"
        ms.append(measured(GD_LOWER, shares, f"{dataset}, lambda = {lam:g}", detail=detail))
    return ms


SEC42_RANK = "jacot2022.theory.sec42_rank_within_merged_count"
SEC42_CP = "jacot2022.theory.sec42_merged_count_reaches_cp_rank"
# the bias-free plateau settings (Sec. 4.2's K^sigma = B^T B has no beta^2 1 term there)
SEC42_SETTINGS = ("bipartite", "onehot")


def merge_tolerances(registry) -> list:
    """The merge tolerances every entry reading theory.compression_table reads."""
    claims = (REMARK11, SEC42_RANK, SEC42_CP)
    return sorted({r.parameters["tol"] for c in claims for r in registry[c].every_reading})


def widest_certified(falls: pd.DataFrame, table: pd.DataFrame, bar: float) -> dict:
    """{(setting, N, seed): whether the network theory.compression_table read (its widest) is
    certified stationary (its fall at most `bar`)}."""
    read = table[["setting", "N", "seed", "width"]].drop_duplicates()
    return certified(falls.merge(read), PLATEAU_NETWORK, bar)


def sec42_claims(
    table: pd.DataFrame, onsets: pd.DataFrame, registry, onehot_classes: int, certified=None
):
    """Sec. 4.2 on theory.compression_table (the widest network of each bias-free plateau seed),
    per data set and reading (merge tolerance): max(Rank K_1, Rank K_1^sigma) minus the merged
    count, an upper bound on Rank_sigma (SEC42_RANK); and the merged count minus the CP-rank
    known exactly (Prop. 13's N^2/4 for B_N, the classes for one-hot outputs) (SEC42_CP), read
    where the merged network keeps Z_L and is at its data set's lowest (REMARK11's at_lowest).
    With `certified` (widest_certified), on polished networks, each seed carries it as the
    precondition `stationary`."""
    ms = []
    joined = table[table.setting.isin(SEC42_SETTINGS)].merge(
        onsets[["setting", "N", "seed", "rel_tol"]]
    )
    for claim_id in (SEC42_RANK, SEC42_CP):
        for reading in registry[claim_id].every_reading:
            at_tol = joined[joined.tol == reading.parameters["tol"]]
            for (setting, n), rows in at_tol.groupby(["setting", "N"], sort=True):
                rows = rows.sort_values("seed")
                k = theory.expected_onset(setting, n, onehot_classes)
                meets = {}
                if certified is not None:
                    keys = zip([setting] * len(rows), [n] * len(rows), rows.seed, strict=True)
                    meets["stationary"] = seeds_certified(certified, keys)
                detail = "; ".join(
                    f"seed {r.seed}: {r.groups} merged of {r.width} neurons, "
                    f"max(Rank K_1, Rank K_1^sigma) = {r.rank_bound} (Z_L moved {r.change:.0e}, "
                    f"objective x {r.over_lowest:.4f})"
                    for r in rows.itertuples()
                )
                if claim_id == SEC42_RANK:
                    values = list(rows.rank_bound - rows.groups)
                else:
                    values = list(rows.groups - k)
                    kept = ((rows.over_lowest - 1).abs() <= rows.rel_tol) & (
                        rows.change <= rows.tol
                    )
                    meets = {"at_lowest": list(kept)} | meets
                    detail = f"Rank_cp = {k}; {detail}"
                case = f"{setting}, N = {n}"
                ms.append(
                    measured(claim_id, values, case, None, detail, reading.name, meets or None)
                )
    return ms


LINEAR_BUILT = "jacot2022.theory.linear_covariances_construction"
LINEAR_TRAINED = "jacot2022.theory.linear_covariances_trained"


def linear_construction_claims(table: pd.DataFrame) -> list:
    """Sec. 3.1 item 2 on linear.construction_table, per depth: the largest covariance gap of the
    balanced SVD networks built for random (X, Z_L)."""
    ms = []
    for depth, rows in table.groupby("depth", sort=True):
        detail = (
            f"{len(rows)} random (X, Z_L), ranks of Z_L "
            f"{', '.join(map(str, sorted(rows['rank'].unique())))}; largest output error "
            f"{rows.output_error.max():.1e}"
        )
        ms.append(measured(LINEAR_BUILT, rows.gap.max(), f"L = {depth}", detail=detail))
    return ms


def linear_trained_claims(table: pd.DataFrame, network: str, registry, bar=None) -> list:
    """Sec. 3.1 item 2 on linear.trained_table's `network` (schedule or polished), per depth and
    data set (seed): the covariance gap of the data set's lowest-objective network, its stand-in
    for the global minimum. It counts where its objective is within LINEAR_TRAINED's min_tol of
    the lowest found for its data set and depth (every network, either network, and the balanced
    network built for each one's outputs). With `bar` (polished), whether the stand-in's polish
    is certified (fall over the second half at most `bar`, no stall), as `stationary`."""
    tol = registry[LINEAR_TRAINED].parameters["min_tol"]
    lowest = table.groupby(["seed", "depth"])[["objective", "balanced_objective"]].min().min(axis=1)
    ms = []
    mine = table[table.network == network]
    for depth, rows in mine.groupby("depth", sort=True):
        every = rows
        rows = rows.sort_values(["seed", "objective"]).groupby("seed", sort=True).head(1)
        floor = lowest.loc[list(zip(rows.seed, rows.depth, strict=True))].to_numpy()
        meets = {"at_minimum": list(rows.objective.to_numpy() <= floor * (1 + tol))}
        if bar is not None:
            falls = stationarity.settled_falls(rows)
            meets["stationary"] = [f <= bar for f in falls]
        over = rows.objective.to_numpy() / floor - 1
        detail = (
            f"the lowest of {every.restart.nunique()} restarts per data set; its objective over "
            f"the lowest {over.min():.1e}-{over.max():.1e}; every network's over the balanced "
            f"network's for its own outputs up to "
            f"{(every.objective / every.balanced_objective - 1).max():.1e}"
        )
        ms.append(measured(LINEAR_TRAINED, list(rows.gap), f"L = {depth}", None, detail, "", meets))
    return ms
