"""Controls of jacot2023 (bottleneck rank): the figures and theorems: every measure behind an
empirical or exact ledger row, on a known negative case: the measure computed by the pipeline's own
code, judged by the registry's criterion, fails. A measure that passed here would hold for every
output and prove nothing."""

import numpy as np
import pandas as pd
import pytest
from conftest import (
    REPO,
    claim_status,
    controls,
    judged,
    random_network,
    reading_status,
    readings_of,
)

from l2relu.ledger.claims import measured
from l2relu.ledger.registry import load_registry, registry_files


@controls(
    "jacot2023.fig1.middle_layers_rank",
    "jacot2023.fig1.middle_nonlinearity_impact",
    "jacot2023.fig1.norm_per_layer",
)
def test_a_random_deep_network_has_no_low_rank_middle_and_a_large_nonlinearity_impact():
    """jacot2023 Fig. 1's rank and nonlinearity measures on an untrained depth-9 network."""
    from l2relu.jacot2023 import ledger, regression

    rng = np.random.default_rng(1)
    arrays = {k: v[None] for k, v in random_network((20, *[30] * 8, 20), rng).items()}
    x = rng.standard_normal((20, 200))
    readings = readings_of(ledger.MIDDLE_RANK)
    _, layers = regression.fig1_tables(
        arrays, x, n_values=10, rank_rel_tol=0.05, rank_readings=readings
    )
    runs = pd.DataFrame(
        {
            "seed": [0],
            "loss": [1.0],
            "output_variance": [1.0],
            "norm_per_layer": [1.0],
            "diverged": [False],
            "diverged_step": [-1],
        }
    )
    rows = judged(ledger.fig1_claims(layers.assign(seed=0), runs, 4, readings), False)
    assert set(rows.status[rows.claim_id == ledger.MIDDLE_RANK]) == {"fail"}  # every reading
    rows = rows[rows.primary]
    status = dict(zip(rows.claim_id, rows.status, strict=True))
    assert status["jacot2023.fig1.middle_layers_rank"] == "fail"
    assert status["jacot2023.fig1.middle_nonlinearity_impact"] == "fail"
    assert status["jacot2023.fig1.norm_per_layer"] == "fail"  # 1 is not ~6
    assert status["jacot2023.fig1.fits_data"] == "fail"


def _jacobian_spectra(ranks: dict, rng) -> pd.DataFrame:
    """Spectra rows (seed 0, 3 points) of 50 x 50 Jacobians of an exact rank per model."""
    rows = []
    for model, rank_of in ranks.items():
        for point in range(3):
            j = rng.standard_normal((50, rank_of)) @ rng.standard_normal((rank_of, 50))
            s = np.linalg.svd(j, compute_uv=False)
            rows += [
                {"seed": 0, "model": model, "point": point, "index": i + 1, "ratio": v / s[0]}
                for i, v in enumerate(s)
            ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    "rank_of_map", [2, pytest.param(7, marks=controls("jacot2023.krr.network_jacobian_rank"))]
)
@controls("jacot2023.krr.krr_jacobian_full_rank", "jacot2023.krr.krr_overestimates_rank")
def test_network_jacobians_of_rank_2_and_7_are_judged_as_k_or_less_under_every_reading(
    rank_of_map,
):
    """The ledger's own measure on Jacobians of exact rank 2 or 7 (k = 4): 7 breaks 'rank k or
    less' under every reading, 2 under none; and a KRR Jacobian of rank 3 does not overestimate
    k under any reading."""
    from l2relu.jacot2023 import ledger
    from l2relu.jacot2023.rank import gap_rank

    rng = np.random.default_rng(rank_of_map)
    spectra = _jacobian_spectra({"krr": 3, "network": rank_of_map}, rng)
    point = spectra[(spectra.model == "network") & (spectra.point == 0)].ratio.to_numpy()
    assert gap_rank(point[:10]) == rank_of_map
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    rows = judged(ledger.krr_claims(spectra, 50, 50, 4, registry), every_entry=False)
    # "approximately rank k or less": rank 7 contradicts it, rank 2 does not
    expected = {"fail"} if rank_of_map > 4 else {"pass"}
    assert set(rows.status[rows.claim_id == ledger.NETWORK_JACOBIAN_RANK]) == expected
    assert set(rows.status[rows.claim_id == ledger.KRR_RANK]) == {"fail"}


