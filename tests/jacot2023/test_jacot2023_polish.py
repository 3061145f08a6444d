"""Polishing jacot2023's networks: each polished on its own data, and the rows about minima reading
only certified ones."""

import math

import pandas as pd
import pytest
from conftest import controls, judged_check, registry_files_of_repo
from test_jacot2023 import small_fig2_study

from l2relu.ledger import claims
from l2relu.ledger.registry import load_registry
from l2relu.training import engine, polish


def _depth_sweep(certified):
    """A depth sweep's rows (every reading) where every depth recovers the rank at both N, each
    network certified as `certified(n, depth, seed)` says."""
    from l2relu.jacot2023 import ledger

    rows = [
        {"n_train": n, "depth": d, "seed": s, "bottleneck_rank": 4, "reading": r.name}
        | {"certified": certified(n, d, s), "fall_last_half": 0.0 if certified(n, d, s) else 0.1}
        for r in ledger_readings(ledger.DEPTH_RANK)
        for n in (100, 500)
        for d in (2, 4, 8)
        for s in range(3)
    ]
    return pd.DataFrame(rows).assign(diverged=False, diverged_step=-1, norm_per_layer=4 + 8 / 1)


def ledger_readings(claim_id):
    return load_registry(registry_files_of_repo())[claim_id].every_reading


@controls(
    "jacot2023.depth.identity_layer_cost",
    "jacot2023.depth.range_grows_with_n",
    "jacot2023.depth.small_depth_overestimates",
)
def test_a_depth_seed_with_an_uncertified_network_is_left_out_of_the_rows_about_minima():
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files_of_repo())
    # Prop. 4's rows read other measures of the networks (test_jacot2023_omitted.py)
    prop4 = (ledger.PROP4_SLOPE, ledger.PROP4_BOUND)
    registry = {
        k: c for k, c in registry.items() if c.target == "jacot2023_depth" and k not in prop4
    }
    everywhere = _depth_sweep(lambda n, d, s: True)
    # seed 1's depth-8 network at N = 500 still descends, and at N = 100 seeds 0 and 2 do too
    open_ = _depth_sweep(lambda n, d, s: (n, d, s) not in {(500, 8, 1), (100, 4, 0), (100, 2, 2)})
    schedule = ledger.depth_claims(everywhere.drop(columns=["certified", "fall_last_half"]), 4)
    schedule += ledger.depth_certificate_claims(_one_reading(everywhere))
    rows = claims.evaluate_networks(registry, schedule, ledger.depth_claims(open_, 4))
    primary = rows[rows.primary.astype(bool)].set_index(["claim_id", "claim"])
    recovering = primary.loc[ledger.DEPTH_RANK]
    at_500 = recovering[recovering.index.str.contains("N = 500")].iloc[0]
    # one seed out of three: too few certified seeds for a typical claim
    assert (at_500.n_excluded, at_500.status) == (1, "inconclusive")
    at_100 = recovering[recovering.index.str.contains("N = 100")].iloc[0]
    assert (at_100.n_excluded, at_100.status) == (2, "inconclusive")
    assert at_100.other_status == "pass" and at_100.optimization == "undecided"
    certified = claims.evaluate_networks(registry, schedule, ledger.depth_claims(everywhere, 4))
    certified = certified[certified.primary.astype(bool)]
    read = certified[certified.claim_id == ledger.DEPTH_RANK]
    assert set(read.status) == {"pass"} and set(read.n_excluded) == {0}
    # Remark 5 reads what training reached: no certificate asked, every seed read
    remark5 = primary.loc["jacot2023.depth.no_rank_underestimate"]
    assert set(remark5.n_excluded) == {0} and set(remark5.network) == {"schedule"}
    # the check reads the falls: one network above the bar fails it, and a stall reads infinite
    check = judged_check(ledger.depth_certificate_claims(_one_reading(open_)), registry)
    assert list(check.status) == ["mixed", "mixed"]  # some networks hold, not all
    assert "not certified at L = 2, 4" in check.reproduced_value.iloc[0]
    settled = _one_reading(everywhere)
    stalled = settled.assign(fall_last_half=[math.inf] + [0.0] * (len(settled) - 1))
    assert list(judged_check(ledger.depth_certificate_claims(stalled), registry).status) == [
        "mixed",
        "pass",
    ]
    assert set(judged_check(ledger.depth_certificate_claims(settled), registry).status) == {"pass"}


