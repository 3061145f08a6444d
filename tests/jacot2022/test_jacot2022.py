"""jacot2022: the constructions, identities and plateau measurement of its propositions."""

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, controls, judged, killed_and_resumed

from l2relu.jacot2022 import theory
from l2relu.jacot2022.data import bipartite_incidence, teacher_data
from l2relu.jacot2022.plateau import (
    plateau_onset,
    plateau_onset_on_log_scale,
    with_running_best,
)
from l2relu.ledger.registry import load_registry

# the rays entries' readings and their parameters (Fig. 1 and its study share them)
RAYS = {
    r.name: r.parameters
    for r in load_registry([REPO / "workflow/claims/jacot2022.yaml"])[
        "jacot2022.fig1.neurons_along_rays"
    ].every_reading
}
DEGREES = {"5 deg": {"angle_deg": 5}, "2 deg": {"angle_deg": 2}}  # two readings of 3 rays


def test_bipartite_incidence_has_n2_over_4_edges_and_no_triangle():
    for n in (2, 4, 6, 10):
        e = bipartite_incidence(n)
        assert e.shape == (n * n // 4, n)
        assert (e.sum(axis=1) == 2).all()  # every edge has two endpoints
        adjacency = e.T @ e - np.diag(np.diag(e.T @ e))
        assert theory.triangles(adjacency) == 0
    with pytest.raises(ValueError):
        bipartite_incidence(5)


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


def test_prop19_second_half_is_the_closed_form_and_fails_from_inside_the_arc():
    """L^k at the proof's W^eps minus L^k on the arc is eps^4 - 2 (1 - lambda) eps^2 (statement's
    Y, printed perturbation); the same perturbation of an interior point of the arc, a local
    minimum of L and, through it, of L^k nearby, raises L^k (the row's negative case)."""
    lam = 0.1
    cfg = theory.Prop19Config(lam, 0.7, 1e-3, 10, (1, 1), "sum", endpoint_eps=(1e-2,))
    drop, far = theory.prop19_endpoint(cfg, "statement", "printed")
    assert drop == pytest.approx(1e-8 - 2 * (1 - lam) * 1e-4, rel=1e-9)
    assert far == pytest.approx(1e-4)  # the covariances move by eps^2
    assert theory.prop19_endpoint(cfg, "proof", "printed")[0] == pytest.approx(
        2 * (1 + lam) * 1e-4 + 1e-8, rel=1e-9
    )
    x, y = np.array([1.0, -1.0]), np.array([1.0, -1.0])
    a = np.sqrt(1 - lam) * np.array([np.cos(0.7), np.sin(0.7)])
    base = theory.reformulated_loss(*theory.prop19_covariances(a, a, x), x, y, lam)
    inner = a - [0.0, 1e-2]  # a_2 -> a_2 - eps in both layers: still inside the arc's cone
    moved = theory.reformulated_loss(*theory.prop19_covariances(inner, inner, x), x, y, lam)
    assert moved - base > 1e-6


def test_plateau_onset_definition():
    widths = [1, 2, 3, 4, 5]
    assert plateau_onset(widths, [9.0, 5.0, 1.001, 1.0, 1.0005], rel_tol=0.002) == 3
    assert plateau_onset(widths, [9.0, 5.0, 1.001, 1.0, 1.00005], rel_tol=0.0001) == 4
    assert plateau_onset(widths, [1.0] * 5, rel_tol=0.01) == 1
    assert plateau_onset(widths, [3.0, 1.0, 1.0, 1.0, 2.0], rel_tol=0.01) is None
    with pytest.raises(ValueError):
        plateau_onset([2, 1], [1.0, 1.0], 0.1)


def test_plateau_onset_on_log_scale_is_read_against_the_curves_drop():
    widths = [1, 2, 4, 8, 16]
    # a drop of 5 decades; 2e-4 is 0.3 decade (6% of the drop) above the lowest loss
    losses = [10.0, 1.0, 2e-4, 1e-4, 1.5e-4]
    assert plateau_onset_on_log_scale(widths, losses, 0.1) == 4
    assert plateau_onset_on_log_scale(widths, losses, 0.05) == 8
    # the same shape shifted in scale reads the same
    assert plateau_onset_on_log_scale(widths, [v * 1e3 for v in losses], 0.1) == 4
    assert plateau_onset_on_log_scale(widths, [2.0] * 5, 0.1) == 1
    with pytest.raises(ValueError):
        plateau_onset_on_log_scale([4, 2], [1.0, 1.0], 0.1)


def test_running_best_is_monotone_and_onsets_use_it():
    losses = pd.DataFrame(
        {
            "setting": "oned",
            "N": 3,
            "seed": 0,
            "width": [1, 2, 3, 4],
            "objective": [4.0, 1.0, 3.0, 1.0],
        }
    )
    assert with_running_best(losses, theory.CURVE).best.tolist() == [4.0, 1.0, 1.0, 1.0]
    assert theory.onsets(losses, 0.01).onset.tolist() == [2]


def test_the_seeds_spread_sets_the_onset_tolerance_above_its_floor():
    """Two seeds' lowest losses 1e-4 apart (relative): widths within that of the lowest are on
    the plateau; a floor above the spread (1e-2) is the tolerance instead."""
    losses = pd.DataFrame(
        {
            "setting": "oned",
            "N": 3,
            "seed": [0] * 4 + [1] * 4,
            "width": [1, 2, 3, 4] * 2,
            "objective": [2.0, 1.005, 1.00005, 1.0] + [2.0, 1.005, 1.0001, 1.0001],
        }
    )
    assert theory.onsets(losses, "seeds", floor=1e-6).onset.tolist() == [3, 3]
    assert theory.onsets(losses, "seeds", floor=1e-2).onset.tolist() == [2, 2]


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

    a = teacher_data(20, 10, [5, 4, 4, 3], seed=0)
    b = teacher_data(20, 10, [5, 4, 4, 3], seed=0)
    assert a["x_train"].shape == (20, 5) and a["y_train"].shape == (20, 3)
    np.testing.assert_array_equal(a["y_test"], b["y_test"])


def test_fig2_trains_every_lambda_and_trial_and_picks_the_best():
    from l2relu.jacot2022 import fig2

    data = teacher_data(30, 10, [4, 3, 3, 2], seed=0)
    cfg = fig2.Fig2Config("teacher", 4, (1e-3, 1e-6), 2, 1.0, 50, 1e-2, 10, 0.01, 0, 0)
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


def test_radial_forces_are_the_incoming_and_outgoing_squared_norms():
    """Along a neuron's own row, attraction = 2 ||W_l[k]||^2 and repulsion = -2 ||W_{l+1}[:, k]||^2
    for the minimal-norm weights, so they cancel exactly where every neuron is balanced."""
    import torch

    from l2relu.jacot2022 import forces

    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 40, dtype=torch.float64, generator=g)  # N > width + 1: full row rank
    widths = (3, 6, 5, 2)
    ws = [
        torch.randn(o, i, dtype=torch.float64, generator=g)
        for i, o in zip(widths[:-1], widths[1:], strict=True)
    ]
    bs = [torch.randn(o, dtype=torch.float64, generator=g) for o in widths[1:]]
    zs = forces.representations(ws, bs, x)
    psi = forces.psi(zs, x, 1.0)
    (attraction, repulsion), _ = forces.forces(zs, x, beta=1.0, eps=0.0)
    z = zs[0].numpy()
    unit = z / np.linalg.norm(z, axis=1, keepdims=True)
    active = (z > 0).any(axis=1)
    np.testing.assert_allclose(
        (attraction * unit).sum(1)[active] * np.linalg.norm(z, axis=1)[active],
        2 * (psi[0].numpy() ** 2).sum(1)[active],
        rtol=1e-7,
    )
    np.testing.assert_allclose(
        (repulsion * unit).sum(1)[active] * np.linalg.norm(z, axis=1)[active],
        -2 * (psi[1].numpy()[:, :-1] ** 2).sum(0)[active],
        rtol=1e-7,
    )
    # a random network is not balanced; rescaling each neuron to balance it cancels them
    assert forces.radial_balance(z, attraction, repulsion) > 0.1
    w_in, w_out = psi[0].numpy(), psi[1].numpy()[:, :-1]
    c = np.sqrt(np.linalg.norm(w_out, axis=0) / np.linalg.norm(w_in, axis=1))
    ws2 = [torch.tensor(w_in[:, :-1] * c[:, None]), torch.tensor(w_out / c), ws[2]]
    bs2 = [torch.tensor(w_in[:, -1] * c), torch.tensor(psi[1].numpy()[:, -1]), bs[2]]
    zs2 = forces.representations(ws2, bs2, x)
    (a2, r2), _ = forces.forces(zs2, x, beta=1.0, eps=0.0)
    assert forces.radial_balance(zs2[0].numpy(), a2, r2) < 1e-8


