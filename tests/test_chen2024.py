"""chen2024's truncation map and the cones of Lemma 3.4."""

import numpy as np
import pytest

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
