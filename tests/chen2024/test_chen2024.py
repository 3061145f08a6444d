"""chen2024's truncation map and the cones of Lemma 3.4."""

import numpy as np
import pandas as pd
import pytest
from conftest import controls, judged

from l2relu.chen2024 import construction, data, theory
from l2relu.chen2024 import truncation as tr


def cone_points(p, h, theta, count, rng, inner=1.0):
    """Points p + r (cos a h + sin a v), v a random unit vector orthogonal to h, with the
    angle a up to inner * theta / 2 (inner = 1: up to the cone's boundary)."""
    h = h / np.linalg.norm(h)
    v = rng.standard_normal((len(h), count))
    v -= np.outer(h, h @ v)
    v /= np.linalg.norm(v, axis=0)
    a = rng.uniform(0, inner * theta / 2, count)
    r = rng.uniform(0.1, 5.0, count)
    return p[:, None] + r * (np.cos(a) * h[:, None] + np.sin(a) * v)


@pytest.mark.parametrize("n", [2, 3, 5, 10])
def test_the_orthant_aperture_is_the_widest_cone_in_the_orthant(n):
    rng = np.random.default_rng(n)
    u = np.ones(n)
    theta_n = tr.orthant_aperture(n)
    inside = cone_points(np.zeros(n), u, theta_n, 2000, rng)
    assert inside.min() >= -1e-12
    # the boundary ray that leans furthest from e_1 touches the face x_1 = 0, and no further
    unit = u / np.sqrt(n)
    away = unit * unit[0] - np.eye(n)[0]
    away /= np.linalg.norm(away)
    for half_angle, sign in [(theta_n / 2, 0), (1.01 * theta_n / 2, -1)]:
        edge = np.cos(half_angle) * unit + np.sin(half_angle) * away
        assert np.sign(np.round(edge[0], 12)) == sign
    assert tr.orthant_aperture(2) == pytest.approx(np.pi / 2)


@pytest.mark.parametrize(
    ("n", "m", "theta"), [(2, 2, 1.0), (2, 2, 2.5), (3, 3, 2.0), (5, 3, 2.8), (6, 1, 0.6)]
)
def test_lemma_3_4_identity_on_the_forward_cone_base_point_on_the_backward(n, m, theta):
    rng = np.random.default_rng(10 * n + m)
    p, h = rng.standard_normal(n), rng.standard_normal(n)
    w, b = tr.cone_layer(p, h, theta, m)
    projector = np.linalg.pinv(w) @ w
    forward = cone_points(p, h, theta, 500, rng)
    backward = cone_points(p, -h, theta, 500, rng)
    np.testing.assert_allclose(tr.truncation_map(w, b, forward), projector @ forward, atol=1e-9)
    collapsed = tr.truncation_map(w, b, backward)
    np.testing.assert_allclose(collapsed, np.repeat((projector @ p)[:, None], 500, 1), atol=1e-9)
    # the layer itself: sigma(Wx + b) = W tau(x) + b (eq. 20; W is surjective)
    np.testing.assert_allclose(
        tr.relu(w @ forward + b[:, None]),
        w @ tr.truncation_map(w, b, forward) + b[:, None],
        atol=1e-9,
    )
    # eq. (43): tau does not see what W does not see
    kernel = (np.eye(n) - projector) @ rng.standard_normal((n, 500))  # 0 when m = n
    np.testing.assert_allclose(
        tr.truncation_map(w, b, forward + kernel), tr.truncation_map(w, b, forward), atol=1e-9
    )


def test_outside_both_cones_the_map_is_neither():
    """Between the cones some, not all, units are cut: the map is no longer the identity."""
    rng = np.random.default_rng(0)
    p, h = np.zeros(2), np.array([1.0, 0.0])
    w, b = tr.cone_layer(p, h, 1.0)
    side = np.array([[0.0], [1.0]])  # 90 degrees from h: in neither cone of aperture 1 rad
    assert not tr.in_cone(side, p, h, 1.0)[0] and not tr.in_cone(side, p, -h, 1.0)[0]
    out = tr.truncation_map(w, b, side)
    assert not np.allclose(out, side) and not np.allclose(out, 0.0)
    assert tr.in_cone(cone_points(p, h, 1.0, 50, rng), p, h, 1.0).all()


def test_shrink_factor_and_bad_cones():
    assert tr.shrink_factor(0.5, 3) == 1.0
    n, theta = 4, 2.5
    assert tr.shrink_factor(theta, n) == pytest.approx(
        np.tan(tr.orthant_aperture(n) / 2) / np.tan(theta / 2)
    )
    with pytest.raises(ValueError, match="aperture"):
        tr.cone_layer(np.zeros(3), np.ones(3), np.pi)
    with pytest.raises(ValueError, match="width"):
        tr.cone_layer(np.zeros(3), np.ones(3), 1.0, m=4)