def test_the_projection_keeps_feasible_directions_and_removes_the_others():
    """With aligned neurons Z^sigma_1 loses rank. Scaling a neuron is always feasible and is
    kept; a projected direction no longer moves Z_2 out of the row space to first order
    (W_2 (D * active) (I - P) = 0), which a raw direction does."""
    import torch

    from l2relu.jacot2022 import forces

    g = torch.Generator().manual_seed(4)
    x = torch.randn(3, 12, dtype=torch.float64, generator=g)
    w1 = torch.randn(4, 3, dtype=torch.float64, generator=g)
    b1 = torch.randn(4, dtype=torch.float64, generator=g)
    w1[3], b1[3] = 2 * w1[0], 2 * b1[0]  # neurons 0 and 3 on one ray
    ws = [w1, torch.randn(3, 4, dtype=torch.float64, generator=g)]
    bs = [b1, torch.randn(3, dtype=torch.float64, generator=g)]
    zs = forces.representations(ws, bs, x)
    project = forces.feasible_projection(zs, x, 0, 1.0, 1e-9)
    s = forces.with_bias_row(torch.relu(zs[0]), 1.0)
    outside = torch.eye(12, dtype=torch.float64) - torch.linalg.pinv(s, atol=1e-9) @ s
    w2 = zs[1] @ torch.linalg.pinv(s, atol=1e-9)

    def leaves_row_space(d):
        return float((w2[:, :4] @ (torch.as_tensor(d) * (zs[0] > 0)) @ outside).norm())

    direction = torch.randn(4, 12, dtype=torch.float64, generator=g)
    projected = project(direction)
    np.testing.assert_allclose(project(projected), projected, atol=1e-10)  # idempotent
    assert leaves_row_space(direction) > 0.1 and leaves_row_space(projected) < 1e-10
    scale_one = torch.zeros_like(zs[0])
    scale_one[1] = zs[0][1]
    np.testing.assert_allclose(project(scale_one), scale_one.numpy(), atol=1e-10)