@controls(
    "jacot2023.depth.identity_layer_cost",
    "jacot2023.depth.no_rank_underestimate",
    "jacot2023.depth.range_grows_with_n",
    "jacot2023.depth.recovering_depths",
    "jacot2023.depth.small_depth_overestimates",
)
def test_a_depth_sweep_that_never_recovers_the_rank_fails_every_depth_claim():
    from l2relu.jacot2023 import ledger

    sweep = pd.DataFrame(
        [
            {"n_train": n, "depth": d, "seed": s, "bottleneck_rank": 4 if d == 2 else 6}
            | {"reading": r.name}
            for r in readings_of(ledger.DEPTH_RANK)
            for n in (100, 500)
            for d in (2, 4, 8)
            for s in range(3)
        ]
    ).assign(diverged=False, diverged_step=-1, norm_per_layer=20.0)
    rows = judged(ledger.depth_claims(sweep, true_rank=4), every_entry=False)
    status = rows.groupby("claim_id").status.agg(set)
    # every layer costs the same 20: a layer added costs the average layer, not the rank 6
    assert status[ledger.IDENTITY_LAYER] == {"fail"}
    assert status["jacot2023.depth.recovering_depths"] == {"fail"}  # one depth is no range
    assert status["jacot2023.depth.range_grows_with_n"] == {"fail"}  # the same at both N
    assert status["jacot2023.depth.small_depth_overestimates"] == {"fail"}  # L = 2 reads k
    assert status["jacot2023.depth.no_rank_underestimate"] == {"pass"}  # never below k
    # ||W||^2 = 6 L + 30: each layer added costs the bottleneck's rank 6
    identities = sweep.assign(norm_per_layer=6 + 30 / sweep.depth)
    rows = judged(ledger.depth_claims(identities, true_rank=4), every_entry=False)
    assert set(rows[rows.claim_id == ledger.IDENTITY_LAYER].status) == {"pass"}
    rows = judged(
        ledger.depth_claims(sweep.assign(bottleneck_rank=sweep.bottleneck_rank - 3), 4),
        every_entry=False,
    )
    status = rows.groupby("claim_id").status.agg(set)
    assert status["jacot2023.depth.no_rank_underestimate"] == {"fail"}  # 3 at the deepest


@controls("jacot2023.krr.krr_jacobian_full_rank")
def test_a_rank_deficient_kernel_jacobian_is_not_full_rank():
    from l2relu.jacot2023 import ledger

    spectra = _jacobian_spectra({"krr": 20, "network": 4}, np.random.default_rng(0))
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    ms = ledger.krr_claims(spectra, 50, 50, 4, registry=registry)
    assert claim_status(ms, "jacot2023.krr.krr_jacobian_full_rank") == ["fail"]  # 20, not 50
    assert claim_status(ms, "jacot2023.krr.network_jacobian_rank") == ["pass"]  # exactly rank 4
    # and under every reading: an exactly rank-4 spectrum reads 4 whichever way
    rows = judged(ms, every_entry=False)
    assert set(rows.status[rows.claim_id == ledger.NETWORK_JACOBIAN_RANK]) == {"pass"}
    assert set(rows.status[rows.claim_id == ledger.KRR_RANK]) == {"pass"}  # 20 > 4


@controls("jacot2023.krr.jacobian_rank_below_norm", "jacot2023.krr.prop3_schatten_bound")
def test_prop3_rows_fail_for_a_jacobian_its_norm_cannot_carry():
    """Prop. 3's bound and the rank it implies, read against ||W||^2 / L = 10 at L = 13: a
    network Jacobian of rank 4 (singular values 2, the rest 1e-9) holds; a spectrum like KRR's
    (35 values at 1, the others 1e-3) breaks both under every reading."""
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files(REPO / "workflow/claims"))

    def spectra(model, head, value, floor):
        rows = []
        for seed in range(3):
            for point in range(4):
                v = np.r_[np.full(head, value), np.full(50 - head, floor)]
                rows += [
                    {"model": model, "seed": seed, "point": point, "index": i + 1}
                    | {"value": x, "ratio": x / v[0]}
                    for i, x in enumerate(v)
                ]
        return pd.DataFrame(rows)

    runs = pd.DataFrame({"seed": range(3), "depth": 13, "norm_per_layer": 10.0})
    good = ledger.prop3_claims(spectra("network", 4, 2.0, 1e-9), runs, "network", registry)
    bad = ledger.prop3_claims(spectra("krr", 35, 1.0, 1e-3), runs, "krr", registry)
    good, bad = judged(good, False), judged(bad, False)
    for claim_id in (ledger.PROP3_BOUND, ledger.RANK_BELOW_NORM):
        assert set(good.status[good.claim_id == claim_id]) == {"pass"}, claim_id
        assert set(bad.status[bad.claim_id == claim_id]) == {"fail"}, claim_id