def clustered(m=5, q=3, per_class=20, noise=0.02, seed=0):
    """Q tight clusters around scaled, well-spread means (a regular simplex's vertices lifted
    off the origin, so the means are linearly independent)."""
    rng = np.random.default_rng(seed)
    means = 3 * (np.eye(m)[:, :q] + 0.2)
    labels = np.repeat(np.arange(q), per_class)
    return means[:, labels] + noise * rng.standard_normal((m, len(labels))), labels


@pytest.mark.parametrize(("m", "q"), [(3, 3), (5, 3), (8, 4)])
def test_prop_4_1_network_has_zero_cost_in_the_training_engine(m, q):
    x, labels = clustered(m, q)
    y = np.random.default_rng(1).standard_normal((q, q))
    net = construction.clustered_network(x, labels, y)
    assert theory.engine_cost(net, x, labels, y) < 1e-20
    assert net.notes["c0_needed"] < 0.25


def test_each_hidden_layer_collapses_its_class_and_leaves_the_others_alone():
    x, labels = clustered(5, 3)
    net = construction.clustered_network(x, labels, np.eye(3))
    reps = net.representations(x)
    for layer_index, layer in enumerate(net.hidden, 1):
        rep, before = reps[layer_index], reps[layer_index - 1]
        for j in range(3):
            spread = np.ptp(rep[:, labels == j], axis=1).max()
            assert (spread < 1e-9) == (j < layer_index)  # collapsed by now, or not yet
        kept = labels >= layer_index  # classes not collapsed yet: no unit is cut
        linear = layer.weight @ before[:, kept] + layer.bias[:, None]
        np.testing.assert_allclose(rep[:, kept], linear, atol=1e-9)


def test_the_parameter_count_does_not_depend_on_n():
    counts = {
        n: construction.clustered_network(
            *clustered(5, 3, per_class=n), np.eye(3)
        ).parameter_count()
        for n in (5, 50)
    }
    assert counts[5] == counts[50] == 3 * (5 * 5 + 5) + 3 * 5 + 3


def separable_but_not_clustered(seed=0):
    """Three classes in the plane z = 1 (so that means off one line are linearly independent):
    a long vertical band, a horizontal band to its right, and a blob above that one."""
    rng = np.random.default_rng(seed)
    bands = [(-0.2, 0.2, -3.0, 3.0), (1.0, 5.0, -0.2, 0.2), (2.5, 3.5, 1.5, 2.5)]
    x, labels = [], []
    for j, (x0, x1, y0, y1) in enumerate(bands):
        pts = np.vstack([rng.uniform(x0, x1, 40), rng.uniform(y0, y1, 40), np.ones(40)])
        x.append(pts)
        labels += [j] * 40
    return np.hstack(x), np.array(labels)


def test_thm_5_2_network_on_sequentially_separable_data():
    x, labels = separable_but_not_clustered()
    with pytest.raises(construction.AssumptionError, match=r"\(55\)"):
        construction.clustered_network(x, labels, np.eye(3))
    plans = construction.valid_orderings(x, labels, 3)
    # the horizontal band, with the other two on either side, can never be singled out first
    assert plans and all(order[0] != 1 for order in plans)
    net = construction.separable_network(x, labels, np.eye(3))
    assert theory.engine_cost(net, x, labels, np.eye(3)) < 1e-16
    with pytest.raises(construction.AssumptionError, match="Def. 5.1"):
        construction.separable_network(x, labels, np.eye(3), order=(1, 0, 2))


@pytest.mark.parametrize(
    ("make", "condition"),
    [
        (lambda: clustered(noise=0.8), r"\(55\)"),
        (lambda: (np.random.default_rng(0).standard_normal((2, 9)), np.arange(9) % 3), "Q <= M"),
        (
            lambda: (
                np.repeat(np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), 5, 1),
                np.tile(np.arange(3), 5),
            ),
            "Q <= M",
        ),
    ],
)
def test_violated_assumptions_are_named(make, condition):
    x, labels = make()
    with pytest.raises(construction.AssumptionError, match=condition):
        construction.clustered_network(x, labels, np.eye(3))


def test_linearly_dependent_means_are_refused():
    x, labels = clustered(5, 3)
    flat = x.copy()
    flat[:, labels == 2] = (x[:, labels == 0] + x[:, labels == 1]) / 2  # mean 2 = (mean 0 + 1)/2
    with pytest.raises(construction.AssumptionError, match="means"):
        construction.clustered_network(flat, labels, np.eye(3))


