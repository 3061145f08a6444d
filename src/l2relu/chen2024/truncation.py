"""The truncation map tau_{W,b}(x) = W^+ (sigma(Wx + b) - b) and the cone construction of
Lemma 3.4 (chen2024, Section 3): a layer (W, b) that is the identity on a forward cone
p + C_theta[h] and collapses the backward cone p + C_theta[-h] onto its base point p.

Data are columns: X is (n, N). Angles are full apertures: C_theta[h] holds the x with
angle(x, h) <= theta / 2, as in eq. (35).
"""

from itertools import pairwise

import numpy as np

from l2relu.training.seeding import rng_for


def relu(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0.0)


def orthant_aperture(n: int) -> float:
    """theta_n of eq. (36): the widest cone around the diagonal u_n inside the positive orthant."""
    return 2.0 * np.arccos(np.sqrt((n - 1) / n))


def shrink_factor(theta: float, n: int) -> float:
    """lambda(theta, theta_n) of eq. (37): how much the directions perpendicular to u_n must
    shrink for a cone of aperture theta around u_n to fit in the positive orthant."""
    theta_n = orthant_aperture(n)
    if theta <= theta_n:
        return 1.0
    return float(np.tan(theta_n / 2) / np.tan(theta / 2))


def shrink_matrix(theta: float, n: int) -> np.ndarray:
    """W_theta of eq. (40): lambda 1 + (1 - lambda) u u^T, u = u_n / |u_n|, lambda of eq. (37)."""
    u = np.ones(n) / np.sqrt(n)
    lam = shrink_factor(theta, n)
    return lam * np.eye(n) + (1.0 - lam) * np.outer(u, u)