@controls("jacot2023.fig2.l2_little_effect")
def test_the_l2_effect_row_fails_when_l2_relabels_the_map():
    """Two depths whose maps differ on a quarter of the box; L2 that changes nothing holds under
    every reading; L2 that permutes the classes (the whole box changes) fails under every one."""
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    readings = registry[ledger.L2_EFFECT].every_reading
    labels = np.repeat(np.arange(4), 100)
    deep = labels.copy()
    deep[:100] = 1  # the deep map differs from the shallow one on a quarter of the box

    def regions(l2_map):
        rows = []
        for seed in range(3):
            for depth, base in ((2, labels), (9, deep)):
                for lam, lab in ((0.0, base), (1e-3, l2_map(base))):
                    rows.append(
                        pd.DataFrame({"seed": seed, "depth": depth, "lam": lam, "label": lab})
                    )
        return pd.concat(rows, ignore_index=True)

    summary = pd.DataFrame(
        [
            {"seed": s, "depth": d, "lam": lam, "train_accuracy": 1.0, "diverged": False}
            for s in range(3)
            for d in (2, 9)
            for lam in (0.0, 1e-3)
        ]
    )
    same = judged(ledger.fig2_l2_claims(regions(lambda m: m), summary, 2, 9, readings), False)
    assert set(same.status) == {"pass"} and len(same) == 2 * len(readings)
    moved = regions(lambda m: (m + 1) % 4)
    rows = judged(ledger.fig2_l2_claims(moved, summary, 2, 9, readings), False)
    assert set(rows.status) == {"fail"}
    misfit = summary.assign(train_accuracy=0.9)
    rows = judged(ledger.fig2_l2_claims(moved, misfit, 2, 9, readings), False)
    assert set(rows.status) == {"inconclusive"}
    # the shallow networks miss: the deep pair is read against the box, not against the depth
    shallow_misfit = summary.assign(train_accuracy=np.where(summary.depth == 2, 0.9, 1.0))
    rows = judged(ledger.fig2_l2_claims(moved, shallow_misfit, 2, 9, readings), False)
    deep = rows[rows.claim.str.endswith("L = 9")].set_index("reading").status
    assert deep["against the depth's effect"] == "inconclusive"
    assert deep["a tenth of the box"] == "fail"
    # beside it, what the precondition before it was widened read: the deep pair fits
    by_depth = rows[rows.reading == "against the depth's effect"].set_index("claim")
    shown = by_depth.reproduced_value
    assert "under the earlier precondition (this depth's pair fits)" in shown.iloc[0]
    deep_shown = shown[by_depth.index.str.endswith("L = 9")].iloc[0]
    assert "3 of 3 seeds measured, ratios 4.00, 4.00, 4.00;" in deep_shown
    assert "0 of 3 seeds measured;" in shown[by_depth.index.str.endswith("L = 2")].iloc[0]


def _orthogonal_networks(claim_id):
    """The entry's readings, two stacked 4-layer networks of 4 x 4 orthogonal weights without
    bias (every neuron and layer balanced), and their runs table."""
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    q = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))[0]
    arrays = {f"w{k}": np.stack([q, q]) for k in range(1, 5)}
    arrays |= {f"b{k}": np.zeros((2, 4)) for k in range(1, 5)}
    return registry[claim_id].every_reading, arrays, pd.DataFrame({"seed": [0, 1]})


@controls("jacot2023.fig1.prop12_balance")
def test_prop12_fails_on_a_rescaling_that_keeps_the_function():
    """A balanced network (every layer 4 x 4 orthogonal times 1, no bias: gaps 0) holds under
    every reading; layer 2 doubled and layer 3 halved (the same function) breaks the balance."""
    from l2relu.jacot2023 import ledger

    readings, arrays, runs = _orthogonal_networks(ledger.PROP12)
    assert np.abs(ledger.layer_balance_gaps(arrays, 0)).max() < 1e-12
    rows = judged(ledger.prop12_claims(arrays, runs, readings), False)
    assert set(rows.status) == {"pass"} and len(rows) == len(readings)
    # a bias of layer 1 counts on its side: b_1 of norm 1 breaks the balance of layer 1 only
    biased = arrays | {"b1": np.ones((2, 4)) / 2}
    assert ledger.layer_balance_gaps(biased, 0)[0] == pytest.approx(0.25)
    assert np.abs(ledger.layer_balance_gaps(biased, 0)[1:]).max() < 1e-12
    moved = arrays | {"w2": 2 * arrays["w2"], "w3": arrays["w3"] / 2}
    assert ledger.layer_balance_gaps(moved, 0)[1] == pytest.approx(15.0)
    rows = judged(ledger.prop12_claims(moved, runs, readings), False)
    assert set(rows.status) == {"fail"}