@pytest.mark.parametrize(("m", "q"), [(5, 3), (8, 4)])
def test_cor_4_2_narrow_network_interpolates_with_q_m_plus_q2_weights(m, q):
    for per_class in (5, 40):
        x, labels = clustered(m, q, per_class=per_class)
        net = construction.clustered_network(x, labels, np.eye(q), widths=(q,) * q)
        assert theory.engine_cost(net, x, labels, np.eye(q)) < 1e-20
        weights = sum(w.size for w in net.weights)
        assert weights == q * (m + q**2)  # Cor. 4.2's count is the weights'
        assert net.parameter_count() == weights + q * q + q  # plus Q biases a layer


def test_eq_61_read_literally_is_not_a_product_once_a_layer_narrows():
    """W^(2) = I(M, Q) W_theta R_2 has rows outside the row space of W^(1) = I(M, Q) W_theta R_1,
    so no W_2 gives W^(2) = W_2 W^(1) (eq. 21)."""
    x, labels = clustered(5, 3)
    means = construction.class_means(x, labels, 3)
    f = means.mean(axis=1)[:, None] - means
    w1, _ = tr.cone_layer(means[:, 0], f[:, 0], 2.0, 3)
    w2, _ = tr.cone_layer(means[:, 1], f[:, 1], 2.0, 3)
    with pytest.raises(construction.AssumptionError, match=r"\(21\)"):
        construction._after(w2, w1, 2)


@pytest.mark.parametrize("m", [3, 4, 6])
def test_a_narrowing_layer_acts_as_lemma_3_4_and_keeps_the_chosen_subspace(m):
    n = 8
    rng = np.random.default_rng(m)
    keep = np.linalg.qr(rng.standard_normal((n, m)))[0]
    h = keep @ rng.standard_normal(m)
    p, theta = rng.standard_normal(n), 2.4
    w, b = tr.narrowing_cone_layer(p, h, theta, keep)
    assert w.shape == (m, n) and np.linalg.matrix_rank(w) == m
    np.testing.assert_allclose(keep @ (keep.T @ w.T), w.T, atol=1e-12)  # rows in span(keep)
    assert (w @ (cone_points(p, h, theta, 500, rng) - p[:, None]) >= -1e-9).all()
    assert (w @ (cone_points(p, -h, theta, 500, rng) - p[:, None]) <= 1e-9).all()
    with pytest.raises(ValueError, match="kept subspace"):
        tr.narrowing_cone_layer(p, np.ones(n), theta, keep)


def test_clustered_data_meet_prop_4_1_and_are_reproducible():
    x, labels = data.clustered(6, 4, 30, spread=0.1, seed=3)
    again, _ = data.clustered(6, 4, 30, spread=0.1, seed=3)
    np.testing.assert_array_equal(x, again)
    assert x.shape == (6, 120) and np.bincount(labels).tolist() == [30] * 4
    net = construction.clustered_network(x, labels, np.eye(4))
    assert net.notes["c0_needed"] < 0.25
    with pytest.raises(ValueError, match="M >= Q"):
        data.clustered(2, 3, 5, 0.1, 0)


@controls("chen2024.fig2.backward_cone_to_base", "chen2024.fig2.between_cones_onto_edges")
def test_fig2_grid_shows_lemma_3_4_and_its_rows_catch_a_wrong_map():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig2Config, fig2_grid

    grid, layer = fig2_grid(Fig2Config((0.5, 0.3), 30.0, 120.0, 2.0, 21))
    assert set(grid.region) == {"forward", "backward", "neither"}
    args = (layer["p"], layer["h"], layer["theta"])
    assert (judged(ledger.fig2_claims(grid, *args), False).status == "pass").all()
    identity = grid.assign(tau1=grid.x1, tau2=grid.x2)  # a map that truncates nothing
    assert (judged(ledger.fig2_claims(identity, *args), False).status == "fail").sum() == 2


def _any_dimension_statuses():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.lemmas import AnyDimensionConfig

    rows = judged(ledger.any_dimension_claims(AnyDimensionConfig((2, 3, 6), 50, 1)), False)
    return rows.set_index("claim_id").status.to_dict()


