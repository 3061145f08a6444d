"""Controls of jacot2022 entries that had none: each entry's measure, computed by the
pipeline's own code on a known negative case, judged by the registry, fails."""

import pandas as pd
import pytest
from conftest import claim_status, controls


@controls("jacot2022.theory.prop19_local_minimum")
def test_prop19_local_minimum_fails_under_the_statements_mean_squared_error():
    """Prop. 19's point a = sqrt(1 - lambda) (cos, sin) with the statement's (1/N) MSE and
    Y = (1, -1): the optimum moves to 1 - 2 lambda, so sampled neighbours lie lower than the
    point by far more than round-off and the row must fail; with the proof's sum of squares and
    Y = (1, 1) the point is a local minimum and the row passes."""
    from l2relu.jacot2022 import ledger, theory

    claim_id = "jacot2022.theory.prop19_local_minimum"
    empty = {
        "prop13": pd.DataFrame(columns=["N", "edges", "triangles"]),
        "remark23": pd.DataFrame(columns=["N", "width_N_norm", "width_N_error"]),
        "prop1": pd.DataFrame({"relative_gap": [0.0]}),
    }

    def status(outputs, reduction):
        cfg = theory.Prop19Config(0.1, 0.7, 1e-3, 2000, outputs, reduction)
        prop19 = theory.prop19_table(cfg)
        ms = ledger.theory_claims(*empty.values(), prop19, [], pd.DataFrame(columns=["N"]), 1e-3)
        return claim_status(ms, claim_id)

    assert status((1.0, -1.0), "mean") == ["fail"]
    assert status((1.0, 1.0), "sum") == ["pass"]


def _clustered_fig1_network():
    """A small Fig. 1 network (three digits' clusters in 12 dimensions, width 16, lambda 0.05)
    after 500 GD steps, still descending, and the same network polished (L-BFGS), with its
    data, configuration and both networks' certificate."""
    import numpy as np

    from l2relu.jacot2022 import fig1

    rng = np.random.default_rng(0)
    y = np.repeat([7, 8, 9], 10)
    x = rng.uniform(size=(3, 12))[np.searchsorted([7, 8, 9], y)]
    data = {"x_train": x + 0.1 * rng.standard_normal((30, 12)), "y_train": y}
    cfg = fig1.Fig1Config((7, 8, 9), width=16, lam=5e-2, lr=0.5, steps=500, seed=0, log_every=0)
    _, trained, _ = fig1.train(cfg, data, "cpu", log=lambda _: None)
    polished, certificate = fig1.polish(cfg, data, trained, 200, "cpu")
    return data, cfg, trained, polished, certificate


def _prop1_statuses(arrays, data, cfg) -> dict:
    """{entry: {reading: status}} of Prop. 1's two local-minimum rows on one network."""
    from conftest import reading_status

    from l2relu.jacot2022 import ledger, prop1

    readings = prop1.network_readings(arrays, data, cfg.digits, cfg.lam, cfg.seed)
    runs = pd.DataFrame([{"seed": cfg.seed, "diverged": False, "diverged_step": -1} | readings])
    ms = ledger.prop1_claims(runs)
    return {
        claim_id: reading_status([m for m in ms if m.claim_id == claim_id], claim_id)
        for claim_id in (ledger.PROP1_Z, ledger.PROP1_PSI)
    }


@controls("jacot2022.fig1.prop1_z_local_minimum", "jacot2022.fig1.prop1_psi_local_minimum")
def test_prop1_local_minimum_rows_fail_on_a_network_still_descending():
    """Prop. 1's rows on a network 500 GD steps left still descending: minus the gradient lowers
    L_lambda, and L^r along Phi of the same line, by more than the certificate's bar, and the
    least-curvature direction is a saddle's (the data's curvature outweighs the weight
    decay's), so every reading fails. The same network polished to a certified stationary
    point passes every reading."""
    data, cfg, trained, polished, certificate = _clustered_fig1_network()
    every = {"fall", "curvature"}
    for readings in _prop1_statuses(trained, data, cfg).values():
        assert readings.keys() == every and set(readings.values()) == {"fail"}
    after = certificate.set_index("network").loc["polished"]
    assert after.fall_last_half <= 1e-3 and not after.stalled  # certified
    for readings in _prop1_statuses(polished, data, cfg).values():
        assert set(readings.values()) == {"pass"}


def test_prop1_reformulated_loss_is_the_residual_free_network_loss():
    """L^r(Phi(W)) read through the projections equals L^r from Z's pseudo-inverses where every
    Z^sigma is well conditioned, lies below L_lambda(W) by lambda times the residual weights'
    squared norm, and equals L_lambda(Psi(Phi(W))), the network rebuilt from its
    representations; Psi(Phi(W)) reproduces Phi(W)."""
    import numpy as np
    import torch

    from l2relu.jacot2022 import prop1

    rng = np.random.default_rng(3)
    x = torch.tensor(rng.standard_normal((5, 6)))  # N = 6 inputs in 5 dimensions
    labels = torch.tensor([0, 1, 2, 0, 1, 2])
    arrays = {f"w{i}": rng.standard_normal(s) for i, s in ((1, (9, 5)), (2, (8, 9)), (3, (3, 8)))}
    arrays |= {f"b{i}": rng.standard_normal(n) for i, n in ((1, 9), (2, 8), (3, 3))}
    ws = prop1.augmented(arrays)
    zs = prop1.phi(ws, x)
    stable = float(prop1.reformulated_at(ws, x, labels, 0.1))
    assert stable == pytest.approx(float(prop1.reformulated_objective(zs, x, labels, 0.1)), 1e-10)
    assert stable < float(prop1.network_objective(ws, x, labels, 0.1))  # W_1 has a residual
    rebuilt = prop1.psi(zs, x)
    assert stable == pytest.approx(float(prop1.network_objective(rebuilt, x, labels, 0.1)), 1e-10)
    assert all(torch.allclose(a, b) for a, b in zip(prop1.phi(rebuilt, x), zs, strict=True))