@controls("jacot2023.fig1.remark6_neuron_balance")
def test_remark6_fails_when_one_neuron_is_rescaled():
    """An orthogonal network (every neuron in and out norm 1) holds; one neuron's incoming row
    doubled and its outgoing column halved (the same function: in 4, out 1/4) fails every
    reading; so does a neuron rescaled by 30 (in 900, out 1/900: its outgoing side alone is far
    below the floor, its larger side is not) under the per-neuron readings, and a bias on the
    incoming side (in 2, out 1)."""
    from l2relu.jacot2023 import ledger

    readings, arrays, runs = _orthogonal_networks(ledger.REMARK6)
    rows = judged(ledger.remark6_claims(arrays, runs, readings), False)
    assert set(rows.status) == {"pass"} and len(rows) == len(readings)

    def rescaled(factor):
        w2, w3 = arrays["w2"].copy(), arrays["w3"].copy()
        w2[:, 0, :] *= factor
        w3[:, :, 0] /= factor
        return arrays | {"w2": w2, "w3": w3}

    assert ledger.neuron_balance_gaps(rescaled(2), 0, 0.01)["neuron"] == pytest.approx(1 - 1 / 16)
    rows = judged(ledger.remark6_claims(rescaled(2), runs, readings), False)
    assert set(rows.status) == {"fail"}
    lopsided = ledger.neuron_balance_gaps(rescaled(30), 0, 0.05)
    assert lopsided["neuron"] > 0.99  # read on its incoming side
    b1 = arrays["b1"].copy()
    b1[:, 0] = 1.0
    biased = ledger.neuron_balance_gaps(arrays | {"b1": b1}, 0, 0.01)
    assert biased["neuron"] == pytest.approx(0.5)
    rows = judged(ledger.remark6_claims(arrays | {"b1": b1}, runs, readings), False)
    per_neuron = {r.name for r in readings if r.parameters["aggregate"] == "neuron"}
    assert set(rows[rows.reading.isin(per_neuron)].status) == {"fail"}