@controls(
    "chen2024.fig2.kernel_invariance",
    "chen2024.fig2.lemma33_projectors",
    "chen2024.fig2.lemma34_any_dimension",
    "chen2024.fig2.orthant_aperture",
    "chen2024.fig2.remark35_polar",
)
def test_section_3_lemmas_hold_in_any_dimension_and_their_rows_catch_planted_errors(monkeypatch):
    """The five rows pass on the paper's constructions; each fails on a planted error: a layer
    that does not shrink the cone into
    the orthant (3.4), another shrink than eq. (37)'s (Remark 3.5), a P that moves points outside
    ker W (43), a wrong theta_n (36); and Lemma 3.3's, which holds for any chain of matrices (the
    row space of W^(l) lies in that of W^(l-1)), fails only on a wrong computation: a transpose
    for the pseudo-inverse."""
    from l2relu.chen2024 import lemmas

    assert set(_any_dimension_statuses().values()) == {"pass"}

    def unshrunk(p, h, theta, m=None):
        w = tr.rotation_onto(h, np.ones(len(p)) / np.sqrt(len(p)))[: m or len(p)]
        return w, -w @ p

    planted = [
        ("pseudo_inverse", np.transpose, "chen2024.fig2.lemma33_projectors"),
        ("cone_layer", unshrunk, "chen2024.fig2.lemma34_any_dimension"),
        (
            "into_kernel",
            lambda keep, rng: rng.standard_normal(keep.shape),
            "chen2024.fig2.kernel_invariance",
        ),
        ("shrink_factor", lambda theta, n: 0.5, "chen2024.fig2.remark35_polar"),
    ]
    for name, wrong, claim in planted:
        with monkeypatch.context() as m:
            m.setattr(lemmas, name, wrong)
            statuses = _any_dimension_statuses()
        assert statuses[claim] == "fail", name
    with monkeypatch.context() as m:
        from l2relu.chen2024 import ledger

        m.setattr(ledger, "orthant_aperture", lambda n: 1.01 * tr.orthant_aperture(n))
        assert _any_dimension_statuses()["chen2024.fig2.orthant_aperture"] == "fail"
        m.setattr(ledger, "orthant_aperture", lambda n: 0.99 * tr.orthant_aperture(n))
        assert _any_dimension_statuses()["chen2024.fig2.orthant_aperture"] == "fail"


def test_fig1_tables_collapse_the_first_class_only():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig1Config, fig1_tables

    points, geometry, notes = fig1_tables(Fig1Config(per_class=10, spread=0.1, seed=1))
    assert (judged(ledger.fig1_claims(points, notes)).status == "pass").all()
    assert points[points.label == 0].to_base.max() < 1e-12
    assert points[points.label > 0].to_base.min() > 1.0  # the other clusters stay far from p
    edges = geometry.set_index("name").loc[["edge_a", "edge_b"]].to_numpy()
    assert np.allclose(np.linalg.norm(edges, axis=1), 1.0)


def test_fig3_tables_try_every_ordering_and_build_the_first_valid_one():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig3Config, fig3_tables

    boxes = ((-0.2, 0.2, -3.0, 3.0), (1.0, 5.0, -0.2, 0.2), (2.5, 3.5, 1.5, 2.5))
    points, steps, orderings, centers, notes = fig3_tables(Fig3Config(boxes, 30, 0))
    assert len(orderings) == 6 and orderings.valid.any() and not orderings.valid.all()
    assert notes["clustered_condition"] == "(55)"
    assert len(steps) == 3 and notes["cost"] < 1e-16
    assert np.allclose(
        points[["x", "y"]].groupby(points.label).mean(), centers[["mean_x", "mean_y"]]
    )
    rows = judged(ledger.fig3_claims(orderings, notes))
    # several orderings work here, so the paper's "only possible one" fails for these boxes
    assert rows.status.tolist() == ["fail" if orderings.valid.sum() > 1 else "pass", "pass", "pass"]


@controls("chen2024.theory.cor42_built_every_n")
def test_theory_counts_fail_when_a_network_is_missing_or_a_count_moves_with_n():
    from l2relu.chen2024 import ledger

    def table(weights, built=(True, True)):
        rows = []
        for n, w, b in zip((15, 150), weights, built, strict=True):
            rows.append(
                {
                    "construction": "cor4.2",
                    "M": 3,
                    "Q": 3,
                    "N": n,
                    "built": b,
                    "cost": 0.0,
                    "weights": w,
                    "parameters": w + 12,
                    "description_numbers": np.nan,
                }
            )
        return pd.DataFrame(rows)

    def count_row(networks):
        rows = judged(ledger.theory_claims(networks), every_entry=False)
        return rows.status[rows.claim_id == "chen2024.theory.cor42_weight_count"].item()

    assert count_row(table((36, 36))) == "pass"
    assert count_row(table((36, 37))) == "fail"
    assert count_row(table((36, np.nan), built=(True, False))) == "fail"