def _one_reading(sweep):
    return sweep[sweep.reading == sweep.reading.iloc[0]]


def _rank_study_networks():
    """A tiny rank study run: two lambdas x two seeds, trained together, with the columns the
    training script adds (scale, lam_factor)."""
    from conftest import tiny_rank_study

    from l2relu.jacot2023 import rank_study

    task, cfg = tiny_rank_study(seeds=(0, 1), steps=60, log_every=0)
    arrays, runs, _ = rank_study.fit(task, cfg, "cpu")
    runs.insert(0, "lam_factor", runs.lam.map({0.05: 1.0, 0.8: 16.0}))
    runs.insert(0, "scale", "he")
    return arrays, runs, task


def test_each_rank_study_network_is_polished_with_its_own_lambda():
    """The study's networks of one checkpoint carry different lambdas: polished together, each
    ends where it ends polished alone with its own lambda / L, lower than it started."""
    from l2relu.jacot2023.polishing import polish_study

    arrays, runs, task = _rank_study_networks()
    polished, after, certificate = polish_study(arrays, runs, task, 30, "cpu")
    assert {k: v.shape for k, v in polished.items()} == {k: v.shape for k, v in arrays.items()}
    both = certificate.pivot(index="index", columns="network", values="objective")
    assert (both.polished < both.schedule).all()
    assert list(after.objective) == list(both.polished)
    assert set(certificate.lam) == {0.05, 0.8} and set(certificate.scale) == {"he"}
    # network 3 (lambda 0.8, seed 1) alone, from its own arrays, with its own lambda
    one = {k: v[3:4] for k, v in arrays.items()}
    alone, _, _ = polish_study(one, runs.iloc[3:4].assign(network=0), task, 30, "cpu")
    assert all((alone[k][0] == polished[k][3]).all() for k in arrays)


@controls("jacot2023.rankstudy.jacobian_rank")
def test_the_rank_studys_jacobian_reads_only_certified_polished_networks():
    """The Jacobian's rank is stated at global minima: on the polished networks a seed whose
    polish is not certified is left out; the norm, what training showed, reads the schedule's
    networks and every seed; the certificate's row reads every fall."""
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files_of_repo())
    registry = {k: c for k, c in registry.items() if c.target == "jacot2023_rank_study"}
    columns = {
        f"middle rank: {r.name}": 2 for r in registry[ledger.RANK_STUDY_MIDDLE].every_reading
    } | {f"middle ranks: {r.name}": "2" for r in registry[ledger.RANK_STUDY_MIDDLE].every_reading}
    networks = pd.DataFrame(
        {"scale": "he", "lam_factor": 1.0, "lam": 0.05, "depth": 13, "selected": False}
        | {"seed": range(3), "loss": 0.01, "output_variance": 10.0, "norm_drift": 0.001}
        | {"diverged": False, "diverged_step": -1, "norm_per_layer": 6.0}
        | {"floor_median": 5.0, "floor_max": 5.5}
        | columns
    )
    rank = {f"jacobian rank: {r.name}": 2.0 for r in ledger_readings(ledger.RANK_STUDY_JACOBIAN)}
    schedule_nets = networks.assign(**{k: 3.0 for k in rank})  # above k: fails
    polished_nets = networks.assign(**rank)
    falls = [0.0, 1e-5, 0.5]  # seed 2 still descends
    certificates = pd.DataFrame(
        {"network": "polished", "scale": "he", "lam_factor": 1.0, "lam": 0.05, "depth": 13}
        | {"seed": range(3)}
        | {"fall_last_half": falls, "stalled": False, "grad_norm": 1e-3}
    )
    certified = ledger.rank_study_certified(certificates, 1e-3)
    assert list(certified.values()) == [True, True, False]
    schedule = ledger.rank_study_claims(schedule_nets, 2, registry)
    schedule += ledger.rank_study_certificate_claims(certificates, 30)
    polished = ledger.rank_study_claims(polished_nets, 2, registry, certified)
    rows = claims.evaluate_networks(registry, schedule, polished)
    rows = rows[rows.primary.astype(bool)].set_index("claim_id")
    jacobian = rows.loc[ledger.RANK_STUDY_JACOBIAN]
    assert (jacobian.network, jacobian.n_excluded, jacobian.n_seeds) == ("polished", 1, 3)
    assert (jacobian.status, jacobian.other_status) == ("inconclusive", "fail")
    norm = rows.loc["jacot2023.rankstudy.norm_per_layer"]
    assert (norm.network, norm.n_excluded, norm.status) == ("schedule", 0, "pass")
    assert rows.loc[ledger.RANK_STUDY_CERTIFIED, "status"] == "mixed"
    # every seed certified: the polished networks' rank k is read, the schedule's beside it
    every = {key: True for key in certified}
    polished = ledger.rank_study_claims(polished_nets, 2, registry, every)
    rows = claims.evaluate_networks(registry, schedule, polished)
    first = rows[rows.primary.astype(bool) & (rows.claim_id == ledger.RANK_STUDY_JACOBIAN)]
    assert set(first.status) == {"pass"} and set(first.optimization) == {"optimizer-dependent"}