@controls(
    "jacot2023.theory.claim1_bijection_rank",
    "jacot2023.theory.cor1_neuron_doubling",
    "jacot2023.theory.example1_continuous",
    "jacot2023.theory.fig1_true_rank",
    "jacot2023.theory.krr_rank_formula",
    "jacot2023.theory.prop5_construction_fits",
    "jacot2023.theory.prop5_norm_kl_plus_c",
    "jacot2023.theory.rank_one_no_three_classes",
)
def test_jacot2023_construction_rows_fail_on_a_non_bijection_a_planted_tie_and_a_wrong_network():
    """Claim 1's measure finds the rank a ReLU layer (not a bijection) loses; the tie measure
    finds three classes meeting where planted; Prop. 5's measures fail for a network without the
    positivity shift and for a construction whose middle layers cost more than k; App. F's rank
    row passes on a function of 4 coordinates."""
    from l2relu.jacot2023 import constructions as c
    from l2relu.jacot2023 import ledger as j23

    cfg = c.ConstructionsConfig(trials=4, points=50, leaky_slopes=(-0.5, 0.5), grid_size=51)
    table = c.constructions_table(cfg)
    rows = judged(j23.construction_claims(table), every_entry=False)
    statuses = {
        claim_id: dict(zip(r.reading, r.status, strict=True))
        for claim_id, r in rows.groupby("claim_id")
    }
    assert statuses["jacot2023.theory.example1_continuous"] == {
        "printed": "fail",
        "conditions exchanged": "pass",
    }
    assert statuses["jacot2023.theory.cor1_neuron_doubling"]["printed"] == "fail"
    assert statuses["jacot2023.theory.krr_rank_formula"] == {
        "as printed": "fail",
        "with d_in": "pass",
    }
    assert set(statuses["jacot2023.theory.fig1_true_rank"].values()) == {"fail"}
    for claim_id in (
        "claim1_bijection_rank",
        "rank_one_no_three_classes",
        "prop5_construction_fits",
        "prop5_norm_kl_plus_c",
        "prop2_interpolator_fits",
        "prop2_norm_l_plus_cn",
        "range_grows_with_n",
        "large_depth_undercut",
        "thm2_tsp_slope",
        "prop1_rank_properties",
        "thm1_sandwich_order",
        "thm1_sandwich_closes",
        "thm1_properties_fit",
        "thm1_properties_cost",
        "thm1_affine_closes",
    ):
        assert statuses[f"jacot2023.theory.{claim_id}"] == {"": "pass"}

    # sigma_0 = ReLU layers for phi and psi (not bijections): J loses rank where neurons are off
    claim_id = "jacot2023.theory.claim1_bijection_rank"
    assert claim_status([measured(claim_id, c.claim1(cfg, a=0.0))], claim_id) == ["fail"]
    # h(z) = (z, -z, 0, -1): classes 1 and 2 meet class 3 at z = 0
    h = [(np.array([[1.0], [-1.0], [0.0], [0.0]]), np.array([[0.0], [0.0], [0.0], [-1.0]]))]
    claim_id = "jacot2023.theory.rank_one_no_three_classes"
    tied = c.classes_at_changes(h, -1.0, 1.0, samples=1001)
    assert tied == 3 and claim_status([measured(claim_id, tied)], claim_id) == ["fail"]
    # Prop. 5 without the shift: g's negative outputs die in the identity layers
    rng = np.random.default_rng(0)
    g, hh = c.random_layers((6, 12, 2), rng), c.random_layers((2, 12, 5), rng)
    x = rng.normal(size=(6, 100))
    unshifted = g + [(np.eye(2), np.zeros((2, 1)))] * 4 + hh
    target = c.forward(hh, c.forward(g, x))
    misfit = np.abs(c.forward(unshifted, x) - target).max() / np.abs(target).max()
    claim_id = "jacot2023.theory.prop5_construction_fits"
    assert claim_status([measured(claim_id, misfit)], claim_id) == ["fail"]
    # the identity layers as 2I then I/2 (the same map; each pair costs 4.25k, not 2k): C grows
    # with L
    costly = []
    for depth in (8, 12):
        net = c.rank_k_network(g, hh, x, depth)
        middle = range(len(g), depth - len(hh))
        costly.append(
            [
                (w * (2.0 if (i - len(g)) % 2 == 0 else 0.5), b) if i in middle else (w, b)
                for i, (w, b) in enumerate(net)
            ]
        )
        assert np.abs(c.forward(costly[-1], x) - target).max() < 1e-9 * np.abs(target).max()
    claim_id = "jacot2023.theory.prop5_norm_kl_plus_c"
    spread = c.constant_spread([c.norm_minus_kl(net, 2) for net in costly])
    assert claim_status([measured(claim_id, spread)], claim_id) == ["fail"]
    claim_id = "jacot2023.theory.fig1_true_rank"
    four = [
        measured(claim_id, c.appf_true_rank(cfg, r, coordinates=4), reading=r)
        for r in c.APPF_READINGS
    ]
    assert set(reading_status(four, claim_id).values()) == {"pass"}