def test_rays_and_clusters_are_found():
    from l2relu.jacot2022 import fig1

    rng = np.random.default_rng(0)
    directions = np.abs(rng.standard_normal((3, 10)))
    rows = np.concatenate([np.outer(rng.uniform(1, 5, 4), d) for d in directions])
    rows = np.concatenate([rows, -np.ones((2, 10))])  # two dead neurons
    rays, ray_of, angle, active = fig1.find_rays(rows, 3)
    assert active.tolist() == [True] * 12 + [False] * 2
    assert np.nanmax(angle) < 1e-6 and len(set(ray_of[:12])) == 3
    assert (ray_of[:4] == ray_of[0]).all() and (ray_of[12:] == -1).all()
    labels = np.repeat([0, 1, 2], 4)
    assert (
        fig1.silhouette(rows[:12] / np.linalg.norm(rows[:12], axis=1, keepdims=True), labels) > 0.99
    )
    assert fig1.silhouette(rng.standard_normal((12, 10)), labels) < 0.2


def _fig1_certificates(falls, stalled=None):
    """The polished rows of Fig. 1's certificates, one seed a fall."""
    n = len(falls)
    return pd.DataFrame(
        {
            "network": "polished",
            "seed": range(n),
            "fall_last_half": falls,
            "stalled": stalled or [False] * n,
            "grad_norm": 1e-6,
        }
    )


def _certified(ms, seeds=4):
    """Fig. 1's measurements with its certificate's row, every seed's polish settled."""
    from l2relu.jacot2022 import ledger

    return ms + ledger.fig1_certificate_claims(_fig1_certificates([0.0] * seeds), 1e-3)[1]


# Prop. 1's local-minimum readings of a network at a minimum (prop1.local_minimum_readings)
PROP1_AT_A_MINIMUM = {
    "z_fall": -1e-7,
    "z_curvature": 0.3,
    "psi_fall": 1e-9,
    "psi_curvature": 0.5,
    "psi_gap": 1e-9,
    "ranks": "17 5",
}


def _fig1_runs(seeds):
    """Fig. 1's runs' table of `seeds` networks, none diverged, each at a minimum."""
    return pd.DataFrame(
        {"seed": range(seeds), "diverged": False, "diverged_step": -1} | PROP1_AT_A_MINIMUM
    )