def test_each_fig3_curve_autoencoder_is_polished_on_its_own_curve():
    """Fig. 3's curve autoencoders train together, each on its own curve: polished, each ends
    where it ends polished alone on its curve's points, lower than it started, and the table
    keeps the training's columns with the polished networks' measures."""
    from l2relu.jacot2023 import autoencoders
    from l2relu.jacot2023.polishing import polish_curves

    data = autoencoders.CurveData(curve_width=10, n_train=20, n_random=5)
    arch = autoencoders.Architecture(depth=3, width=6)
    networks = [(0, 0), (1, 1)]
    phases = (engine.Phase("adam", 3e-3, 50),)
    table, _, arrays = autoencoders.train_curves(data, networks, [5, 6], arch, 1e-3, phases, "cpu")
    polished_table, moved, polished, certificate = polish_curves(
        arrays, table, data, 1e-3, 20, "cpu"
    )
    assert list(polished_table.columns) == list(table.columns)
    both = certificate.pivot(index="curve", columns="network", values="objective")
    assert (both.polished < both.schedule).all()
    assert list(polished_table.objective) == list(both.polished)
    assert set(moved.curve) == {0, 1} and len(moved) == 2 * data.n_random
    # curve 1's network alone, on curve 1's points only
    alone = {k: v[1:2] for k, v in arrays.items()}
    _, _, one, _ = polish_curves(alone, table.iloc[1:2], data, 1e-3, 20, "cpu")
    assert all((one[k][0] == polished[k][1]).all() for k in arrays)
    # the schedule's objective in the certificate is training's, as training measured it
    assert both.schedule.to_numpy() == pytest.approx(table.objective.to_numpy(), rel=1e-9)


def test_fig3s_certificate_row_reads_every_autoencoder_of_a_data_set_and_a_stall_fails():
    from l2relu.jacot2023 import ledger

    certificates = pd.DataFrame(
        {"network": "polished", "dataset": ["curve"] * 4 + ["mnist"] * 2}
        | {"depth": [2, 2, 12, 12, 2, 4], "seed": [0, 1, 0, 1, 0, 0]}
        | {"fall_last_half": [0.0, 1e-4, 0.0, 0.0, 0.0, 0.0], "grad_norm": 1e-3}
        | {"stalled": [False] * 5 + [True]}
    )
    rows = judged_check(
        ledger.fig3_certificate_claims(certificates), load_registry(registry_files_of_repo())
    )
    assert list(rows.status) == ["pass", "mixed"]  # a stall is no certificate
    assert list(rows.n_seeds) == [4, 2]


