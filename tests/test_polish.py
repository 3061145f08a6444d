"""Polishing (l2relu.polish), its certificate, and the ledger's reading of two networks."""

import json
import math

import pandas as pd
import pytest
import torch
import yaml
from test_claims import _entry, _registry
from test_jacot2023 import small_fig2_study

from l2relu import claims, engine, polish, stationarity
from l2relu.registry import RegistryError, load_registry


def _trained(seeds=(1, 2, 3), lam=0.05, steps=300):
    """Small regression networks at the end of a short Adam schedule (not at a minimum)."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(4, 30, generator=gen, dtype=torch.float64)
    y = torch.randn(2, 30, generator=gen, dtype=torch.float64)
    model = engine.BatchedMLP(
        engine.NetworkConfig((4, 12, 12, 2), bias=True), seeds, "cpu", torch.float64
    )
    config = engine.TrainConfig("mse", (engine.Phase("adam", 1e-2, steps),), log_every=0)
    engine.train(model, x, y, lam, config, log=lambda s: None)
    return model, x, y, lam


def _polish(model, x, y, lam, iterations, log_every=None):
    cfg = polish.PolishConfig(iterations, "mse", log_every=log_every or iterations, device="cpu")
    return polish.polish(model, x, y, lam, cfg, log=lambda s: None)


def _equal(a, b, i=0, j=0):
    return all(torch.equal(p[i], q[j]) for p, q in zip(a.parameters(), b.parameters(), strict=True))


def test_a_network_polished_in_a_batch_is_the_network_polished_alone():
    model, x, y, lam = _trained()
    batch, _ = _polish(model, x, y, lam, 60)
    alone, _ = _polish(engine.BatchedMLP.padded([_slice(model, 1)]), x, y, lam, 60)
    assert _equal(batch, alone, 1, 0)
    assert not _equal(batch, alone, 0, 0)  # the comparison can tell two networks apart


def _slice(model, i):
    return engine.BatchedMLP.from_weights(
        [w[i : i + 1] for w in model.weights], [b[i : i + 1] for b in model.biases], bias=True
    )


def test_a_polish_in_chunks_and_a_resumed_polish_end_as_one_uninterrupted(tmp_path):
    model, x, y, lam = _trained(seeds=(1, 2))
    whole, whole_cert = _polish(model, x, y, lam, 60)
    chunked, _ = _polish(model, x, y, lam, 60, log_every=7)
    assert _equal(whole, chunked, 0, 0) and _equal(whole, chunked, 1, 1)

    class Killed(Exception):
        pass

    lines = []

    def dies(line):  # the job is killed in the second network's polish
        lines.append(line)
        if "network 2 of 2" in " ".join(lines) and "iteration 30/" in line:
            raise Killed

    cfg = polish.PolishConfig(60, "mse", log_every=10, device="cpu")
    saved = tmp_path / "resume"
    saved.mkdir()
    with pytest.raises(Killed), engine.checkpointing(saved, every_s=0):
        polish.polish(model, x, y, lam, cfg, log=dies)
    assert list(saved.iterdir())  # a failed job keeps its saves for the next attempt
    resumed_lines = []
    with engine.checkpointing(saved, every_s=0):
        resumed, cert = polish.polish(model, x, y, lam, cfg, log=resumed_lines.append)
    assert any("network 2 resumed at iteration 20" in line for line in resumed_lines)
    assert _equal(whole, resumed, 1, 1) and _equal(whole, resumed, 0, 0)
    assert cert.fall_last_half.tolist() == whole_cert.fall_last_half.tolist()


def test_the_certificate_fails_a_network_out_of_adam_and_passes_it_polished():
    """On a network whose hidden units are active on every input (positive inputs and first
    layer: J is smooth near its minimum), polishing reaches the minimum: the gradient, the force
    and balance residuals vanish. The network straight out of Adam is far from it."""
    gen = torch.Generator().manual_seed(0)
    x = torch.rand(4, 30, generator=gen, dtype=torch.float64) + 1
    y = torch.randn(2, 4, generator=gen, dtype=torch.float64).abs() @ x
    model = engine.BatchedMLP(
        engine.NetworkConfig((4, 12, 2), bias=True), [1], "cpu", torch.float64
    )
    with torch.no_grad():
        model.weights[0].abs_()
    config = engine.TrainConfig("mse", (engine.Phase("adam", 1e-2, 200),), log_every=0)
    engine.train(model, x, y, 0.05, config, log=lambda s: None)
    polished, after = _polish(model, x, y, 0.05, 400, log_every=100)
    before = polish.certificate(model, x, y, 0.05, "mse")
    fall = float((before.objective - after.objective)[0] / after.objective[0])  # the schedule's
    bar = 1e-3
    assert fall > bar
    assert stationarity.settled_falls(after)[0] <= bar and not after.stalled[0]
    assert after.force_residual[0] < 1e-6 < 0.1 < before.force_residual[0]
    assert after.balance_residual[0] < 1e-6 < 0.1 < before.balance_residual[0]


def test_the_zero_network_is_certified_stationary_not_a_division_by_zero():
    """A network whose every weight is 0 (a fully collapsed one) on targets of mean 0 has no
    data pull (its hidden units are dead, its output bias at the targets' mean) and no weight
    decay: it is exactly stationary, its force residual 0."""
    model, x, y, lam = _trained((1,), steps=20)
    y = torch.tensor([[1.0, -1.0] * 15, [-1.0, 1.0] * 15], dtype=torch.float64)  # mean 0
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
    row = polish.certificate(model, x, y, lam, "mse").iloc[0]
    assert row.grad_norm == 0 and row.force_residual == 0
    assert row.objective == pytest.approx(2.0, rel=1e-12)  # (1/N) ||0 - Y||^2


def test_a_polish_that_stalled_at_a_kink_is_not_read_as_settled():
    """An objective that did not move while the forces still do not cancel is a stall: its fall
    reads infinite, whatever the bar; a settled one reads its fall, and a fall of 0 where the
    forces cancel is a minimum reached."""
    table = pd.DataFrame({"fall_last_half": [0.0, 0.0, 2e-4], "force_residual": [0.3, 1e-6, 0.3]})
    table["stalled"] = stationarity.stalled(table.fall_last_half, table.force_residual)
    assert table.stalled.tolist() == [True, False, False]
    assert stationarity.settled_falls(table) == [math.inf, 0.0, 2e-4]


def test_a_planted_unbalanced_network_fails_the_balance_residual():
    model, x, y, lam = _trained(seeds=(1,), lam=0.1, steps=200)
    polished, after = _polish(model, x, y, lam, 1500, log_every=100)
    with torch.no_grad():  # the same function, its second layer doubled and the third halved
        polished.weights[1].mul_(2)
        polished.biases[1].mul_(2)
        polished.weights[2].div_(2)
    planted = polish.certificate(polished, x, y, lam, "mse")
    assert planted.loss[0] == pytest.approx(after.loss[0], rel=1e-9)
    assert planted.balance_residual[0] > 1 > 100 * after.balance_residual[0]


def _two_networks(tmp_path, network="polished", requires=("stationary",)):
    entry = _entry(criterion="<= 1", quantifier="every", network=network, requires=list(requires))
    return load_registry([_registry(tmp_path, {"demo.fig1.balance": entry})])


def test_a_row_whose_status_flips_between_the_networks_reads_optimizer_dependent(tmp_path):
    registry = _two_networks(tmp_path)
    schedule = [claims.measured("demo.fig1.balance", [3.0, 2.0, 5.0])]
    polished = [claims.measured("demo.fig1.balance", [0.2, 0.1, 0.3])]
    row = claims.evaluate_networks(registry, schedule, polished, [True] * 3).iloc[0]
    assert (row.status, row.other_status) == ("pass", "fail")
    assert row.optimization == "optimizer-dependent" and row.network == "polished"
    assert json.loads(row["values"]) == [0.2, 0.1, 0.3]
    assert json.loads(row.other_values) == [3.0, 2.0, 5.0]
    same = claims.evaluate_networks(registry, polished, polished, [True] * 3).iloc[0]
    assert same.optimization == "optimizer-independent"


def test_a_seed_not_certified_stationary_is_left_out_of_the_polished_reading(tmp_path):
    registry = _two_networks(tmp_path)
    ms = [claims.measured("demo.fig1.balance", [0.2, 0.1, 0.3])]
    row = claims.evaluate_networks(registry, ms, ms, [True, False, False]).iloc[0]
    assert row.status == "inconclusive" and row.n_excluded == 2
    assert "not certified stationary" in row.reproduced_value
    assert row.other_status == "pass"  # the schedule's network is read as it was left
    assert row.optimization == "undecided"  # an unread network says nothing either way


def test_a_schedule_primary_takes_the_schedules_values(tmp_path):
    registry = _two_networks(tmp_path, network="schedule", requires=())
    schedule = [claims.measured("demo.fig1.balance", [3.0, 2.0, 5.0])]
    polished = [claims.measured("demo.fig1.balance", [0.2, 0.1, 0.3])]
    row = claims.evaluate_networks(registry, schedule, polished, [True] * 3).iloc[0]
    assert (row.status, row.other_status, row.network) == ("fail", "pass", "schedule")


def test_an_entry_read_on_one_network_only_is_an_error(tmp_path):
    registry = _two_networks(tmp_path)
    ms = [claims.measured("demo.fig1.balance", [0.2, 0.1, 0.3])]
    with pytest.raises(RegistryError, match="not read on the polished network"):
        claims.evaluate_networks(registry, ms, [], [True] * 3)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"network": "best"}, "network 'best'"),
        ({"requires": ["stationary"]}, "precondition of a polished network"),
    ],
)
def test_a_bad_network_field_is_refused(tmp_path, changes, message):
    path = _registry(tmp_path, {"demo.fig1.balance": _entry(**changes)})
    with pytest.raises(RegistryError, match=message):
        load_registry([path])


def test_every_entry_read_on_two_networks_has_its_optimization_in_the_reference_ledgers():
    import pandas as pd
    from conftest import REPO
    from test_claims import REGISTRY_FILES

    registry = load_registry(REGISTRY_FILES)
    twice = {k for k, c in registry.items() if c.network}
    assert twice
    for scale in ("default", "smoke"):
        ledger = pd.read_csv(REPO / f"reference/{scale}/claims.csv", keep_default_na=False)
        rows = ledger[ledger.claim_id.isin(twice)]
        assert len(rows), scale
        # Fig. 2's (and its study's) tripoint cases trained without L2 have no minimum to polish
        # towards: they read one network, and they alone leave the other's columns empty
        one = rows.optimization == ""
        fig2 = rows.claim_id.isin(
            ["jacot2023.fig2.tripoints_shallow", "jacot2023.fig2.tripoints_deep"]
            + [f"jacot2023.fig2study.{k}" for k in ("tripoints_shallow", "tripoints_deep")]
            + ["jacot2023.fig2study.tripoints_deep_not_interleaved"]
        )
        assert (one == (fig2 & rows.claim.str.endswith("lambda = 0"))).all(), scale
        assert one.any(), scale
        assert (rows[one].network == "").all() and (rows[one].other_status == "").all(), scale
        assert set(rows[~one].optimization) <= set(claims.OPTIMIZATION), scale
        assert (ledger[~ledger.claim_id.isin(twice)].optimization == "").all(), scale
        assert yaml  # the registry files are YAML


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


def test_a_depth_seed_with_an_uncertified_network_is_left_out_of_the_rows_about_minima():
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files_of_repo())
    registry = {k: c for k, c in registry.items() if c.target == "jacot2023_depth"}
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


def judged_check(measurements, registry):
    check = {ledger_id: registry[ledger_id] for ledger_id in {m.claim_id for m in measurements}}
    return claims.evaluate(check, measurements)


def test_polishing_the_plateau_lowers_every_width_and_certifies_both_networks():
    import numpy as np

    from l2relu.jacot2022.polishing import polish_plateau
    from l2relu.jacot2022.theory import PlateauConfig, train_plateau

    cfg = PlateauConfig("onehot", 6, 3, (1, 2, 3, 4), 1e-3, 2, 100, 0)
    losses, networks = train_plateau(cfg)
    table, polished, certificate = polish_plateau(cfg, networks, losses, 200)
    assert list(table.width) == [1, 2, 3, 4]
    # a strong-Wolfe line search only accepts steps that lower the objective
    assert (table.objective.to_numpy() <= losses.objective.to_numpy() * (1 + 1e-12)).all()
    assert (table.objective < losses.objective).any()
    assert sorted(polished) == sorted(networks)
    assert len(certificate) == 2 * 4 and set(certificate.network) == {"schedule", "polished"}
    # the polished network's certificate reads the objective the table holds
    after = certificate[certificate.network == "polished"].sort_values("width")
    np.testing.assert_allclose(after.objective, table.objective, rtol=1e-12)


def test_a_plateau_seed_with_an_uncertified_width_is_left_out_of_the_polished_onsets():
    from l2relu.jacot2022 import ledger

    registry = load_registry(registry_files_of_repo())
    registry = {k: c for k, c in registry.items() if k == ledger.ONSET_IDS["onehot"]}
    onsets = pd.DataFrame(
        {"setting": "onehot", "N": 6, "seed": [0, 1, 2], "onset": 3, "expected": 3}
    )
    readings = [(r.name, onsets) for r in registry[ledger.ONSET_IDS["onehot"]].every_reading]
    falls = pd.DataFrame(
        [
            {"setting": "onehot", "N": 6, "seed": s, "width": w, "fall": 0.0}
            for s in range(3)
            for w in range(1, 5)
        ]
    )
    bar = 1e-4
    every = ledger.certified(falls, ledger.PLATEAU_NETWORK, bar)
    one_open = ledger.certified(
        falls.assign(fall=[0.0] * 11 + [math.inf]), ledger.PLATEAU_NETWORK, bar
    )
    assert list(every.values()) == [True] * 3
    assert list(one_open.values()) == [True, True, False]
    schedule = ledger.onset_claims(readings)
    read = claims.evaluate_networks(registry, schedule, ledger.onset_claims(readings, every))
    assert set(read.status) == {"pass"} and set(read.n_excluded) == {0}
    read = claims.evaluate_networks(registry, schedule, ledger.onset_claims(readings, one_open))
    assert set(read.n_excluded) == {1} and set(read.status) == {"inconclusive"}
    assert set(read.other_status) == {"pass"}
    # the check: one width's network above the bar, or stalled, and the data set is not certified
    check = ledger.plateau_certificate_claims(falls.assign(fall=[0.0] * 11 + [2e-4]), bar)
    assert check[0].values[-1] == 2e-4 and check[0].detail == "not certified at width 4"


def registry_files_of_repo():
    from conftest import REPO

    from l2relu.registry import registry_files

    return registry_files(REPO / "workflow/claims")


def test_a_fig2_trial_with_an_uncertified_width_is_left_out_of_the_minimum_against_width():
    from l2relu.jacot2022 import ledger

    registry = load_registry(registry_files_of_repo())
    registry = {k: c for k, c in registry.items() if k == ledger.NONINCREASING}
    widths = [1, 2, 4, 8]
    runs = pd.DataFrame(
        [
            {"dataset": "teacher", "lam": 1e-6, "width": w, "trial": t, "objective": 1.0 / w}
            | {"test_loss": 0.1}
            for t in range(3)
            for w in widths
        ]
    ).assign(diverged=False, diverged_step=-1)
    falls = runs[["dataset", "lam", "trial", "width"]].assign(fall=0.0)
    falls.loc[(falls.trial == 2) & (falls.width == 8), "fall"] = 0.01  # still descending
    certified = ledger.certified(falls, ledger.FIG2_NETWORK, 1e-3)
    assert certified == {("teacher", 1e-6, 0): True, ("teacher", 1e-6, 1): True,
                         ("teacher", 1e-6, 2): False}  # fmt: skip
    polished = [m for m in ledger.fig2_claims(runs, [], [], certified)
                if m.claim_id == ledger.NONINCREASING]  # fmt: skip
    schedule = [m for m in ledger.fig2_claims(runs, [], []) if m.claim_id == ledger.NONINCREASING]
    row = claims.evaluate_networks(registry, schedule, polished).iloc[0]
    assert (row.status, row.n_excluded, row.other_status) == ("inconclusive", 1, "pass")
    check = ledger.fig2_certificate_claims(falls)
    assert len(check) == 1 and sorted(check[0].values)[-1] == 0.01


def test_polishing_a_fig2_width_lowers_each_networks_objective_and_keeps_its_rows():
    import numpy as np

    from l2relu.jacot2022.fig2 import Fig2Config, polish_width, teacher_data, train_width

    data = teacher_data(40, 20, (5, 6, 3), 0)
    cfg = Fig2Config("teacher", 4, (1e-3, 1e-4), 2, 1.0, 200, 1e-2, 50, 0.05, 0, 0, "float64")
    runs, model = train_width(cfg, data, device="cpu")
    table, arrays, certificate = polish_width(
        "teacher", data, runs, engine.stacked_arrays(model), 50
    )
    assert list(table.lam) == list(runs.lam) and list(table.trial) == list(runs.trial)
    assert (table.objective.to_numpy() <= runs.objective.to_numpy() * (1 + 1e-9)).all()
    after = certificate[certificate.network == "polished"]
    np.testing.assert_allclose(after.objective, table.objective, rtol=1e-12)
    assert list(after.lam) == list(runs.lam)  # each certificate row names its network
    assert arrays["w1"].shape[0] == len(runs)


def test_a_plateau_width_with_no_network_leaves_its_seed_uncertified():
    from l2relu.jacot2022 import ledger
    from l2relu.jacot2022.polishing import polish_plateau
    from l2relu.jacot2022.theory import PlateauConfig, train_plateau

    cfg = PlateauConfig("onehot", 6, 3, (1, 2, 3), 1e-3, 2, 50, 0)
    losses, networks = train_plateau(cfg)
    gone = {k: v for k, v in networks.items() if not k.startswith("width3_")}  # all diverged
    _, _, certificate = polish_plateau(cfg, gone, losses, 20)
    falls = ledger.polished_falls(
        certificate.assign(setting="onehot", N=6, seed=0), ledger.PLATEAU_NETWORK
    )
    assert list(falls.width) == [1, 2, 3]
    # at any bar: width 3 has no fall
    assert ledger.certified(falls, ledger.PLATEAU_NETWORK, 1.0) == {("onehot", 6, 0): False}
    with pytest.raises(ValueError, match="no certificate"):
        ledger.seeds_certified({("onehot", 6, 0): True}, [("onehot", 6, 1)])


def test_a_remark2_seed_with_an_uncertified_width_is_left_out_of_both_rows():
    from l2relu.jacot2022.ledger import PLATEAU_NETWORK, certified
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files_of_repo())
    ids = (ledger.REMARK2_SMALLER, ledger.REMARK2_SUFFICES)
    registry = {k: c for k, c in registry.items() if k in ids}
    readings = registry[ledger.REMARK2_SMALLER].every_reading
    # N = 2: N(N + 1) = 6; every seed's lowest loss reached at width 2, none lower past 6
    widths = [1, 2, 3, 6, 12]
    losses = pd.DataFrame(
        [
            {
                "setting": "bipartite",
                "N": 2,
                "seed": s,
                "width": w,
                "objective": 2.0 if w == 1 else 1.0,
            }
            for s in (0, 8, 16)
            for w in widths
        ]
    )
    falls = losses[["setting", "N", "seed", "width"]].assign(fall=0.0)
    every = certified(falls, PLATEAU_NETWORK, 1e-4)
    one_open = certified(falls.assign(fall=[0.0] * 14 + [math.inf]), PLATEAU_NETWORK, 1e-4)
    assert list(one_open.values()) == [True, True, False]
    schedule = ledger.remark2_claims(losses, 2, 3, readings)
    read = claims.evaluate_networks(
        registry, schedule, ledger.remark2_claims(losses, 2, 3, readings, every)
    )
    assert set(read.status) == {"pass"} and set(read.n_excluded) == {0}
    read = claims.evaluate_networks(
        registry, schedule, ledger.remark2_claims(losses, 2, 3, readings, one_open)
    )
    assert set(read.n_excluded) == {1} and set(read.other_status) == {"pass"}
    assert set(read.claim_id) == set(ids)
    # a seed with no certificate at all is an error, never an uncertified seed
    with pytest.raises(ValueError, match="no certificate"):
        ledger.remark2_claims(losses, 2, 3, readings, {("bipartite", 2, 0): True})
    check = ledger.remark2_certificate_claims(falls.assign(fall=[0.0] * 14 + [2e-4]), 2, 3)
    assert check[0].values[-1] == 2e-4 and check[0].claim_id == ledger.REMARK2_CERTIFIED


def test_polishing_a_deep_remark2_width_lowers_its_objective():
    import numpy as np

    from l2relu.jacot2022.polishing import polish_plateau
    from l2relu.jacot2022.theory import PlateauConfig, train_plateau

    # Remark 2's networks: depth 3 on X = I_N, Y = B_N
    cfg = PlateauConfig("bipartite", 4, 0, (2, 6), 1e-3, 2, 100, 0, depth=3)
    losses, networks = train_plateau(cfg)
    table, polished, certificate = polish_plateau(cfg, networks, losses, 100)
    assert (table.objective.to_numpy() <= losses.objective.to_numpy() * (1 + 1e-12)).all()
    assert sorted(polished) == sorted(networks) and any(k.endswith("_w3") for k in polished)
    after = certificate[certificate.network == "polished"].sort_values("width")
    np.testing.assert_allclose(after.objective, table.objective, rtol=1e-12)


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


def test_a_case_trained_without_l2_reads_one_network_and_its_polished_reading_is_ignored(
    tmp_path,
):
    registry = _two_networks(tmp_path, network="schedule", requires=())
    schedule = [
        claims.measured("demo.fig1.balance", [3.0, 2.0, 5.0], "lambda = 0"),
        claims.measured("demo.fig1.balance", [3.0, 2.0, 5.0], "lambda = 0.001"),
    ]
    polished = [claims.measured("demo.fig1.balance", [0.2, 0.1, 0.3], m.case) for m in schedule]
    rows = claims.evaluate_networks(
        registry, schedule, polished, unregularized=[("demo.fig1.balance", "lambda = 0")]
    )
    unregularized, regularized = rows.iloc[0], rows.iloc[1]
    assert unregularized.status == "fail" and json.loads(unregularized["values"])[0] == 3.0
    assert (unregularized.network, unregularized.other_status, unregularized.optimization) == (
        "",
        "",
        "",
    )
    assert (regularized.other_status, regularized.optimization) == ("pass", "optimizer-dependent")
    # without the declaration, the case missing from the polished reading is an error
    with pytest.raises(RegistryError, match="not read on the polished network"):
        claims.evaluate_networks(registry, schedule, polished[1:])
    # a declaration that names no row (a case's text drifted) is an error, not a no-op
    with pytest.raises(RegistryError, match="declared trained without L2, but no such row"):
        claims.evaluate_networks(
            registry, schedule, polished, unregularized=[("demo.fig1.balance", "lambda = 0.0")]
        )


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
    from test_measures_can_fail import _fig3_study_tables

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


def test_the_fig1_studys_networks_are_polished_each_alone_in_the_inputs_span():
    """The Fig. 1 study trains every seed of a setting together in the inputs' span: polished,
    each network ends where it ends polished alone, lower than it started, on the same reduced
    inputs, with nothing kept at four fifths; the schedule's certificate objective is the
    reduced one (the full objective less the decaying rest outside the span)."""
    import numpy as np

    from l2relu.jacot2022 import fig1_study

    rng = np.random.default_rng(3)
    x, labels = rng.uniform(size=(30, 9)), np.repeat([4, 5, 6], 3)
    cfg = fig1_study.StudyConfig(
        (4, 5, 6), 6, lam=0.05, lr=0.3, steps=200, inputs="raw", seeds=(1, 2), log_every=40
    )
    arrays, kept, runs, reduced = fig1_study.train(cfg, x, labels, "cpu")
    saved = arrays | {f"{fig1_study.KEPT}{k}": v for k, v in kept.items()} | {"inputs": reduced}
    polished, p_runs, certificate = fig1_study.polish_study(saved, runs, cfg, labels, 15, "cpu")
    assert set(polished) == set(arrays) | {"inputs"}
    assert p_runs.objective_four_fifths.isna().all() and list(p_runs.seed) == [1, 2]
    both = certificate.pivot(index="seed", columns="network", values="objective")
    assert (both.polished < both.schedule).all()
    assert (both.schedule.to_numpy() < runs.objective.to_numpy()).all()  # less the rest
    assert list(p_runs.objective) == list(both.polished)  # keyed by seed, in seed order
    alone = {k: v[1:2] for k, v in arrays.items()} | {"inputs": reduced}
    one, _, _ = fig1_study.polish_study(alone, runs.iloc[1:2], cfg, labels, 15, "cpu")
    assert all((one[k][0] == polished[k][1]).all() for k in arrays)


def test_the_fig1_studys_certificate_row_reads_every_seed_of_a_setting_and_a_stall_fails():
    from l2relu.jacot2022 import ledger

    setting = {"inputs": "raw", "lam": 1e-2, "lr": 0.5, "steps": 20000}
    certificates = pd.DataFrame(
        {"network": ["schedule"] + ["polished"] * 4, "seed": [0, 0, 1, 0, 1]}
        | setting
        | {"lam": [1e-2, 1e-2, 1e-2, 3e-2, 3e-2], "grad_norm": 1e-3}
        | {"fall_last_half": [0.5, 0.0, 1e-4, 0.0, 0.0], "stalled": [False] * 4 + [True]}
    )
    rows = judged_check(
        ledger.fig1_study_certificate_claims(certificates), load_registry(registry_files_of_repo())
    )
    assert list(rows.status) == ["pass", "mixed"]  # the schedule's row is not read; a stall fails
    assert list(rows.n_seeds) == [2, 2]
    assert rows.claim.iloc[1].endswith("raw inputs, lambda = 0.03, GD step 0.5 x 20000")
