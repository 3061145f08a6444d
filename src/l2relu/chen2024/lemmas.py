"""chen2024's Section 3 in any dimension, on random constructions beyond the plane Fig. 2 draws:
Lemma 3.3's projectors (30)-(31), Lemma 3.4's truncation map (42) with a narrowing layer and its
invariance (43), Remark 3.5's polar decomposition (53) and the orthant aperture theta_n (36);
and, on the same draws, eq. (72)'s ball in a cone and Remark 2.1's forms of the cost C_N.
Each check returns the largest error it finds; a seeded generator draws every case."""

from dataclasses import dataclass

import numpy as np

from l2relu.chen2024.truncation import cone_layer, orthant_aperture, shrink_factor, truncation_map
from l2relu.training import measures


@dataclass(frozen=True)
class AnyDimensionConfig:
    dims: tuple[int, ...]  # input dimensions n
    points: int  # random points per cone, dimension and layer
    seed: int


def _unit(rng, n: int) -> np.ndarray:
    v = rng.standard_normal(n)
    return v / np.linalg.norm(v)


def points_in_cone(rng, p, h, theta: float, k: int) -> np.ndarray:
    """k random points of p + C_theta[h] (columns): at an angle from h uniform in [0, theta/2],
    at a distance from p uniform in [0, 3]."""
    n = len(p)
    across = rng.standard_normal((n, k))
    across -= np.outer(h, h @ across)
    across /= np.linalg.norm(across, axis=0)
    angle, radius = rng.uniform(0, theta / 2, k), rng.uniform(0, 3, k)
    return p[:, None] + radius * (np.cos(angle) * h[:, None] + np.sin(angle) * across)


def _layers(cfg: AnyDimensionConfig, rng):
    """Lemma 3.4's layers: per n, an aperture below and one above theta_n (W_theta the identity
    and a shrink), each at full width and narrowed to m = n - 1 and m = 1."""
    for n in cfg.dims:
        for theta in (0.5 * orthant_aperture(n), 0.5 * (orthant_aperture(n) + np.pi)):
            p, h = rng.uniform(-1, 1, n), _unit(rng, n)
            for m in dict.fromkeys((n, n - 1, 1)):  # (n = 2: 2 and 1)
                w, b = cone_layer(p, h, theta, m)
                yield p, h, theta, w, b


def lemma34_error(cfg: AnyDimensionConfig) -> float:
    """(42): the largest |tau(x) - W^+ W x| over random points of the forward cone and
    |tau(x) - W^+ W p| over the backward cone, over every layer of _layers."""
    rng, worst = np.random.default_rng(cfg.seed), 0.0
    for p, h, theta, w, b in _layers(cfg, rng):
        keep = np.linalg.pinv(w) @ w
        ahead = points_in_cone(rng, p, h, theta, cfg.points)
        behind = points_in_cone(rng, p, -h, theta, cfg.points)
        worst = max(
            worst,
            np.linalg.norm(truncation_map(w, b, ahead) - keep @ ahead, axis=0).max(),
            np.linalg.norm(truncation_map(w, b, behind) - (keep @ p)[:, None], axis=0).max(),
        )
    return float(worst)


def into_kernel(keep: np.ndarray, rng) -> np.ndarray:
    """A random map into ker W, (1 - W^+ W) A, from keep = W^+ W."""
    n = len(keep)
    return (np.eye(n) - keep) @ rng.standard_normal((n, n))


def kernel_invariance_error(cfg: AnyDimensionConfig) -> float:
    """(43): the largest |tau(Px) - tau(x)| over random x, for P = W^+ W + (a random map into
    ker W), so that W P = W, over every layer of _layers."""
    rng, worst = np.random.default_rng(cfg.seed + 1), 0.0
    for p, _, _, w, b in _layers(cfg, rng):
        n = len(p)
        keep = np.linalg.pinv(w) @ w
        proj = keep + into_kernel(keep, rng)
        x = p[:, None] + 3 * rng.standard_normal((n, cfg.points))
        moved = truncation_map(w, b, proj @ x) - truncation_map(w, b, x)
        worst = max(worst, np.linalg.norm(moved, axis=0).max())
    return float(worst)


def polar_error(cfg: AnyDimensionConfig) -> float:
    """(53): the largest entry of W W^T - W_theta^2 over the full-width layers of _layers, with
    W_theta = lambda 1 + (1 - lambda) u u^T rebuilt from (37) and u = u_n / |u_n|."""
    rng, worst = np.random.default_rng(cfg.seed + 2), 0.0
    for p, _, theta, w, _ in _layers(cfg, rng):
        n = len(p)
        if w.shape[0] != n:
            continue
        lam, u = shrink_factor(theta, n), np.ones(n) / np.sqrt(n)
        w_theta = lam * np.eye(n) + (1 - lam) * np.outer(u, u)
        worst = max(worst, np.abs(w @ w.T - w_theta @ w_theta).max())
    return float(worst)