@controls(
    "jacot2023.theory.large_depth_undercut",
    "jacot2023.theory.prop2_interpolator_fits",
    "jacot2023.theory.prop2_norm_l_plus_cn",
    "jacot2023.theory.range_grows_with_n",
    "jacot2023.theory.thm2_tsp_slope",
)
def test_jacot2023_sec4_rows_fail_without_a_kink_with_costly_identities_and_at_rank_one():
    """Prop. 2's interpolator misfits without one of its kinks, and its C_N moves with L when its
    identity layers cost more than 1; the range does not grow where C_N does not; a rank-1 f*
    is never undercut (its bound stays at 1); a fit that does not pass through the points (least
    squares along the line) has a largest slope below MST(y) / diam(x)."""
    from l2relu.jacot2023 import constructions as c
    from l2relu.jacot2023 import interpolation as it

    rng = np.random.default_rng(1)
    g, h = c.random_layers((6, 12, 2), rng), c.random_layers((2, 12, 5), rng)
    x = rng.uniform(-1, 1, size=(6, 60))
    y = c.forward(h, c.forward(g, x))
    u = rng.normal(size=6)
    u /= np.linalg.norm(u)
    net = it.rank_one_interpolator(x, y, 8, u)
    assert np.abs(c.forward(net, x) - y).max() < 1e-6 * np.abs(y).max()
    (w, b), (v, d) = net[-2], net[-1]
    dropped = [*net[:-2], (w[1:], b[1:]), (v[:, 1:], d)]
    misfit = np.abs(c.forward(dropped, x) - y).max() / np.abs(y).max()
    claim_id = "jacot2023.theory.prop2_interpolator_fits"
    assert misfit > 0.1 and claim_status([measured(claim_id, misfit)], claim_id) == ["fail"]
    # identity layers as 2 then 1/2 (the same map; each pair costs 4.25, not 2)
    constants = []
    for depth in (7, 11):
        net = it.rank_one_interpolator(x, y, depth, u)
        net = [
            (w * (2.0 if i % 2 else 0.5), b) if 0 < i < depth - 2 else (w, b)
            for i, (w, b) in enumerate(net)
        ]
        assert np.abs(c.forward(net, x) - y).max() < 1e-6 * np.abs(y).max()
        constants.append(it.squared_norm(net) - depth)
    claim_id = "jacot2023.theory.prop2_norm_l_plus_cn"
    assert claim_status([measured(claim_id, c.constant_spread(constants))], claim_id) == ["fail"]
    # C_N the same at both sizes: no growth
    growth = it.range_width(500.0, 100.0, 2, 4) - it.range_width(500.0, 100.0, 2, 4)
    claim_id = "jacot2023.theory.range_grows_with_n"
    assert claim_status([measured(claim_id, float(growth))], claim_id) == ["fail"]
    # a rank-1 f*: sum_i s_i^(2/L) -> 1 never exceeds 1 + C_N / L
    claim_id = "jacot2023.theory.large_depth_undercut"
    depth = it.undercut_depth(50.0, np.array([[3.0], [0.5]]))
    assert depth == np.inf and claim_status([measured(claim_id, depth)], claim_id) == ["fail"]
    assert it.undercut_depth(50.0, np.array([[3.0, 0.5]])) < 1e12  # rank 2: found
    # least squares along the line: no longer through the points, its slope is the average's
    t = u @ x
    slope = np.linalg.lstsq(np.stack([t, np.ones_like(t)]).T, y.T, rcond=None)[0][0]
    ratio = np.linalg.norm(slope) / (it.spanning_length(y) / it.diameter(x))
    claim_id = "jacot2023.theory.thm2_tsp_slope"
    assert claim_status([measured(claim_id, ratio)], claim_id) == ["fail"]


@controls("jacot2023.fig1.three_part_structure")
def test_jacot2023_three_part_row_fails_on_two_runs_of_identities_or_none():
    """The three-part row reads 0 where identities come in two runs, or not at all, or without
    a nonlinear part before them."""
    from l2relu.jacot2023 import ledger as j23

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    bar = registry[j23.IMPACT].criterion.bounds()[1]
    assert j23.three_parts([0.5, 0.01, 0.02, 0.5], bar)
    assert not j23.three_parts([0.5, 0.01, 0.5, 0.01, 0.5], bar)
    assert not j23.three_parts([0.5, 0.5, 0.5], bar)
    assert not j23.three_parts([0.01, 0.01, 0.5], bar)  # no g before the identities

    def layers(impacts):
        return pd.DataFrame(
            [
                {"seed": s, "layer": i + 1, "nonlinearity_impact": v}
                for s in range(3)
                for i, v in enumerate(impacts)
            ]
        )

    two_runs = layers([0.5, 0.01, 0.5, 0.01, 0.5, 0.0])
    assert claim_status(j23.three_part_claims(two_runs, registry), j23.THREE_PART) == ["fail"]
    one_run = layers([0.5, 0.01, 0.01, 0.01, 0.5, 0.0])
    assert claim_status(j23.three_part_claims(one_run, registry), j23.THREE_PART) == ["pass"]


