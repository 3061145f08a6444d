"""jacot2022: the constructions, identities and plateau measurement of its propositions."""

import numpy as np
import pandas as pd
import pytest

from l2relu.jacot2022 import theory
from l2relu.plateau import plateau_onset, with_running_best


def test_bipartite_incidence_has_n2_over_4_edges_and_no_triangle():
    for n in (2, 4, 6, 10):
        e = theory.bipartite_incidence(n)
        assert e.shape == (n * n // 4, n)
        assert (e.sum(axis=1) == 2).all()  # every edge has two endpoints
        adjacency = e.T @ e - np.diag(np.diag(e.T @ e))
        assert theory.triangles(adjacency) == 0
    with pytest.raises(ValueError):
        theory.bipartite_incidence(5)


def test_triangles_are_counted():
    assert theory.triangles(np.ones((3, 3)) - np.eye(3)) == 1
    assert theory.triangles(np.ones((4, 4)) - np.eye(4)) == 4


def test_prop13_block_form_and_remark23_norms():
    table = theory.prop13_table([4, 8])
    assert (table.block_form_error == 0).all() and table.edges.tolist() == [4, 16]
    r23 = theory.remark23_table([4, 8])
    np.testing.assert_allclose(r23.width_N_norm, [20, 72])
    np.testing.assert_allclose(r23.edge_network_norm, [16, 64])
    assert (r23.width_N_error < 1e-12).all() and (r23.edge_network_error == 0).all()


def test_prop1_identity_holds_to_float_precision():
    assert theory.prop1_table(5).relative_gap.max() < 1e-12


def test_prop19_holds_for_the_proofs_loss_and_not_for_the_statements():
    common = {"lam": 0.1, "angle": 0.7, "radius": 1e-3, "samples": 5000}
    proof = theory.prop19_table(theory.Prop19Config(**common, outputs=(1, 1), reduction="sum"))
    assert (proof.lowest_nearby >= proof.loss_at_point - 1e-12).all()
    statement = theory.prop19_table(
        theory.Prop19Config(**common, outputs=(1, -1), reduction="mean")
    )
    assert (statement.lowest_nearby < statement.loss_at_point - 1e-6).all()


def test_plateau_onset_definition():
    widths = [1, 2, 3, 4, 5]
    assert plateau_onset(widths, [9.0, 5.0, 1.001, 1.0, 1.0005], rel_tol=0.002) == 3
    assert plateau_onset(widths, [9.0, 5.0, 1.001, 1.0, 1.00005], rel_tol=0.0001) == 4
    assert plateau_onset(widths, [1.0] * 5, rel_tol=0.01) == 1
    assert plateau_onset(widths, [3.0, 1.0, 1.0, 1.0, 2.0], rel_tol=0.01) is None
    with pytest.raises(ValueError):
        plateau_onset([2, 1], [1.0, 1.0], 0.1)


def test_running_best_is_monotone_and_onsets_use_it():
    losses = pd.DataFrame(
        {"setting": "oned", "N": 3, "width": [1, 2, 3, 4], "objective": [4.0, 1.0, 3.0, 1.0]}
    )
    assert with_running_best(losses, theory.CURVE).best.tolist() == [4.0, 1.0, 1.0, 1.0]
    assert theory.onsets(losses, 0.01).onset.tolist() == [2]


def test_plateau_data_and_predictions():
    cfg = theory.PlateauConfig("onehot", 6, 3, (1, 2), 1e-3, 1, 1, 0)
    x, y, bias = theory.plateau_data(cfg)
    assert not bias and (x == np.eye(6)).all() and (y.sum(axis=0) == 1).all()
    assert theory.expected_onset("bipartite", 6, 3) == 9
    assert theory.expected_onset("onehot", 12, 4) == 4
    assert theory.expected_onset("oned", 5, 3) == 20


def test_a_shallow_bipartite_run_reaches_the_representation_cost():
    """Y = B_4 needs N^2/4 = 4 neurons: width 2 cannot reach lam * N^2, width 6 does."""
    cfg = theory.PlateauConfig("bipartite", 4, 3, (2, 6), 1e-3, 4, 800, 0)
    losses = theory.plateau_losses(cfg)
    narrow, wide = losses.objective
    assert wide / 1e-3 == pytest.approx(16, rel=0.03)
    assert narrow > 10 * wide


def test_teacher_data_is_a_deterministic_function_of_its_seed():
    from l2relu.jacot2022 import fig2

    a = fig2.teacher_data(20, 10, [5, 4, 4, 3], seed=0)
    b = fig2.teacher_data(20, 10, [5, 4, 4, 3], seed=0)
    assert a["x_train"].shape == (20, 5) and a["y_train"].shape == (20, 3)
    np.testing.assert_array_equal(a["y_test"], b["y_test"])


def test_fig2_trains_every_lambda_and_trial_and_picks_the_best():
    from l2relu.jacot2022 import fig2

    data = fig2.teacher_data(30, 10, [4, 3, 3, 2], seed=0)
    cfg = fig2.Fig2Config("teacher", 4, (1e-3, 1e-6), 2, 50, 1e-2, 10, 0.01, 0, 0)
    runs = fig2.run(cfg, data, device="cpu")
    assert len(runs) == 4 and set(runs.lam) == {1e-3, 1e-6}
    chosen = fig2.curves(runs)
    assert len(chosen) == 2
    for r in chosen.itertuples():
        assert r.objective == runs[runs.lam == r.lam].objective.min()
        assert len(r.all_objectives.split(";")) == 2


def _small_network(seed=0, widths=(3, 9, 8, 2), n=5):
    import torch

    g = torch.Generator().manual_seed(seed)
    x = torch.randn(widths[0], n, dtype=torch.float64, generator=g)
    ws = [
        torch.randn(o, i, dtype=torch.float64, generator=g)
        for i, o in zip(widths[:-1], widths[1:], strict=True)
    ]
    bs = [torch.randn(o, dtype=torch.float64, generator=g) for o in widths[1:]]
    return x, ws, bs


def test_attraction_matches_its_closed_form_and_repulsion_its_finite_differences():
    import torch

    from l2relu.jacot2022 import forces

    x, ws, bs = _small_network()
    zs = forces.representations(ws, bs, x)
    (attraction, repulsion), _ = forces.forces(zs, x, beta=1.0, eps=0.0)
    p = torch.linalg.pinv(forces.with_bias_row(x, 1.0))
    np.testing.assert_allclose(attraction, (2 * zs[0] @ p @ p.T).numpy(), rtol=1e-8, atol=1e-10)

    def repulsion_term(z1):
        a = forces.with_bias_row(torch.relu(z1), 1.0)
        return float((zs[1] @ torch.linalg.pinv(a)).pow(2).sum())

    h = 1e-6
    for i, j in [(0, 0), (3, 2), (8, 4)]:
        step = torch.zeros_like(zs[0])
        step[i, j] = h
        numeric = (repulsion_term(zs[0] + step) - repulsion_term(zs[0] - step)) / (2 * h)
        assert repulsion[i, j] == pytest.approx(numeric, rel=1e-4, abs=1e-6)


def test_tikhonov_pseudo_inverse_tends_to_the_exact_one():
    import torch

    from l2relu.jacot2022 import forces

    a = torch.randn(6, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    exact = torch.linalg.pinv(a)
    torch.testing.assert_close(forces.tikhonov_pinv(a, 1e-12), exact, rtol=1e-8, atol=1e-10)
    assert (forces.tikhonov_pinv(a, 1.0) - exact).abs().max() > 1e-3


def test_pca_basis_is_orthonormal_and_sign_stable():
    from l2relu.jacot2022 import forces

    m = np.random.default_rng(0).standard_normal((20, 7))
    basis = forces.pca_basis(m)
    np.testing.assert_allclose(basis @ basis.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(forces.pca_basis(-m), basis)