@controls(
    "jacot2022.fig1.attraction_inward",
    "jacot2022.fig1.classes_pushed_apart",
    "jacot2022.fig1.repulsion_outward",
)
def test_fig1_leaves_a_collapsed_network_out_of_every_row_and_counts_it():
    """A network with a dead first layer computes a constant: analyze marks it collapsed and
    reads no rays on its dead layer; the ledger leaves it out of every Fig. 1 row (its forces'
    ratio read 1 before, failing the radial balance check of networks that had nothing to
    balance) and says so. With every seed collapsed nothing is measured and the rows fail."""

    from l2relu.jacot2022 import fig1, ledger
    from l2relu.jacot2022.forces import DIRECTION_READINGS as DIRECTIONS

    rng = np.random.default_rng(4)
    data = {"x_train": rng.uniform(size=(42, 20)), "y_train": rng.integers(0, 3, 42)}
    widths = (20, 50, 50, 3)
    arrays = {
        f"w{i + 1}": rng.standard_normal((o, n)) / np.sqrt(n)
        for i, (n, o) in enumerate(zip(widths[:-1], widths[1:], strict=True))
    }
    arrays |= {f"b{i + 1}": 0.1 * rng.standard_normal(o) for i, o in enumerate(widths[1:])}
    cfg = fig1.ForcesConfig(eps=1e-6, ray_angle_deg=5)
    alive = fig1.analyze(arrays, data, 3, cfg)["layers"]
    dead = fig1.analyze(arrays | {"b1": -10.0 - 0 * arrays["b1"]}, data, 3, cfg)["layers"]
    assert not alive.collapsed.any() and dead.collapsed.all()
    assert np.isnan(dead.mass_on_ray.iloc[0])  # no active neuron in Z1

    # seeds 0, 2, 3 as measured by a converged run would be; seed 1 collapsed, its ratios at 1
    layers = pd.DataFrame(
        [
            {"seed": s, "layer": layer, "collapsed": s == 1, "active_neurons": 0 if s == 1 else 20}
            | {"silhouette": 0.8, "mass_on_ray": 1.0, "balance": 1.0 if s == 1 else 0.01}
            | {f"mass_on_ray: {r}": 1.0 for r in RAYS}
            | {f"rays: {r}": 3 for r in RAYS}
            | {"balance_radial": 1.0 if s == 1 else 1e-4, "pushed_apart": 0.0 if s == 1 else 1.0}
            | {f"attraction_inward: {r}": 0.0 if s == 1 else 1.0 for r in DIRECTIONS}
            | {f"repulsion_outward: {r}": 0.0 if s == 1 else 1.0 for r in DIRECTIONS}
            for s in range(4)
            for layer in (1, 2)
        ]
    )
    runs = _fig1_runs(4)
    rows = judged(_certified(ledger.fig1_claims(layers, runs, 3, RAYS)))
    rows = rows.set_index("claim_id", drop=False)
    assert rows.loc["jacot2022.fig1.no_collapse", "status"] == "fail"  # 1 of 4: seen
    directions = rows[rows.claim_id.isin([ledger.INWARD, ledger.OUTWARD, ledger.APART])]
    apart_readings = len(
        load_registry([REPO / "workflow/claims/jacot2022.yaml"])[ledger.APART].readings
    )
    assert len(directions) == 2 * (2 * len(DIRECTIONS) + apart_readings)
    assert (directions.status == "pass").all() and (directions.n_excluded == 1).all()
    rows = rows[rows.claim_id.str.contains(r"\.fig1\.(?:inputs|neurons|forces|radial)")]
    assert (rows[~rows.primary].reading.isin(list(RAYS)[1:])).all()  # rays under every reading
    rows = rows[rows.primary]
    assert len(rows) == 8 and (rows.status == "pass").all()
    empirical = rows[rows.kind == "empirical"]
    assert empirical.reproduced_value.str.contains("left out: 1 collapsed").all()
    assert (empirical.n_seeds == 4).all() and (empirical.n_excluded == 1).all()
    assert rows.reproduced_value.str.contains("1 of 4 collapsed, left out").sum() == 2  # radial
    assert rows.reproduced_value.str.contains("active neurons 20, 20, 20;").sum() == 2

    # a live network with a layer of 3 active neurons: that layer's rays are left out, counted
    few = layers.assign(collapsed=False, balance=0.01, balance_radial=1e-4)
    shares = ["mass_on_ray", *(f"mass_on_ray: {r}" for r in RAYS)]
    few.loc[(few.seed == 1) & (few.layer == 2), ["active_neurons", *shares]] = (
        3,
        *[np.nan] * len(shares),
    )
    rows = judged(_certified(ledger.fig1_claims(few, runs, 3, RAYS)))
    rays = rows[(rows.claim_id == "jacot2022.fig1.neurons_along_rays") & rows.primary]
    rays = rays.set_index("claim")
    z2 = rays.loc[rays.index.str.endswith("Z2")].iloc[0]
    assert z2.n_seeds == 4 and z2.n_excluded == 1
    assert "left out: 1 with too few active neurons" in z2.reproduced_value
    assert (rows[rows.claim_id == "jacot2022.fig1.no_collapse"].status == "pass").all()

    every_seed = judged(
        _certified(ledger.fig1_claims(layers.assign(collapsed=True), runs, 3, RAYS))
    )
    # Prop. 1's rows read every local minimizer, a collapsed network's too: they keep it
    prop1_rows = [ledger.PROP1_Z, ledger.PROP1_PSI]
    assert (every_seed[every_seed.claim_id.isin(prop1_rows)].n_excluded == 0).all()
    every_seed = every_seed[
        ~every_seed.claim_id.isin(
            ["jacot2022.fig1.no_divergence", ledger.FIG1_CERTIFIED, *prop1_rows]
        )
    ]
    # every network collapsed: nothing to measure is no verdict, and the collapse check fails
    empirical = every_seed.kind == "empirical"
    assert (every_seed[empirical].status == "inconclusive").all()
    assert (every_seed[~empirical].status == "fail").all()