def test_fig2s_networks_trained_with_l2_are_polished_each_alone_and_lower_their_objective():
    """Fig. 2 trains one network a lambda together: the polish takes only those with lambda > 0
    (cross-entropy alone has no minimum), each ends where it ends polished alone, lower than it
    started, and its class map and summary read as the schedule's do."""
    from l2relu.jacot2023 import classes

    cfg = classes.ClassesConfig(4, 10, 4.0, 1.0, 0.02, 0, 20)
    lams = [0.0, 1e-3, 1e-2]
    phases = (engine.Phase("adam", 1e-2, 60),)
    regions, summary, arrays = classes.train_panels(cfg, 3, 8, lams, phases, "cpu")
    p_regions, p_summary, polished, certificate = classes.polish_panels(
        arrays, cfg, 8, lams, 15, "cpu"
    )
    assert list(p_summary.lam) == [1e-3, 1e-2] and set(p_regions.lam) == {1e-3, 1e-2}
    assert list(p_summary.columns) == list(summary.columns)
    both = certificate.pivot(index="lam", columns="network", values="objective")
    assert (both.polished < both.schedule).all()
    # the maps, accuracy and tripoints are the polished networks' (not the schedule's)
    again, _ = classes.class_maps(
        polish.stacked_networks(polished), cfg, 8, lams[1:], {"loss": 0.0, "objective": 0.0}
    )
    assert (again.label.to_numpy() == p_regions.label.to_numpy()).all()
    moved = regions[regions.lam > 0].label.to_numpy() != p_regions.label.to_numpy()
    assert moved.any()
    # the schedule's objective in the certificate is training's
    assert both.schedule.to_numpy() == pytest.approx(summary.objective.to_numpy()[1:], rel=1e-9)
    alone = {k: v[2:3] for k, v in arrays.items()}
    _, _, one, _ = classes.polish_panels(alone, cfg, 8, [1e-2], 15, "cpu")
    assert all((one[k][0] == polished[k][1]).all() for k in arrays)


def test_fig2s_certificate_row_reads_every_polished_network_of_a_depth_and_a_stall_fails():
    from l2relu.jacot2023 import ledger

    certificates = pd.DataFrame(
        {"network": ["schedule"] + ["polished"] * 4, "depth": [2, 2, 2, 9, 9]}
        | {"lam": 1e-3, "seed": [0, 0, 1, 0, 1], "grad_norm": 1e-3}
        | {"fall_last_half": [0.5, 0.0, 1e-4, 0.0, 0.0], "stalled": [False] * 4 + [True]}
    )
    rows = judged_check(
        ledger.fig2_certificate_claims(certificates), load_registry(registry_files_of_repo())
    )
    assert list(rows.status) == ["pass", "mixed"]  # the schedule's row is not read; a stall fails
    assert list(rows.n_seeds) == [2, 2]


def test_the_fig2_studys_networks_with_l2_are_polished_each_alone_on_its_seeds_data():
    """The Fig. 2 study trains every seed and lambda of a (family, depth) together, each on its
    seed's data: the polish takes only those with lambda > 0, each ends where it ends polished
    alone on its own seed's data (not the first seed's), lower than it started, and its maps,
    tripoints and accuracy are the polished network's."""
    from l2relu.jacot2023 import fig2_study, polishing

    cfg = small_fig2_study()
    assert fig2_study.StudyConfig.from_dict(cfg.as_dict()) == cfg
    phases = (engine.Phase("adam", 1e-2, 60),)
    runs, tripoints, maps, arrays = fig2_study.train(cfg, phases, "cpu")
    p_runs, p_tripoints, p_maps, polished, certificate = polishing.polish_fig2_study(
        arrays, cfg, 15, "cpu"
    )
    assert list(zip(p_runs.seed, p_runs.lam, strict=True)) == [(0, 1e-3), (1, 1e-3)]
    assert list(certificate[certificate.network == "polished"]["index"]) == [1, 3]
    assert set(p_tripoints.lam) == {1e-3} and len(p_tripoints) == 2 * len(cfg.pads)
    both = certificate.pivot(index="seed", columns="network", values="objective")
    assert (both.polished < both.schedule).all()
    assert both.schedule.to_numpy() == pytest.approx(runs.objective.to_numpy()[1::2], rel=1e-9)
    assert (p_maps != maps[1::2]).any()  # the maps are the polished networks'
    # seed 1's network alone, in a study of seed 1 only: its own data, not seed 0's
    alone_cfg = small_fig2_study(seeds=(1,))
    alone = {k: v[2:4] for k, v in arrays.items()}
    _, _, one_map, one, _ = polishing.polish_fig2_study(alone, alone_cfg, 15, "cpu")
    assert all((one[k][0] == polished[k][1]).all() for k in arrays)
    assert (one_map[0] == p_maps[1]).all()