@controls(
    "jacot2023.theory.prop1_rank_properties",
    "jacot2023.theory.thm1_sandwich_closes",
    "jacot2023.theory.thm1_sandwich_order",
)
def test_jacot2023_prop1_and_sandwich_rows_fail_where_a_rank_rises_or_the_bounds_cross():
    """The central-difference rank sees the sum of two rank-1 maps read 2 (so 'Rank_J(f + g) <=
    max' would fail); a rank-2 f's lower bound passes a rank-1 network's 1 + 0/L (order fails);
    read at depth 10 instead of 10^6 the bounds stand far from k (closure fails)."""
    from l2relu.jacot2023 import constructions as c
    from l2relu.jacot2023 import ledger as j23

    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 50))
    u, v = rng.normal(size=(2, 5, 1)), rng.normal(size=(2, 1, 6))
    assert c.jacobian_rank(lambda z: u[0] @ (v[0] @ z) + u[1] @ (v[1] @ z), x) == 2
    failures = int(c.jacobian_rank(lambda z: u[0] @ (v[0] @ z) + u[1] @ (v[1] @ z), x) > 1)
    claim_id = "jacot2023.theory.prop1_rank_properties"
    assert claim_status([measured(claim_id, failures)], claim_id) == ["fail"]
    lower = (np.array([3.0, 2.0]) ** (2 / 10)).sum()
    claim_id = "jacot2023.theory.thm1_sandwich_order"
    assert claim_status([measured(claim_id, lower - 1.0)], claim_id) == ["fail"]
    cfg = c.ConstructionsConfig(trials=3, points=50, leaky_slopes=(0.5,), grid_size=51)
    near = c.thm1_sandwich(cfg, depths=(6, 8), far=10)
    claim_id = "jacot2023.theory.thm1_sandwich_closes"
    assert claim_status([measured(claim_id, near["thm1_sandwich_closes"])], claim_id) == ["fail"]
    assert set(j23.CONSTRUCTION_IDS.values()) >= {
        "jacot2023.theory.prop1_rank_properties",
        "jacot2023.theory.thm1_sandwich_order",
        "jacot2023.theory.thm1_sandwich_closes",
    }


@controls(
    "jacot2023.theory.thm1_affine_closes",
    "jacot2023.theory.thm1_properties_cost",
    "jacot2023.theory.thm1_properties_fit",
)
def test_jacot2023_thm1_property_rows_fail_on_a_wrong_target_costly_identities_and_a_short_depth():
    """The f o g network read against f + g misfits; its identity layers as 2 then 1/2 make C
    move with L; Ax + b's bounds read at depth 10 stand far from Rank A."""
    from l2relu.jacot2023 import constructions as c

    rng = np.random.default_rng(0)
    f, g = ((c.random_layers((6, 12, k), rng), c.random_layers((k, 12, 6), rng)) for k in (2, 3))
    x = rng.normal(size=(6, 40))
    net, k = c.composed_network(f, g, x, 8)
    wrong = c.forward(f[1], c.forward(f[0], x)) + c.forward(g[1], c.forward(g[0], x))
    misfit = np.abs(c.forward(net, x) - wrong).max() / np.abs(wrong).max()
    claim_id = "jacot2023.theory.thm1_properties_fit"
    assert claim_status([measured(claim_id, misfit)], claim_id) == ["fail"]
    constants = []
    for depth in (10, 14):
        net, k = c.composed_network(f, g, x, depth)
        middle = range(len(net) - 2 - (depth - 6), len(net) - 2)
        costly = [
            (w * (2.0 if (i - middle.start) % 2 == 0 else 0.5), b) if i in middle else (w, b)
            for i, (w, b) in enumerate(net)
        ]
        assert np.allclose(c.forward(costly, x), c.forward(net, x))
        constants.append(c.norm_minus_kl(costly, k))
    claim_id = "jacot2023.theory.thm1_properties_cost"
    assert claim_status([measured(claim_id, c.constant_spread(constants))], claim_id) == ["fail"]
    cfg = c.ConstructionsConfig(trials=3, points=40, leaky_slopes=(0.5,), grid_size=51)
    short = c.thm1_properties(cfg, far=10)["thm1_affine_closes"]
    claim_id = "jacot2023.theory.thm1_affine_closes"
    assert claim_status([measured(claim_id, short)], claim_id) == ["fail"]