def test_the_fig1_study_trains_fig1s_networks_in_the_span_of_the_inputs():
    """The study's reduced training gives Fig. 1's training's representations and objective, for
    the raw inputs, and the centred inputs are centred."""
    import torch

    from l2relu.jacot2022 import fig1, fig1_study, forces

    rng = np.random.default_rng(3)
    data = {"x_train": rng.uniform(size=(9, 30)), "y_train": np.repeat([4, 5, 6], 3)}
    cfg = fig1.Fig1Config((4, 5, 6), 6, lam=0.05, lr=0.3, steps=200, seed=2, log_every=0)
    _, full, summary = fig1.train(cfg, data)
    study = fig1_study.StudyConfig(
        (4, 5, 6), 6, lam=0.05, lr=0.3, steps=200, inputs="raw", seeds=(1, 2), log_every=40
    )
    arrays, _, runs, reduced = fig1_study.train(study, data["x_train"].T, data["y_train"])
    assert reduced.shape == (9, 9)  # 9 points span 9 of the 30 dimensions
    x = torch.tensor(data["x_train"].T)
    z_full = forces.representations(
        [torch.tensor(full[f"w{i}"]) for i in (1, 2, 3)],
        [torch.tensor(full[f"b{i}"]) for i in (1, 2, 3)],
        x,
    )
    z_reduced = forces.representations(
        [torch.tensor(arrays[f"w{i}"][1]) for i in (1, 2, 3)],  # seed 2, second in the batch
        [torch.tensor(arrays[f"b{i}"][1]) for i in (1, 2, 3)],
        torch.tensor(reduced),
    )
    for a, b in zip(z_full, z_reduced, strict=True):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=0, atol=1e-10 * a.abs().max())
    assert runs.objective[1] == pytest.approx(summary["objective"], rel=1e-12)
    assert runs.loss[1] == pytest.approx(summary["loss"], rel=1e-12)
    centred = fig1_study.prepared_inputs(data["x_train"].T, "centred")
    np.testing.assert_allclose(centred.mean(axis=1), 0, atol=1e-15)
    with pytest.raises(ValueError, match="unknown inputs"):
        fig1_study.prepared_inputs(data["x_train"].T, "whitened")


def _fig1_study_data():
    rng = np.random.default_rng(3)
    return {"x_train": rng.uniform(size=(9, 30)), "y_train": np.repeat([4, 5, 6], 3)}


def test_the_fig1_study_keeps_its_networks_at_four_fifths_of_the_steps():
    """What the study keeps at four fifths of a schedule (weights and full objective) is what a
    training of four fifths of the steps ends with; a log_every that misses that step, or none,
    is refused."""
    from dataclasses import replace

    from l2relu.jacot2022 import fig1_study

    data = _fig1_study_data()
    cfg = fig1_study.StudyConfig(
        (4, 5, 6), 6, lam=0.05, lr=0.3, steps=200, inputs="raw", seeds=(1, 2), log_every=40
    )
    _, kept, runs, _ = fig1_study.train(cfg, data["x_train"].T, data["y_train"], "cpu")
    shorter, _, shorter_runs, _ = fig1_study.train(
        replace(cfg, steps=160, log_every=32), data["x_train"].T, data["y_train"], "cpu"
    )
    for name, value in shorter.items():
        np.testing.assert_array_equal(kept[name], value)
    np.testing.assert_allclose(runs.objective_four_fifths, shorter_runs.objective, rtol=1e-12)
    assert (runs.objective < runs.objective_four_fifths).all()  # GD still descends here
    for every in (0, 30):
        with pytest.raises(ValueError, match="four fifths"):
            replace(cfg, log_every=every)