def angle_to(x: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Angle (radians) between each column of x and the vector h."""
    cos = (h @ x) / (np.linalg.norm(h) * np.linalg.norm(x, axis=0))
    return np.arccos(np.clip(cos, -1.0, 1.0))


def in_cone(x: np.ndarray, p: np.ndarray, h: np.ndarray, theta: float, tol=1e-12) -> np.ndarray:
    """Which columns of x lie in the cone p + C_theta[h] (the base point p itself counts)."""
    d = x - p[:, None]
    at_base = np.linalg.norm(d, axis=0) <= tol
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = angle_to(d, h) <= theta / 2 + tol
    return at_base | inside


def rotation_onto(h: np.ndarray, target: np.ndarray) -> np.ndarray:
    """An orthogonal R with R h / |h| = target / |target| (a Householder reflection, or the
    identity when they already agree); eq. (41) asks only for R in O(n)."""
    h, target = h / np.linalg.norm(h), target / np.linalg.norm(target)
    v = h - target
    if np.linalg.norm(v) < 1e-15:
        return np.eye(len(h))
    return np.eye(len(h)) - 2.0 * np.outer(v, v) / (v @ v)


def cone_layer(p: np.ndarray, h: np.ndarray, theta: float, m: int | None = None):
    """Lemma 3.4: W = I(n, m) W_theta R and b = -W p, for the cone p + C_theta[h] in R^n.

    W_theta = R~ diag(1, lambda, ..., lambda) R~^T with R~ e_1 = u_n / |u_n| fixes the diagonal
    and shrinks its orthogonal complement by lambda, i.e. W_theta = lambda 1 + (1 - lambda) u u^T
    with u = u_n / |u_n|; R turns h onto u; I(n, m) keeps the first m coordinates (eq. 38).
    """
    n = len(p)
    m = n if m is None else m
    if not 1 <= m <= n:
        raise ValueError(f"the layer's width m = {m} must lie in 1..{n}")
    if not 0 < theta < np.pi:
        raise ValueError(f"the cone's aperture theta = {theta} must lie in (0, pi)")
    w = (shrink_matrix(theta, n) @ rotation_onto(h, np.ones(n) / np.sqrt(n)))[:m]
    return w, -w @ p


def truncation_map(w: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """tau_{W,b}(X) = W^+ (sigma(W X + B) - B), eq. (19): a layer's action seen in its input
    space."""
    return np.linalg.pinv(w) @ (relu(w @ x + b[:, None]) - b[:, None])


def narrowing_cone_layer(p: np.ndarray, h: np.ndarray, theta: float, keep: np.ndarray):
    """A layer of width m < n with Lemma 3.4's action on the cone p + C_theta[h] whose rows span
    a chosen m-dimensional subspace: `keep` (n, m), orthonormal columns whose span holds h.

    Lemma 3.4's rows are vectors at a fixed angle beta from the axis, spread evenly around it;
    any row at angle <= pi/2 - theta/2 from h is >= 0 on the whole forward cone and <= 0 on the
    backward one. Here the m rows are cos(beta) h + sin(beta) v_i, beta = pi/2 - theta/2 (the
    angle Lemma 3.4's W_theta R reaches for theta >= theta_n), with v_i the vertices of a
    regular simplex in span(keep) orthogonal to h: independent rows, all in span(keep)."""
    n, m = keep.shape
    h = h / np.linalg.norm(h)
    if not np.allclose(keep @ (keep.T @ h), h, atol=1e-9):
        raise ValueError("the cone's axis must lie in the kept subspace")
    if not 0 < theta < np.pi:
        raise ValueError(f"the cone's aperture theta = {theta} must lie in (0, pi)")
    if m == 1:
        w = h[None, :]
    else:
        across = keep - np.outer(h, h @ keep)  # span(keep) within h's orthogonal complement
        u, sing, _ = np.linalg.svd(across, full_matrices=False)
        plane = u[:, : m - 1]  # (n, m - 1)
        centered = np.eye(m) - 1.0 / m  # simplex vertices: the centered basis of R^m ...
        coords = np.linalg.svd(centered)[0][:, : m - 1]  # ... in an orthonormal basis of 1^perp
        vertices = coords / np.linalg.norm(coords, axis=1, keepdims=True)  # (m, m - 1)
        beta = np.pi / 2 - theta / 2
        w = np.cos(beta) * h[None, :] + np.sin(beta) * vertices @ plane.T
    return w, -w @ p


def prop32_gap(layers, x: np.ndarray) -> float:
    """The largest gap, relative to the largest entry of X^(l), between the forward pass (eq. 5)
    of the network `layers` [(W_l, b_l)] on x and Prop. 3.2's eq. (20) per hidden layer, eq.
    (23) per hidden layer and eq. (24) at the output (cumulative parameters, eqs. 21-22, 25)."""
    m = x.shape[0]
    w_cum, b_cum, h, tau, worst = np.eye(m), np.zeros(m), x, x, 0.0
    for index, (w, b) in enumerate(layers):
        last = index == len(layers) - 1
        pre = w @ h + b[:, None]
        nxt = pre if last else relu(pre)
        w_cum, b_cum = w @ w_cum, w @ b_cum + b
        gaps = [] if last else [w @ truncation_map(w, b, h) + b[:, None]]  # (20)
        if not last:
            tau = truncation_map(w_cum, b_cum, tau)  # (25)
        gaps.append(w_cum @ tau + b_cum[:, None])  # (23), or (24) at the output
        scale = max(1.0, np.abs(nxt).max())
        worst = max(worst, *(float(np.abs(g - nxt).max()) / scale for g in gaps))
        h = nxt
    return worst


def prop32_error(networks: int, seed: int, n_points: int = 40) -> float:
    """prop32_gap's largest value over random networks with biases, full-rank Gaussian weights
    and non-increasing widths (d_0 = 6 down to d_L = 2, L = 4), as Prop. 3.2 assumes."""
    worst = 0.0
    for t in range(networks):
        rng = rng_for("chen2024", "prop32", seed, t)
        widths = [6, *sorted(rng.integers(2, 7, 3), reverse=True), 2]
        x = rng.normal(size=(6, n_points))
        layers = [(rng.normal(size=(n, m)), rng.normal(size=n)) for m, n in pairwise(widths)]
        worst = max(worst, prop32_gap(layers, x))
    return worst