def _fig2_study_certificates():
    """A study's certificate: at L = 2 both polishes settle, at L = 9 one stalls at a kink."""
    return pd.DataFrame(
        {"network": ["schedule"] + ["polished"] * 4, "family": "bands"}
        | {"depth": [2, 2, 2, 9, 9], "lam": 1e-3, "seed": [0, 0, 1, 0, 1], "grad_norm": 1e-3}
        | {"fall_last_half": [0.5, 0.0, 1e-4, 0.0, 0.0], "stalled": [False] * 4 + [True]}
    )


@controls(
    "jacot2023.fig2study.tripoints_deep",
    "jacot2023.fig2study.tripoints_deep_not_interleaved",
)
def test_the_fig2_studys_unregularized_cases_read_one_network_and_the_rest_read_two():
    """Every tripoint case at lambda = 0 (no minimum to polish towards) is declared to read one
    network, and only those: the ledger then reads the rows at lambda > 0 on both networks,
    and the settling check on the schedule's alone."""
    from l2relu.jacot2023 import ledger

    keys = [
        (family, depth, lam, s)
        for family in ("bands", "apart")
        for depth in (2, 9)
        for lam in (0.0, 1e-3)
        for s in range(2)
    ]
    networks = pd.DataFrame(
        {"family": f, "interleaved": f == "bands", "depth": d, "lam": lam, "seed": s}
        | {"train_accuracy": 1.0, "diverged": False, "tripoints_changed_last_fifth": 0.0}
        for f, d, lam, s in keys
    )
    tripoints = pd.DataFrame(
        {"family": f, "depth": d, "lam": lam, "seed": s, "pad": 1.0, "tripoints": int(d == 2)}
        for f, d, lam, s in keys
    )
    polished = networks[networks.lam > 0].drop(columns="tripoints_changed_last_fifth")
    one = ledger.fig2_study_unregularized(networks, tripoints, polished, 2, 9)
    assert sorted(one) == sorted(
        (f"jacot2023.fig2study.{k}", f"{family}, data box, L = {depth}, lambda = 0")
        for k, family, depth in [
            ("tripoints_shallow", "bands", 2),
            ("tripoints_deep", "bands", 9),
            ("tripoints_deep_not_interleaved", "apart", 9),
        ]
    )
    # the polished reading flips the deep rows at lambda > 0: optimizer-dependent, not at 0
    flipped = tripoints.assign(tripoints=1)[tripoints.lam > 0]
    polished_reading = ledger.fig2_study_claims(
        ledger.fig2_polished_runs(networks, polished),
        ledger.fig2_polished_runs(tripoints, flipped),
        2,
        9,
    )
    schedule = ledger.fig2_study_claims(networks, tripoints, 2, 9)
    schedule += ledger.fig2_study_certificate_claims(_fig2_study_certificates())
    rows = claims.evaluate_networks(
        load_registry(registry_files_of_repo()), schedule, polished_reading, unregularized=one
    )
    deep = rows[rows.claim_id == "jacot2023.fig2study.tripoints_deep"]
    assert list(deep.other_status) == ["", "fail"]
    assert list(deep.optimization) == ["", "optimizer-dependent"]
    settled = rows[rows.claim_id == "jacot2023.fig2study.tripoints_settled"]
    assert len(settled) == 8 and (settled.optimization == "").all()


def test_the_fig2_studys_certificate_row_reads_a_family_and_depth_and_a_stall_fails():
    from l2relu.jacot2023 import ledger

    rows = judged_check(
        ledger.fig2_study_certificate_claims(_fig2_study_certificates()),
        load_registry(registry_files_of_repo()),
    )
    assert list(rows.status) == ["pass", "mixed"]
    assert list(rows.n_seeds) == [2, 2]