def test_the_fig1_studys_four_fifths_read_survives_a_job_killed_after_it(tmp_path, monkeypatch):
    """The networks kept at four fifths of the steps go to the resume directory: a job killed
    after keeping them and resumed ends with the same arrays, kept arrays and records as one
    run straight through."""
    from l2relu.jacot2022 import fig1_study

    data = _fig1_study_data()
    cfg = fig1_study.StudyConfig(
        (4, 5, 6), 6, lam=0.05, lr=0.3, steps=100, inputs="centred", seeds=(0,), log_every=20
    )
    x, y = data["x_train"].T, data["y_train"]
    straight = fig1_study.train(cfg, x, y, "cpu")
    resume = tmp_path / "resume"
    resumed = killed_and_resumed(
        monkeypatch, resume, 80, lambda: fig1_study.train(cfg, x, y, "cpu", keep_dir=resume)
    )
    for a, b in zip(straight[:2], resumed[:2], strict=True):
        assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    pd.testing.assert_frame_equal(resumed[2], straight[2])


def test_the_fig1_study_scores_rays_and_the_neurons_the_relu_never_cuts():
    from l2relu.jacot2022 import fig1_study

    rng = np.random.default_rng(0)
    rays = rng.uniform(0.1, 1, size=(3, 42))  # positive on every input: never cut
    on_rays = rng.uniform(0.5, 2, size=(12, 1)) * rays[np.arange(12) % 3]
    scores = fig1_study.layer_scores(on_rays, n_rays=3, ray_readings=DEGREES)
    assert scores["mass_on_ray: 2 deg"] == pytest.approx(1)
    assert scores["mass_on_ray"] == pytest.approx(1)
    assert scores["mass_on_ray_plane"] == pytest.approx(1)
    assert scores["always_active_neurons"] == scores["active_neurons"] == 12
    assert scores["always_active_mass"] == pytest.approx(1)
    # half the neurons cut on some inputs, half never; dead ones count nowhere
    cut = on_rays.copy()
    cut[:6, :10] *= -1
    dead = np.vstack([cut, -np.ones((4, 42))])
    scores = fig1_study.layer_scores(dead, n_rays=3, ray_readings=DEGREES)
    assert scores["active_neurons"] == 12 and scores["always_active_neurons"] == 6
    assert 0 < scores["always_active_mass"] < 1


def test_the_fig1_study_reads_no_rays_in_a_layer_of_too_few_neurons():
    """Three or fewer active neurons lie on three rays whatever their directions: the share is
    not read (NaN), and the ledger leaves such a seed out and counts it."""
    from l2relu.jacot2022 import fig1_study, ledger

    rng = np.random.default_rng(2)
    few = np.vstack([rng.standard_normal((3, 42)) + 3, -np.ones((47, 42))])
    scores = fig1_study.layer_scores(few, n_rays=3, ray_readings=DEGREES)
    assert scores["active_neurons"] == 3
    assert np.isnan(scores["mass_on_ray"]) and np.isnan(scores["mass_on_ray_plane"])
    assert not np.isnan(fig1_study.layer_scores(few[:1].repeat(4, 0), 3, DEGREES)["mass_on_ray"])
    rows = pd.DataFrame(
        [
            {"inputs": "raw", "lam": 0.01, "lr": 0.5, "steps": 100, "seed": s, "layer": layer}
            | {"collapsed": False, "objective": 1.0, "objective_four_fifths": 1.0}
            | {"mass_on_ray": 1.0, "mass_on_ray_four_fifths": 1.0}
            | {"active_neurons": 3 if s == 0 else 14, "always_active_neurons": 2}
            | {"always_active_mass": 0.5}
            | {f"mass_on_ray: {r}": np.nan if s == 0 else 1.0 for r in RAYS}
            | {f"mass_on_ray_plane: {r}": np.nan if s == 0 else 1.0 for r in RAYS}
            | {f"rays: {r}": np.nan if s == 0 else 3 for r in RAYS}
            for s in range(4)
            for layer in (1, 2)
        ]
    )
    measured = judged(ledger.fig1_study_claims(rows, 3, RAYS), every_entry=False)
    z1 = measured[(measured.claim_id == "jacot2022.fig1study.z1_rays") & measured.primary].iloc[0]
    assert (z1.n_seeds, z1.n_excluded, z1.n_hold, z1.status) == (4, 1, 3, "pass")
    assert "left out: 1 with too few active neurons" in z1.reproduced_value
    from_data = next(r for r, p in RAYS.items() if "max_rays" in p)
    z2 = measured[(measured.claim_id == "jacot2022.fig1study.z2_rays")]
    (found,) = z2[z2.reading == from_data].reproduced_value
    assert "(rays found 3 [3, 3]" in found  # the rays the reading found, in a detail of its own