@controls(
    "jacot2023.fig1.norm_falls_after_fit",
    "jacot2023.fig1.norm_not_settled",
    "jacot2023.fig1.fit_phase_short",
)
def test_jacot2023_app_f_rows_fail_on_a_rising_or_flat_norm_or_a_late_fit():
    """A norm that rises after the fit fails both readings of the fall; one that stops moving
    in the last fifth fails the unsettled row; a falling one passes both; a fit reached at 3/10
    of the steps passes the first phase's row and one reached at 7/10 fails it; a seed whose MSE
    ends above the fit bar is left out."""
    from l2relu.jacot2023 import ledger as j23

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    steps = np.arange(0, 10001, 1000)
    loss = np.where(steps < 3000, 1.0, 1e-4)  # fits from step 3000 (variance 1)

    def claims(norms, losses=loss):
        trace = pd.DataFrame(
            [
                {"network": i, "step": s, "loss": v, "norm_per_layer": n}
                for i in range(3)
                for s, v, n in zip(steps, losses, norms, strict=True)
            ]
        )
        runs = pd.DataFrame({"seed": range(3), "output_variance": 1.0, "diverged": False})
        return j23.norm_trace_claims(trace, runs, registry)

    falling = 20.0 - steps / 1000.0
    rising = 10.0 + steps / 1000.0
    flat_end = np.where(steps < 7000, 20.0 - steps / 1000.0, 13.0)
    assert set(reading_status(claims(falling), j23.NORM_FALLS).values()) == {"pass"}
    assert claim_status(claims(falling), j23.NORM_NOT_SETTLED) == ["pass"]
    assert set(reading_status(claims(rising), j23.NORM_FALLS).values()) == {"fail"}
    assert claim_status(claims(flat_end), j23.NORM_NOT_SETTLED) == ["fail"]
    assert reading_status(claims(flat_end), j23.NORM_FALLS)["every step"] == "fail"
    misfit = judged(claims(falling, np.ones_like(loss)), every_entry=False)
    assert set(misfit[misfit.claim_id == j23.NORM_NOT_SETTLED].status) == {"inconclusive"}
    assert set(misfit[misfit.claim_id == j23.FIT_PHASE].status) == {"inconclusive"}
    assert claim_status(claims(falling), j23.FIT_PHASE) == ["pass"]
    late_fit = np.where(steps < 7000, 1.0, 1e-4)
    assert set(reading_status(claims(falling, late_fit), j23.FIT_PHASE).values()) == {"fail"}
    # fitted at 3000, above the bar again at 7000: only the first fit is early
    relapse = np.where((steps < 3000) | (steps == 7000), 1.0, 1e-4)
    statuses = reading_status(claims(falling, relapse), j23.FIT_PHASE)
    assert statuses == {"stays fitted": "fail", "first fitted": "pass"}


def test_prop3s_floor_is_tight_on_a_balanced_network_and_the_bound_fails_on_a_borrowed_norm():
    """c times the identity at every layer of depth L (every unit active): the floor
    sum_k s_k(Jf)^(2/L) equals ||W||^2/L (the ratio the bound row reads is 1, the bar); the
    same Jacobian against the norm of a network half as large per layer breaks it."""
    from l2relu.jacot2023.rank_study import jacobian_measures

    d, depth, c = 6, 5, 1.3
    weights, biases = [c * np.eye(d)] * depth, [np.zeros(d)] * depth
    points = np.random.default_rng(0).uniform(0.1, 1.0, size=(d, 20))
    floor = jacobian_measures(weights, biases, points, ())
    norm = sum((w**2).sum() for w in weights) / depth
    claim = load_registry(registry_files(REPO / "workflow/claims"))[
        "jacot2023.rankstudy.prop3_bound"
    ]
    assert floor["floor_max"] / norm == pytest.approx(1.0, rel=1e-12)
    assert claim.criterion.holds(floor["floor_max"] / norm * (1 - 1e-9))
    assert not claim.criterion.holds(floor["floor_max"] / (norm / 4))


@controls("jacot2023.theory.remark2_smaller_width", "jacot2023.theory.remark2_width_suffices")
def test_remark2_rows_fail_when_a_wider_network_gets_lower_or_the_plateau_starts_late():
    """Flat from width 2: both rows pass; a network at 2N(N + 1) 1% below the rest fails the
    first and moves every onset to 2N(N + 1), which fails the second; a loss that falls until
    N(N + 1) fails the second alone."""
    from l2relu.jacot2023 import ledger as j23
    from l2relu.jacot2023.widths import remark2_widths

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    readings = registry[j23.REMARK2_SMALLER].every_reading
    widths = remark2_widths(4, "narrow") + remark2_widths(4, "wide")
    flat = pd.DataFrame(
        [
            {"seed": s, "width": w, "objective": 2.0 if w == 1 else 1.0}
            for s in (0, 8, 16)
            for w in widths
        ]
    )
    statuses = judged(j23.remark2_claims(flat, 4, 3, readings), every_entry=False)
    assert set(statuses.status) == {"pass"}
    deeper = flat.assign(objective=np.where(flat.width == 40, 0.99, flat.objective))
    rows = judged(j23.remark2_claims(deeper, 4, 3, readings), every_entry=False)
    assert set(rows.status) == {"fail"}
    # falls until N(N + 1) = 20, nothing lower at 40: sufficient, but not a smaller width
    late = flat.assign(objective=np.where(flat.width < 20, 1.5, flat.objective))
    rows = judged(j23.remark2_claims(late, 4, 3, readings), every_entry=False)
    status = rows.groupby("claim_id").status.agg(set)
    assert status[j23.REMARK2_SUFFICES] == {"pass"} and status[j23.REMARK2_SMALLER] == {"fail"}