def test_the_fig3_studys_mnist_autoencoders_are_polished_each_alone_and_measured_polished():
    """The Fig. 3 study's MNIST autoencoders (one a seed) train together: polished, each ends
    where it ends polished alone, lower than it started, and the noise it passes is the
    polished network's, read as training reads it."""
    import numpy as np

    from l2relu.jacot2023 import fig3_study, polishing

    digits = {"x_train": np.random.default_rng(0).uniform(size=(12, 9))}
    phases = (engine.Phase("adam", 1e-2, 40), engine.Phase("adam", 1e-3, 20))
    table, _, arrays = fig3_study.train_mnist(digits, 3, 6, 1e-3, phases, 0.3, 3, [4, 5])
    polished_table, polished, certificate = polishing.polish_mnist_study(
        arrays, table, digits["x_train"], 1e-3, (0.3, 3), 15, "cpu"
    )
    assert list(polished_table.columns) == list(table.columns)
    both = certificate.pivot(index="seed", columns="network", values="objective")
    assert (both.polished < both.schedule).all() and list(both.index) == [4, 5]
    assert both.schedule.to_numpy() == pytest.approx(table.objective.to_numpy(), rel=1e-5)
    again, _ = fig3_study.noise_measures(
        polish.stacked_networks(polished), digits["x_train"], 0.3, 3, [4, 5]
    )
    assert list(polished_table.noise_share) == [m["noise_share"] for m in again]
    assert (polished_table.noise_share != table.noise_share).all()
    alone = {k: v[1:2] for k, v in arrays.items()}
    _, one, _ = polishing.polish_mnist_study(
        alone, table.iloc[1:2], digits["x_train"], 1e-3, (0.3, 3), 15, "cpu"
    )
    assert all((one[k][0] == polished[k][1]).all() for k in arrays)


def test_the_fig3_studys_polished_networks_settle_on_their_polish_and_carry_their_certificate():
    """On polished networks the study's precondition settled reads the polish's second half, and
    the rows about the learned autoencoder's rank (and only they) leave out a network the
    certificate does not certify, a stall at a kink included."""
    from l2relu.jacot2023 import ledger

    polished = pd.DataFrame({"depth": 8, "curve": [0, 0, 1], "seed": [0, 1, 0], "objective": 2.0})
    certificates = pd.DataFrame(
        {"network": ["schedule"] * 3 + ["polished"] * 3, "depth": 8}
        | {"curve": [0, 0, 1] * 2, "seed": [0, 1, 0] * 2}
        | {"fall_last_half": [0.5, 0.5, 0.5, 1e-4, 0.05, 0.0]}
        | {"stalled": [False] * 5 + [True]}
    )
    table = ledger.fig3_study_polished(polished, certificates, ["depth", "curve", "seed"], 1e-3)
    assert list(table.certified) == [True, False, False]  # the stall is not certified
    # the polish's second half, as a last stretch: |1 - J_end / J_half| = fall / (1 + fall)
    # (a stall, an infinite fall, is not settled either)
    assert list(ledger.last_change(table)) == pytest.approx([1e-4 / 1.0001, 0.05 / 1.05, 1.0])
    # the rows' meets: stationary from `certified`, on the rank rows only
    from test_jacot2023_study_controls import _fig3_study_tables

    curves, mnist, projections = _fig3_study_tables(0.1, 0.05, 0.2, seeds=3)
    marked = dict(certified=lambda t: t.seed != 1)
    registry = load_registry(registry_files_of_repo())
    ms = ledger.fig3_study_claims(
        curves.assign(**marked), mnist.assign(**marked), projections, 2, 8, registry
    )
    stationary = {m.claim_id.split(".")[-1] for m in ms if "stationary" in m.meets}
    assert stationary == {"deep_jacobian_rank_one", "mnist_noise_like_projection"}
    rank = next(m for m in ms if m.claim_id.endswith("deep_jacobian_rank_one"))
    assert rank.meets["stationary"] == [True, False, True] * 2  # (curve, seed) in order
    plain = ledger.fig3_study_claims(curves, mnist, projections, 2, 8, registry)
    assert not any("stationary" in m.meets for m in plain)


def test_the_fig3_studys_certificate_row_reads_a_data_set_and_depth_and_a_stall_fails():
    from l2relu.jacot2023 import ledger

    certificates = pd.DataFrame(
        {"network": ["schedule"] + ["polished"] * 4, "data": ["curves"] * 3 + ["mnist"] * 2}
        | {"depth": [8, 8, 8, 6, 6], "curve": [0, 0, 1, None, None], "seed": [0, 0, 0, 0, 1]}
        | {"fall_last_half": [0.5, 0.0, 1e-4, 0.0, 0.0], "stalled": [False] * 4 + [True]}
        | {"grad_norm": 1e-3}
    )
    rows = judged_check(
        ledger.fig3_study_certificate_claims(certificates),
        load_registry(registry_files_of_repo()),
    )
    assert list(rows.status) == ["pass", "mixed"]
    assert list(rows.n_seeds) == [2, 2]