@controls(
    "jacot2022.fig1study.z1_rays",
    "jacot2022.fig1study.z1_rays_plane",
    "jacot2022.fig1study.z2_rays",
)
def test_the_fig1_studys_settling_checks_fail_on_a_network_still_moving():
    """Per setting: a network whose objective fell 5% over its last fifth, one whose objective
    rose as much, or one whose Z1 share on rays moved by 0.3, fails the check that every other
    network passes; a layer the ray rows leave out is not read, and the row says so."""
    from l2relu.jacot2022 import ledger

    def setting(lam, fell, moved):
        return [
            {"inputs": "centred", "lam": lam, "lr": 0.2, "steps": 100, "seed": s, "layer": layer}
            | {"collapsed": False, "active_neurons": 2 if s == 3 else 12}
            | {"always_active_neurons": 0, "always_active_mass": 0.0}
            | {"objective": 1.0, "objective_four_fifths": 1.0 + {0: fell, 2: -fell}.get(s, 0.0)}
            | {"mass_on_ray": 0.5}
            | {"mass_on_ray_four_fifths": 0.5 + (moved if (s, layer) == (1, 1) else 0.0)}
            | {f"mass_on_ray: {r}": 0.5 for r in RAYS}
            | {f"mass_on_ray_plane: {r}": 0.5 for r in RAYS}
            | {f"rays: {r}": 3 for r in RAYS}
            for s in range(4)
            for layer in (1, 2)
        ]

    rows = pd.DataFrame(setting(0.01, 0.0, 0.0) + setting(0.1, 0.05, 0.3))
    measured = judged(ledger.fig1_study_claims(rows, 3, RAYS), every_entry=False)
    status = measured.status
    for lam, verdict in ((0.01, "pass"), (0.1, "mixed")):  # mixed: some networks settled
        case = f"centred inputs, lambda = {lam:g}, GD step 0.2 x 100"
        assert status[f"jacot2022.fig1study.objective_settled|{case}"] == verdict
        assert status[f"jacot2022.fig1study.rays_settled|{case}, Z1"] == verdict
        assert status[f"jacot2022.fig1study.rays_settled|{case}, Z2"] == "pass"  # Z2 unmoved
    objective = measured[measured.claim_id == "jacot2022.fig1study.objective_settled"]
    assert list(objective.n_hold) == [4, 2]  # the fall and the rise both fail
    moved = measured[measured.claim_id == "jacot2022.fig1study.rays_settled"]
    assert (moved.n_seeds == 3).all()  # the 2-neuron layer is not read
    assert moved.reproduced_value.str.contains("1 network").all()


def test_the_fig1_study_calls_a_constant_network_collapsed():
    """A network whose last layer is zero computes a constant however alive its hidden layers
    are; one with a live path does not."""
    from l2relu.jacot2022 import fig1_study

    rng = np.random.default_rng(3)
    arrays = {
        f"w{i}": rng.standard_normal((2, *shape))
        for i, shape in ((1, (8, 5)), (2, (8, 8)), (3, (3, 8)))
    }
    arrays |= {f"b{i}": np.zeros((2, n)) for i, n in ((1, 8), (2, 8), (3, 3))}
    arrays["w3"][1] = 0  # network 1: the outputs are the bias, on every input
    table = fig1_study.scores(arrays, np.abs(rng.standard_normal((5, 20))), 3, DEGREES)
    assert table.groupby("network").collapsed.first().tolist() == [False, True]


def test_the_fig1_study_rays_entries_share_the_readings_the_study_measures():
    """The study's aggregate measures every rays entry (Z1, Z2, Z1 in the plane) under z1_rays'
    readings: an entry that read the rays otherwise would be judged on another entry's reading."""
    registry = load_registry([REPO / "workflow/claims/jacot2022.yaml"])
    study = [c for c in registry.values() if c.target == "jacot2022_fig1_study"]
    rays = [c for c in study if "_rays" in c.id]
    assert len(rays) == 3
    for claim in rays:
        assert claim.every_reading == registry["jacot2022.fig1study.z1_rays"].every_reading


def test_compression_reads_each_job_on_its_own_data(tmp_path):
    """A job's saved networks, read back through its files, are compressed on the data its seed
    drew (1-D data differ per seed): the merged widest network sits near the lowest objective,
    not orders of magnitude above it as on another seed's data."""
    import numpy as np

    from l2relu.jacot2022 import theory
    from l2relu.training.io import write_table

    cfg = theory.PlateauConfig("oned", 2, 3, (1, 2, 3), 1e-3, 2, 200, 8)
    losses, networks = theory.train_plateau(cfg)
    table, arrays = tmp_path / "losses.csv", tmp_path / "networks.npz"
    write_table(losses.assign(seed=cfg.seed), table)
    with open(arrays, "wb") as f:
        np.savez(f, **networks)
    read = theory.plateau_networks([table], [arrays])
    compressed = theory.compression_table(read, losses.assign(seed=8), 3, 1e-3, [1e-3])
    assert compressed.over_lowest.iloc[0] < 1.5