def orthant_touch(n: int, theta: float) -> float:
    """The smallest coordinate of a unit direction on the boundary of C_theta[u_n]: at angle
    theta/2 from u = u_n / |u_n|, the direction leaning furthest from coordinate i is
    cos(theta/2) u - sin(theta/2) (e_i - u_i u) / |e_i - u_i u| (any i, by symmetry)."""
    u = np.ones(n) / np.sqrt(n)
    away = np.eye(n)[0] - u[0] * u
    d = np.cos(theta / 2) * u - np.sin(theta / 2) * away / np.linalg.norm(away)
    return float(d.min())


def surjective(rng, d_out: int, d_in: int) -> np.ndarray:
    """A random (d_out, d_in) matrix, d_out <= d_in: of full row rank with probability 1."""
    return rng.standard_normal((d_out, d_in))


pseudo_inverse = np.linalg.pinv  # a name of its own, so that a test can plant a wrong one


def lemma33_error(cfg: AnyDimensionConfig) -> float:
    """(30)-(31) for chains of random surjective W_l of non-increasing widths n >= ... >= 1 (a
    chain per n): the largest entry of P^(l) - (W^(l))^+ W^(l), P^(l) built by (29), and of
    W^(l) P^(l-1) - W^(l)."""
    rng, worst = np.random.default_rng(cfg.seed + 3), 0.0
    for n in cfg.dims:
        widths = sorted(set(np.linspace(n, 1, 4).round().astype(int)) | {n}, reverse=True)
        cumulative, projector = np.eye(n), np.eye(n)
        for d_in, d_out in zip(widths, widths[1:], strict=False):
            cumulative = surjective(rng, d_out, d_in) @ cumulative
            own = pseudo_inverse(cumulative) @ cumulative
            worst = max(worst, np.abs(cumulative @ projector - cumulative).max())
            projector = own @ projector  # (29)
            worst = max(worst, np.abs(projector - own).max())
    return float(worst)


def eq72_angle(cfg: AnyDimensionConfig, delta: float = 1.0, apex: float = 2.0) -> float:
    """(72): B_delta(0) lies in -apex delta f + C_{pi/2}[f]. The largest angle between x + apex
    delta f and f over points x of the ball (inside and on its sphere) and unit f, in each of
    cfg's dimensions; inside the cone means at most pi/4, half its aperture (the paper's
    apex is 2, where the largest angle is arcsin(1/2) = pi/6)."""
    rng, worst = np.random.default_rng(cfg.seed + 4), 0.0
    for n in cfg.dims:
        for _ in range(cfg.points):
            f, x = _unit(rng, n), _unit(rng, n) * delta * rng.uniform() ** (1 / n)
            rim = _unit(rng, n) * delta  # a point of the sphere, where the angle is largest
            for point in (x, rim):
                worst = max(worst, float(measures.angle(point + apex * delta * f, f)))
    return worst


# Remark 2.1's three forms of the class-averaged cost C_N, each against its definition (16).
REMARK21_FORMS = ("decomposition", "weighted_norm_squared", "weighted_norm_as_printed")


def remark21_errors(cfg: AnyDimensionConfig) -> dict:
    """Remark 2.1 on random outputs X^(L) and targets y_j (Q = n classes of 2-6 points, outputs
    in R^n, per configured dimension n): the largest relative distance of each form of C_N from
    its definition sum_j (1/N_j) sum_i |x_ji - y_j|^2: the within-class variances plus the
    squared distances of the class means (the remark's last line), ||X - Y||^2 in the inner
    product Tr(A N^-1 B^T), N = diag(N_j 1) (1 the identity), and that norm unsquared, as (16)
    prints it."""
    rng, worst = np.random.default_rng(cfg.seed + 5), dict.fromkeys(REMARK21_FORMS, 0.0)
    for n in cfg.dims:
        sizes = rng.integers(2, 7, size=n)
        labels = np.repeat(np.arange(n), sizes)
        x, y = rng.standard_normal((n, len(labels))), rng.standard_normal((n, n))
        diff = x - y[:, labels]
        c_n = sum((diff[:, labels == j] ** 2).sum() / m for j, m in enumerate(sizes))
        means = np.stack([x[:, labels == j].mean(axis=1) for j in range(n)], axis=1)
        within = sum(
            ((x[:, labels == j] - means[:, [j]]) ** 2).sum() / m for j, m in enumerate(sizes)
        )
        weighted = np.trace(diff @ np.diag(1 / sizes[labels].astype(float)) @ diff.T)
        forms = {
            "decomposition": within + ((means - y) ** 2).sum(),
            "weighted_norm_squared": weighted,
            "weighted_norm_as_printed": np.sqrt(weighted),
        }
        for name, value in forms.items():
            worst[name] = max(worst[name], abs(value - c_n) / c_n)
    return worst
