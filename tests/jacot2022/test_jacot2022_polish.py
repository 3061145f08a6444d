"""Polishing jacot2022's networks: each polished on its own data, and the rows about minima reading
only certified ones."""

import math

import pandas as pd
import pytest
from conftest import judged_check, registry_files_of_repo

from l2relu.ledger import claims
from l2relu.ledger.registry import load_registry
from l2relu.training import engine


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

    from l2relu.jacot2022.data import teacher_data
    from l2relu.jacot2022.fig2 import Fig2Config, polish_width, train_width

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
