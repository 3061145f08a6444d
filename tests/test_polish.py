"""Polishing (l2relu.training.polish), its certificate, and the ledger's reading of two networks."""

import json
import math

import pandas as pd
import pytest
import torch
import yaml
from test_claims import _entry, _registry

from l2relu.ledger import claims
from l2relu.ledger.registry import RegistryError, load_registry
from l2relu.training import engine, polish, stationarity


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


def test_a_polish_skips_only_chunks_that_would_repeat_a_fixed_point(monkeypatch):
    """Once a chunk from an empty L-BFGS memory leaves every bit of the network as it was, the
    polish does not run the same chunk again: its networks, certificate and fall equal, bit for
    bit, those of a polish that runs every chunk, with fewer evaluations."""
    model, x, y, lam = _trained(seeds=(1, 2, 3), lam=0.3)  # these reach a fixed point
    evaluations = []
    parts = polish.objective_parts

    def counted(*args):
        evaluations.append(1)
        return parts(*args)

    monkeypatch.setattr(polish, "objective_parts", counted)

    def run():
        lines, evaluations[:] = [], []
        cfg = polish.PolishConfig(300, "mse", log_every=100, device="cpu")
        polished, certificate = polish.polish(model, x, y, lam, cfg, log=lines.append)
        return polished, certificate, lines, len(evaluations)

    skipping, cert, lines, fewer = run()
    same_bits = polish._same_bits
    monkeypatch.setattr(polish, "_same_bits", lambda a, b: False)  # never a fixed point
    every, every_cert, every_lines, more = run()
    assert sum("a fixed point of L-BFGS" in line for line in lines) == 3
    assert not any("a fixed point of L-BFGS" in line for line in every_lines)
    assert fewer < more / 2
    for i in range(3):
        assert all(
            same_bits(p[i], q[i])
            for p, q in zip(skipping.parameters(), every.parameters(), strict=True)
        )
    pd.testing.assert_frame_equal(cert, every_cert, check_exact=True)
    # the logged objectives and gradients every 100 iterations are the same too
    assert [x for x in lines if "/300]" in x and "elapsed" in x] != []
    assert [x.split(" elapsed")[0] for x in lines if "/300]" in x] == [
        x.split(" elapsed")[0] for x in every_lines if "/300]" in x
    ]


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