def _fig1_layers(balance: float, seeds=4):
    """Fig. 1's per-layer table for `seeds` live networks whose every measure passes but the
    forces' residual, `balance`."""
    from l2relu.jacot2022.forces import DIRECTION_READINGS as DIRECTIONS

    return pd.DataFrame(
        [
            {"seed": s, "layer": layer, "collapsed": False, "active_neurons": 20}
            | {"silhouette": 0.8, "mass_on_ray": 1.0, "balance": balance}
            | {f"mass_on_ray: {r}": 1.0 for r in RAYS}
            | {f"rays: {r}": 3 for r in RAYS}
            | {"balance_radial": 1e-4, "pushed_apart": 1.0}
            | {f"attraction_inward: {r}": 1.0 for r in DIRECTIONS}
            | {f"repulsion_outward: {r}": 1.0 for r in DIRECTIONS}
            for s in range(seeds)
            for layer in (1, 2)
        ]
    )


@controls("jacot2022.fig1.forces_cancel")
def test_fig1_reads_the_balance_of_forces_on_certified_polished_networks_only():
    """The forces' balance is stated for minimizers: its row reads the polished networks that
    the certificate passes (a stalled polish is not one), the schedule's beside it; the
    observations of the trained network read the schedule's, every seed."""
    from l2relu.jacot2022 import ledger
    from l2relu.ledger import claims

    registry = load_registry([REPO / "workflow/claims/jacot2022.yaml"])
    registry = {k: c for k, c in registry.items() if c.target == "jacot2022_fig1"}
    runs = _fig1_runs(4)
    # seed 3's polish stalled at a kink: not certified, whatever its fall
    certified, check = ledger.fig1_certificate_claims(
        _fig1_certificates([0.0, 1e-5, 0.0, 0.0], stalled=[False, False, False, True]), 1e-3
    )
    assert certified == [True, True, True, False]
    schedule = ledger.fig1_claims(_fig1_layers(0.3), runs, 3, RAYS) + check
    polished = ledger.fig1_claims(_fig1_layers(0.01), runs, 3, RAYS)
    rows = claims.evaluate_networks(registry, schedule, polished, stationary=certified)
    rows = rows[rows.primary.astype(bool)].set_index("claim_id")
    forces = rows.loc[ledger.FORCES]
    assert set(forces.network) == {"polished"} and set(forces.status) == {"pass"}
    assert set(forces.n_excluded) == {1} and set(forces.other_status) == {"fail"}
    assert set(forces.optimization) == {"optimizer-dependent"}
    clusters = rows.loc[ledger.CLUSTERS]
    assert set(clusters.network) == {"schedule"} and set(clusters.n_excluded) == {0}
    assert set(clusters.optimization) == {"optimizer-independent"}
    assert rows.loc[ledger.FIG1_CERTIFIED, "status"] == "mixed"
    # too few certified seeds: no verdict, not a fail
    _, none = ledger.fig1_certificate_claims(_fig1_certificates([1.0] * 4), 1e-3)
    rows = claims.evaluate_networks(
        registry, schedule[:-1] + none, polished, stationary=[False] * 4
    )
    forces = rows[rows.primary.astype(bool) & (rows.claim_id == ledger.FORCES)]
    assert set(forces.status) == {"inconclusive"} and set(forces.optimization) == {"undecided"}


def test_fig1_polish_keeps_the_trained_layout_and_certifies_both_networks():
    """A briefly trained Fig. 1 network polished: the same arrays, shapes and keys as training
    writes, a lower objective, and the certificate of both networks."""
    from l2relu.jacot2022 import fig1

    rng = np.random.default_rng(0)
    data = {"x_train": rng.uniform(size=(30, 12)), "y_train": np.repeat([7, 8, 9], 10)}
    cfg = fig1.Fig1Config((7, 8, 9), width=8, lam=1e-2, lr=0.5, steps=200, seed=0, log_every=0)
    _, arrays, summary = fig1.train(cfg, data, "cpu", log=lambda _: None)
    polished, certificate = fig1.polish(cfg, data, arrays, 40, "cpu")
    assert polished.keys() == arrays.keys()
    assert all(polished[k].shape == arrays[k].shape for k in arrays)
    both = certificate.set_index("network")
    assert list(both.index) == ["schedule", "polished"]
    assert both.objective["polished"] < both.objective["schedule"]
    assert both.objective["schedule"] == pytest.approx(summary["objective"], rel=1e-9)
    assert both.grad_norm["polished"] < both.grad_norm["schedule"]
