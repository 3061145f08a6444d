"""The truncation map tau_{W,b}(x) = W^+ (sigma(Wx + b) - b) and the cone construction of
Lemma 3.4 (chen2024, Section 3): a layer (W, b) that is the identity on a forward cone
p + C_theta[h] and collapses the backward cone p + C_theta[-h] onto its base point p.

Data are columns: X is (n, N). Angles are full apertures: C_theta[h] holds the x with
angle(x, h) <= theta / 2, as in eq. (35).
"""

import numpy as np


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
    u = np.ones(n) / np.sqrt(n)
    lam = shrink_factor(theta, n)
    w_theta = lam * np.eye(n) + (1.0 - lam) * np.outer(u, u)
    w = (w_theta @ rotation_onto(h, u))[:m]
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
