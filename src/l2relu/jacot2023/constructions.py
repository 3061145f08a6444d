"""jacot2023's constructions, built and measured on finite instances: Claim 1 (rank under
bijections), App. A's Example 1 (Prop. 1's strict case), Cor. 1's neuron doubling, App. D.1's
formula for the rank of kernel ridge regression's Jacobian, Sec. 5's rank-1 classifiers (no
three classes meet), Prop. 5's rank-k network (||W||^2 = kL + C), the true rank of App. F's
Fig. 1 task, Sec. 4's comparison of Prop. 2's rank-1 interpolator with Prop. 5's network, and
Prop. 1's rank properties and Thm. 1's bounds and properties, Sec. 2's reduction of a homogeneous
sigma to sigma_a and Sec. 3's R_inf(psi o A o phi) = Rank A at several slopes a. One table, a
row per (check, reading, case): the value its registry entry reads."""

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd

from l2relu.jacot2023 import interpolation, krr, rank
from l2relu.training.measures import numerical_rank
from l2relu.training.seeding import rng_for


@dataclass(frozen=True)
class ConstructionsConfig:
    trials: int  # random instances per check
    points: int  # points per instance at which maps and Jacobians are read
    leaky_slopes: tuple[float, ...]  # the a of sigma_a tried by Cor. 1 (any a in (-1, 1))
    grid_size: int  # points per side of the grid on which Sec. 5's g is read (its range)


def leaky(x, a: float):
    return np.where(x >= 0, x, a * x)


def random_layers(widths, rng) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        (rng.normal(size=(n, m)) * np.sqrt(2.0 / m), rng.normal(size=(n, 1)) * 0.1)
        for m, n in pairwise(widths)
    ]


def forward_with(layers, x: np.ndarray, act) -> np.ndarray:
    """x: (d_in, n) columns; the nonlinearity `act` after every layer but the last."""
    for i, (w, b) in enumerate(layers):
        x = w @ x + b
        if i < len(layers) - 1:
            x = act(x)
    return x


def forward(layers, x: np.ndarray, a: float = 0.0) -> np.ndarray:
    """forward_with sigma_a."""
    return forward_with(layers, x, lambda z: leaky(z, a))


def _bijection_matrices(d: int, rng):
    """M, c, B of x -> B sigma_a(Mx + c): M and B invertible (orthogonal times 0.5-2)."""
    m, b = (np.linalg.qr(rng.normal(size=(d, d)))[0] * rng.uniform(0.5, 2, d) for _ in "mb")
    return m, rng.normal(size=(d, 1)), b


def _bijection_map(parts, x, a: float):
    m, c, b = parts
    return b @ leaky(m @ x + c, a)


def _bijection_jacobians(parts, x, a: float):
    """The map's Jacobians at columns x, (n, d, d)."""
    m, c, b = parts
    slopes = np.where(m @ x + c >= 0, 1.0, a).T  # (n, d)
    return np.einsum("ij,nj,jk->nik", b, slopes, m)


def _bijection(d: int, rng, a: float):
    """x -> B sigma_a(M x + c), M and B invertible, a in (0, 1): a piecewise linear bijection of
    R^d. Returns the map and its Jacobians at columns x, (n, d, d)."""
    parts = _bijection_matrices(d, rng)
    return lambda x: _bijection_map(parts, x, a), lambda x: _bijection_jacobians(parts, x, a)


def claim1(cfg: ConstructionsConfig, a: float = 0.5) -> float:
    """Largest |Rank J(psi o f o phi)(x) - Rank A| over instances (f(x) = A x + b, Rank A 1-3,
    phi and psi bijections) and points."""
    worst = 0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "claim1", t)
        d_in, d_out, rank = 4, 5, 1 + t % 3
        phi, j_phi = _bijection(d_in, rng, a)
        psi, j_psi = _bijection(d_out, rng, a)
        m = rng.normal(size=(d_out, rank)) @ rng.normal(size=(rank, d_in))
        x = rng.normal(size=(d_in, cfg.points))
        y = m @ phi(x) + rng.normal(size=(d_out, 1))
        jac = j_psi(y) @ m @ j_phi(x)
        worst = max(worst, int(np.abs(numerical_rank(jac, 1e-9) - rank).max()))
    return float(worst)


# App. A's Example 1 as printed, and with its two conditions exchanged.
EXAMPLE1_READINGS = ("printed", "conditions exchanged")


def example1(x: np.ndarray, reading: str) -> np.ndarray:
    """x: (2, n). Printed: (x0, sign(x1)|x0|) if |x0| >= |x1|, else (sign(x0)|x1|, x1)."""
    x0, x1 = x
    first = np.stack([x0, np.sign(x1) * np.abs(x0)])
    second = np.stack([np.sign(x0) * np.abs(x1), x1])
    wide = np.abs(x0) >= np.abs(x1)
    if reading == "conditions exchanged":
        wide = ~wide
    return np.where(wide, first, second)


def example1_values(cfg: ConstructionsConfig, reading: str) -> dict:
    """Continuity (the largest change of f across a step of 2e-9 over the lines that bound its
    regions), identity on the x-cross, and |Rank Jf - 1| inside the 8 regions."""
    rng = rng_for("jacot2023", "example1")
    t = rng.uniform(-1, 1, cfg.points)
    step = 1e-9
    jumps = []
    for line, normal in (((1, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 1), (1, -1)), ((1, -1), (1, 1))):
        p = np.outer(line, t)
        n = np.array(normal, float)[:, None] / np.linalg.norm(normal)
        jumps.append(
            np.abs(example1(p + step * n, reading) - example1(p - step * n, reading)).max()
        )
    cross = np.concatenate([np.stack([t, t]), np.stack([t, -t])], axis=1)
    angles = np.pi / 8 + np.pi / 4 * np.arange(8)  # one point inside each region
    centre = np.stack([np.cos(angles), np.sin(angles)]) * rng.uniform(0.2, 1, 8)
    h = 1e-6
    jac = np.stack(
        [
            (
                example1(centre + h * e[:, None], reading)
                - example1(centre - h * e[:, None], reading)
            )
            / (2 * h)
            for e in np.eye(2)
        ],
        axis=-1,
    ).transpose(1, 0, 2)  # (8, 2, 2)
    return {
        "example1_jump": max(jumps),
        "example1_identity": float(np.abs(example1(cross, reading) - cross).max()),
        "example1_rank": float(np.abs(numerical_rank(jac, 1e-6) - 1).max()),
    }


def doubled(layers, a: float, sign: float):
    """Cor. 1's proof: each hidden ReLU neuron becomes the sigma_a neurons of p and -p, read back
    by relu(p) = (sigma_a(p) + sign a sigma_a(-p)) / (1 - a^2); sign = -1 as printed."""
    out = []
    for i, (w, b) in enumerate(layers):
        if i > 0:
            n = w.shape[1]
            w = w @ np.hstack([np.eye(n), sign * a * np.eye(n)]) / (1 - a**2)
        if i < len(layers) - 1:
            w, b = np.vstack([w, -w]), np.vstack([b, -b])
        out.append((w, b))
    return out


# Cor. 1's identity as printed (sigma_a(x) - a sigma_a(-x)) and with the sign of a flipped.
DOUBLING_SIGNS = {"printed": -1.0, "sign of a flipped": 1.0}


def doubling_error(cfg: ConstructionsConfig, sign: float) -> float:
    """Largest |f_ReLU - f_doubled| / max |f_ReLU| over random ReLU networks, slopes and points."""
    worst = 0.0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "doubling", t)
        layers = random_layers((3, 6, 5, 4, 2), rng)
        x = rng.normal(size=(3, cfg.points))
        target = forward(layers, x)
        for a in cfg.leaky_slopes:
            got = forward(doubled(layers, a, sign), x, a)
            worst = max(worst, float(np.abs(got - target).max() / np.abs(target).max()))
    return worst


# (d_in, N, Rank X, d_out): each of the formula's four terms binds in some case.
KRR_CASES = (
    (6, 10, 2, 8),
    (6, 10, 2, 2),
    (6, 3, 3, 8),
    (3, 10, 3, 8),
    (6, 10, 6, 3),
    (8, 12, 4, 10),
)
# App. D.1's rank of J f_K(x): with d_in (its Rank(X - x) = min{d_in, N, Rank X + 1}) and as the
# sentence after it writes it, min{Rank X + 1, N, d_out}.
KRR_FORMULAS = {
    "with d_in": lambda d_in, n, r, d_out: min(d_in, n, r + 1, d_out),
    "as printed": lambda d_in, n, r, d_out: min(r + 1, n, d_out),
}


def krr_rank_gaps(cfg: ConstructionsConfig) -> dict:
    """Per formula, the largest |numerical Rank J f_K(x) - formula| over the cases and points
    (Gaussian kernel, median bandwidth, ridge 0.1, X of the case's rank, Y with full support)."""
    gaps = dict.fromkeys(KRR_FORMULAS, 0)
    for i, (d_in, n, r, d_out) in enumerate(KRR_CASES):
        rng = rng_for("jacot2023", "krr_rank", i)
        x = rng.normal(size=(d_in, r)) @ rng.normal(size=(r, n))
        y = rng.normal(size=(d_out, n))
        bandwidth = krr.median_bandwidth(x)
        coefficients = krr.fit(x, y, 0.1, bandwidth)
        points = x[:, rng.integers(n, size=cfg.points)] + rng.normal(size=(d_in, cfg.points))
        ranks = numerical_rank(krr.jacobians(x, coefficients, bandwidth, points), 1e-8)
        for name, formula in KRR_FORMULAS.items():
            gaps[name] = max(gaps[name], int(np.abs(ranks - formula(d_in, n, r, d_out)).max()))
    return gaps


def classes_at_changes(h, low: float, high: float, samples: int = 200_001) -> int:
    """Most classes tied where argmax h(z) changes along [low, high], each change located by
    bisection between the two samples that straddle it (h: R -> R^C, piecewise linear)."""
    z = np.linspace(low, high, samples)[None]
    labels = forward(h, z).argmax(axis=0)
    most = 1
    for i in np.flatnonzero(np.diff(labels)):
        a, b, left = z[0, i], z[0, i + 1], labels[i]
        for _ in range(60):
            m = (a + b) / 2
            a, b = (m, b) if forward(h, np.array([[m]])).argmax() == left else (a, m)
        scores = forward(h, np.array([[(a + b) / 2]]))[:, 0]
        tol = 1e-9 * max(1.0, np.abs(scores).max())
        most = max(most, int((scores >= scores.max() - tol).sum()))
    return most


def rank_one_ties(cfg: ConstructionsConfig) -> int:
    """Sec. 5 on classifiers argmax h(g(x)) of [-2, 2]^2 with bottleneck rank 1 (g: R^2 -> R and
    h: R -> R^4 random ReLU networks): a point where three classes meet would map to a z where
    three classes of h tie. The most classes tied at a class change of h over g's range, over
    instances."""
    most = 0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "rank_one_classes", t)
        g, h = random_layers((2, 16, 16, 1), rng), random_layers((1, 16, 4), rng)
        axis = np.linspace(-2, 2, cfg.grid_size)
        values = forward(g, np.stack([a.ravel() for a in np.meshgrid(axis, axis)]))
        most = max(most, classes_at_changes(h, values.min(), values.max()))
    return most


def rank_k_network(g, h, x: np.ndarray, depth: int, a: float = 0.0):
    """Prop. 5's proof: g (into R^k), identity layers on R^k, h, g's output shifted into the
    positive orthant on the data (so the identity layers' ReLU, or sigma_a, lets it through) and
    h's first bias shifted back; g and h are sigma_a networks."""
    k = g[-1][0].shape[0]
    shift = np.maximum(0.0, -forward(g, x, a).min(axis=1, keepdims=True)) + 1.0
    g = [*g[:-1], (g[-1][0], g[-1][1] + shift)]
    h = [(h[0][0], h[0][1] - h[0][0] @ shift), *h[1:]]
    middle = [(np.eye(k), np.zeros((k, 1)))] * (depth - len(g) - len(h))
    return g + middle + h


def squared_norm(layers) -> float:
    """||W||^2 of a network [(W_l, b_l)], biases included."""
    return float(sum((w**2).sum() + (b**2).sum() for w, b in layers))


def norm_minus_kl(net, k: int) -> float:
    """||W||^2 - kL of a network [(W_l, b_l)], biases included: Prop. 5's C."""
    return squared_norm(net) - k * len(net)


def constant_spread(constants) -> float:
    """(max - min) / |mean| of C over depths."""
    return float(np.ptp(constants) / abs(np.mean(constants)))


def prop5_values(cfg: ConstructionsConfig, depths=(6, 8, 12, 20, 40)) -> dict:
    """The largest relative misfit of the rank-k network to f* = h o g on the data, and the
    spread over depths of ||W||^2 - kL (biases included) relative to its mean, over instances."""
    misfit, spread = 0.0, 0.0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "prop5", t)
        k = 1 + t % 3
        g, h = random_layers((6, 12, k), rng), random_layers((k, 12, 5), rng)
        x = rng.normal(size=(6, cfg.points))
        target = forward(h, forward(g, x))
        constants = []
        for depth in depths:
            net = rank_k_network(g, h, x, depth)
            got = forward(net, x)
            misfit = max(misfit, float(np.abs(got - target).max() / np.abs(target).max()))
            constants.append(norm_minus_kl(net, k))
        spread = max(spread, constant_spread(constants))
    return {"prop5_misfit": misfit, "prop5_constant_spread": spread}


def numerical_jacobians(f, x: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """Central differences (n, d_out, d_in) of a map f of columns x: read inside a linear piece
    of a piecewise linear f, independent of the chain rule."""
    columns = [
        (f(x + step * e[:, None]) - f(x - step * e[:, None])) / (2 * step) for e in np.eye(len(x))
    ]
    return np.stack(columns, axis=-1).transpose(1, 0, 2)


def jacobian_rank(f, x: np.ndarray) -> int:
    """Rank_J read on points x: the largest numerical rank (1e-6 of the largest value) of Jf."""
    return int(numerical_rank(numerical_jacobians(f, x), 1e-6).max())


def bottleneck_net(d_in: int, inner: int, d_out: int, rng):
    """A random leaky-ReLU network R^d_in -> R^d_out through a layer of width `inner`."""
    return random_layers((d_in, 10, inner, 10, d_out), rng)


def prop1_violations(cfg: ConstructionsConfig, a: float = 0.2) -> int:
    """Prop. 1 on random FPLFs (leaky-ReLU networks, slope a, with bottlenecks of widths 1-3):
    how many of properties 2-4 of Rank_J, and Rank_J <= Rank_BN for h o g of inner dimension k,
    fail on an instance, over instances. Ranks are read by central differences at random points
    (and, for f in f o g, also at g's outputs)."""
    return int(sum(_prop1_failures(t, cfg.points, a) for t in range(cfg.trials)))


def _as_map(layers, a: float):
    return lambda z: forward(layers, z, a)


def _prop1_failures(t: int, points: int, a: float) -> int:
    rng = rng_for("jacot2023", "prop1", t)
    r_f, r_g, k = 1 + t % 3, 1 + (t + 1) % 3, 1 + (t + 2) % 3
    f, g, f2 = (
        _as_map(bottleneck_net(*shape, rng), a) for shape in ((6, r_f, 5), (4, r_g, 6), (6, k, 5))
    )
    x4, x6 = rng.normal(size=(4, points)), rng.normal(size=(6, points))
    rank_f = max(jacobian_rank(f, x6), jacobian_rank(f, g(x4)))
    m = rng.normal(size=(5, k)) @ rng.normal(size=(k, 6))
    b = rng.normal(size=(5, 1))
    return (
        (jacobian_rank(lambda z: f(g(z)), x4) > min(rank_f, jacobian_rank(g, x4)))  # property 2
        + (jacobian_rank(lambda z: f(z) + f2(z), x6) > rank_f + jacobian_rank(f2, x6))  # 3
        + (jacobian_rank(lambda z: m @ z + b, x6) != k)  # property 4
        + (jacobian_rank(f2, x6) > k)  # Rank_J <= Rank_BN <= k
    )


def thm1_sandwich(cfg: ConstructionsConfig, depths=(6, 8, 12, 20, 40, 100, 1000), far=10**6):
    """Thm. 1's sandwich on Prop. 5's instances f = h o g of inner dimension k: at each depth L,
    Prop. 3's lower bound max_x sum_i s_i(Jf(x))^(2/L) (s_i above 1e-9 of the largest, the rank
    Rank_J reads) against the construction's ||W||^2 / L = k + C / L. Returns the largest
    lower - upper over instances and depths, and at depth `far` the largest distance of either
    bound from k, over k."""
    order, spread = -np.inf, 0.0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "prop5", t)
        k = 1 + t % 3
        g, h = random_layers((6, 12, k), rng), random_layers((k, 12, 5), rng)
        x = rng.normal(size=(6, cfg.points))
        s = np.linalg.svd(composed_jacobians(g, h, x), compute_uv=False)
        s = np.where(s > 1e-9 * s[:, :1], s, 0.0)
        c = norm_minus_kl(rank_k_network(g, h, x, depths[0]), k)
        for depth in (*depths, far):
            lower = (s ** (2 / depth)).sum(axis=1).max()
            upper = k + c / depth
            order = max(order, lower - upper)
        spread = max(spread, abs(lower - k) / k, abs(upper - k) / k)
    return {"thm1_sandwich_order": float(order), "thm1_sandwich_closes": float(spread)}


def _fused(first, second):
    """One network computing second(first(z)): first's linear output layer merged into
    second's first layer (no ReLU between them)."""
    (w1, b1), (w2, b2) = first[-1], second[0]
    return [*first[:-1], (w2 @ w1, w2 @ b1 + b2), *second[1:]]


def _side_by_side(a, b, shared_input: bool):
    """Two networks of the same depth side by side: the first layers read the same input
    (`shared_input`) or its two parts, every later layer block-diagonal."""

    def block(wa, wb):
        zeros_ab, zeros_ba = (
            np.zeros((wa.shape[0], wb.shape[1])),
            np.zeros((wb.shape[0], wa.shape[1])),
        )
        return np.block([[wa, zeros_ab], [zeros_ba, wb]])

    (wa, ba), (wb, bb) = a[0], b[0]
    layers = [(np.vstack([wa, wb]) if shared_input else block(wa, wb), np.vstack([ba, bb]))]
    for (wa, ba), (wb, bb) in zip(a[1:], b[1:], strict=True):
        layers.append((block(wa, wb), np.vstack([ba, bb])))
    return layers


def composed_network(f, g, x, depth):
    """Thm. 4's (App. B) network of f o g, f = (g_f, h_f) and g = (g_g, h_g) factorizations: the
    identity layers placed at the narrower of the two bottlenecks. Returns it and its k."""
    (gf, hf), (gg, hg) = f, g
    if gf[-1][0].shape[0] <= gg[-1][0].shape[0]:
        inner, outer = _fused(_fused(gg, hg), gf), hf
    else:
        inner, outer = gg, _fused(_fused(hg, gf), hf)
    return rank_k_network(inner, outer, x, depth), inner[-1][0].shape[0]


def summed_network(f, g, x, depth):
    """The network of f + g: the two bottleneck networks side by side (identity layers on
    R^(k_f + k_g)), their outputs added by the last layer. Returns it and its k."""
    (gf, hf), (gg, hg) = f, g
    inner, outer = _side_by_side(gf, gg, shared_input=True), _side_by_side(hf, hg, False)
    w, b = outer[-1]
    n = hf[-1][0].shape[0]
    outer[-1] = (w[:n] + w[n:], b[:n] + b[n:])  # the two outputs summed
    return rank_k_network(inner, outer, x, depth), inner[-1][0].shape[0]


def thm1_properties(cfg: ConstructionsConfig, depths=(8, 12, 20, 40), far=10**6) -> dict:
    """Thm. 1's properties 2-4 of the limiting cost through the proofs' networks, on random
    f = h_f o g_f and g = h_g o g_g (R^6 -> R^6, inner dimensions 1-3) and affine maps Ax + b
    (A = UV of rank 1-3): the largest relative misfit of the f o g and f + g networks, the
    largest spread over depths of their ||W||^2 - kL (k the narrower bottleneck for f o g, the
    sum for f + g, Rank A for Ax + b), and for Ax + b at depth `far` the larger distance from
    Rank A of Prop. 3's lower bound sum_i s_i(A)^(2/L) and of its network's ||W||^2 / L (the
    constant C read at the last of `depths`), over Rank A."""
    misfit, spread, affine = 0.0, 0.0, 0.0
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "thm1_properties", t)
        f, g = (
            (random_layers((6, 12, k), rng), random_layers((k, 12, 6), rng))
            for k in (1 + t % 3, 1 + (t + 1) % 3)
        )
        x = rng.normal(size=(6, cfg.points))
        f_x, g_x = forward(f[1], forward(f[0], x)), forward(g[1], forward(g[0], x))
        for build, target in (
            (composed_network, forward(f[1], forward(f[0], g_x))),
            (summed_network, f_x + g_x),
        ):
            constants = []
            for depth in depths:
                net, k = build(f, g, x, depth)
                misfit = max(
                    misfit, float(np.abs(forward(net, x) - target).max() / np.abs(target).max())
                )
                constants.append(norm_minus_kl(net, k))
            spread = max(spread, constant_spread(constants))
        rank = 1 + t % 3
        u, v, b = rng.normal(size=(5, rank)), rng.normal(size=(rank, 6)), rng.normal(size=(5, 1))
        mapped, constants = u @ v @ x + b, []
        for depth in depths:
            net = rank_k_network([(v, np.zeros((rank, 1)))], [(u, b)], x, depth)
            misfit = max(
                misfit, float(np.abs(forward(net, x) - mapped).max() / np.abs(mapped).max())
            )
            constants.append(norm_minus_kl(net, rank))
        spread = max(spread, constant_spread(constants))
        s = np.linalg.svd(u @ v, compute_uv=False)[:rank]
        upper = rank + norm_minus_kl(net, rank) / far
        affine = max(affine, abs((s ** (2 / far)).sum() - rank) / rank, abs(upper - rank) / rank)
    return {
        "thm1_properties_misfit": misfit,
        "thm1_properties_constant_spread": spread,
        "thm1_affine_closes": affine,
    }


# ---- Sec. 2: a homogeneous sigma (slope p on x >= 0, q on x < 0) is c sigma_a(b .)

# Slopes (p, q) read beside the random ones: ReLU, its mirror, negated and scaled leaky ReLUs.
SEC2_FIXED_SLOPES = ((1.0, 0.0), (0.0, 1.0), (-2.0, 0.0), (0.0, -0.5), (1.5, -0.3), (-0.4, 3.0))


def homogeneous(x, p: float, q: float):
    return np.where(x >= 0, p * x, q * x)


def reduction(p: float, q: float) -> tuple[float, float, float]:
    """Sec. 2's (a, b, c) with sigma(x) = c sigma_a(bx): b > 0 reads x >= 0 through sigma_a's
    identity branch (a = q / p), b < 0 through its a branch (a = p / q); the branch whose ratio
    is below 1 in size (|a| = 1 where |p| = |q|, the cases Sec. 2 excludes)."""
    if abs(q) < abs(p):
        return q / p, abs(p), float(np.sign(p))
    return p / q, -abs(q), -float(np.sign(q))


def sec2_slopes(cfg: ConstructionsConfig) -> list[tuple[float, float]]:
    """The fixed slopes and cfg.trials random ones (p, q standard normal: |p| != |q| a.s.)."""
    rng = rng_for("jacot2023", "sec2_slopes")
    return [*SEC2_FIXED_SLOPES, *(tuple(rng.normal(size=2)) for _ in range(cfg.trials))]


def reduction_values(cfg: ConstructionsConfig, solve=reduction) -> dict:
    """Over the slopes: the largest |a| and the largest max_x |sigma(x) - c sigma_a(bx)| /
    max(|p|, |q|) on a grid of [-3, 3] and random points (c in {+1, -1} asserted)."""
    x = np.concatenate(
        [np.linspace(-3, 3, 2001), rng_for("jacot2023", "sec2_x").normal(size=cfg.points)]
    )
    slope, misfit = 0.0, 0.0
    for p, q in sec2_slopes(cfg):
        a, b, c = solve(p, q)
        if c not in (1.0, -1.0):
            raise ValueError(f"c = {c} for slopes ({p}, {q})")
        slope = max(slope, abs(a))
        gap = np.abs(homogeneous(x, p, q) - c * leaky(b * x, a)).max() / max(abs(p), abs(q))
        misfit = max(misfit, float(gap))
    return {"sec2_slope": slope, "sec2_reduction_misfit": misfit}


def to_sigma_a(layers, b: float, c: float):
    """A sigma network, sigma = c sigma_a(b .), as a sigma_a network of the same function: each
    hidden layer's weights and bias times b (the b inside sigma_a), each layer after the first
    reads the sign c of the previous layer's activations."""
    out = []
    for i, (w, bias) in enumerate(layers):
        if i > 0:
            w = c * w
        if i < len(layers) - 1:
            w, bias = b * w, b * bias
        out.append((w, bias))
    return out


def rebalanced(layers, b: float):
    """to_sigma_a's network with the factor b^2 its hidden layers carry spread over all L layers
    (homogeneity of sigma_a): weights of layer l times beta_l (|b|^(-1/L) hidden, |b|^((L-1)/L)
    last, product 1), biases times beta_1 ... beta_l. Without biases every layer's squared norm
    is then |b|^(2(L-1)/L) times the sigma network's."""
    depth, scale, out = len(layers), 1.0, []
    for i, (w, bias) in enumerate(layers):
        beta = abs(b) ** ((depth - 1) / depth if i == depth - 1 else -1 / depth)
        scale *= beta
        out.append((beta * w, scale * bias))
    return out


# Readings of "the same up to scaling": (map, biases kept, the ratio ||W'||^2 / ||W||^2 allowed).
SEC2_SCALING_READINGS = {
    "within b^2": ("direct", True),
    "one factor, no biases": ("rebalanced", False),
    "one factor, biases included": ("rebalanced", True),
}


def _ratio_gap(ratio: float, reading: str, b: float, depth: int) -> float:
    """Relative distance of the norm ratio from what the reading allows: [min(1, b^2),
    max(1, b^2)], or the one factor |b|^(2(L-1)/L)."""
    if reading == "within b^2":
        low, high = min(1.0, b * b), max(1.0, b * b)
        return max(low - ratio, ratio - high, 0.0) / ratio
    return abs(ratio / abs(b) ** (2 * (depth - 1) / depth) - 1)


def sec2_network_values(cfg: ConstructionsConfig, mapping=to_sigma_a) -> dict:
    """Random sigma networks (sigma of sec2_slopes, depths 2-5) mapped to sigma_a networks:
    the largest relative misfit of the mapped network (every reading's map) and, per reading,
    the largest relative distance of ||W'||^2 / ||W||^2 (biases included where the reading keeps
    them) from what the reading allows."""
    misfit, gaps = 0.0, dict.fromkeys(SEC2_SCALING_READINGS, 0.0)
    for t, (p, q) in enumerate(sec2_slopes(cfg)):
        rng = rng_for("jacot2023", "sec2_networks", t)
        a, b, c = reduction(p, q)
        depth = 2 + t % 4
        layers = random_layers((3, *[8] * (depth - 1), 2), rng)
        layers = [(w, bias + rng.normal(size=bias.shape)) for w, bias in layers]
        x = rng.normal(size=(3, cfg.points))
        for reading, (kind, biases) in SEC2_SCALING_READINGS.items():
            net = layers if biases else [(w, 0 * bias) for w, bias in layers]
            target = forward_with(net, x, lambda z, p=p, q=q: homogeneous(z, p, q))
            mapped = mapping(net, b, c)
            if kind == "rebalanced":
                mapped = rebalanced(mapped, b)
            got = forward(mapped, x, a)
            misfit = max(misfit, float(np.abs(got - target).max() / np.abs(target).max()))
            ratio = squared_norm(mapped) / squared_norm(net)
            gaps[reading] = max(gaps[reading], _ratio_gap(ratio, reading, b, depth))
    return {"sec2_network_misfit": misfit, "sec2_cost_scaling": gaps}


# ---- Sec. 3: R_inf(psi o A o phi) = Rank A for bijections phi, psi, whatever the slope a

BIJECTION_SLOPE = 0.5  # the slope a' of the bijections' own sigma_a' (x -> B sigma_a'(Mx + c))
SEC3_SLOPES = (0.0, 0.5, -0.5)  # the slopes a of the networks that represent f


def _bijection_layers(parts, a: float, before=None, after=None):
    """The bijection (after `before` = (W, b), affine, and followed by the linear `after`) as a
    one-hidden-layer sigma_a network: the hidden layer holds z = Mx + c and -z, read back by
    sigma_a'(z) = alpha sigma_a(z) + beta sigma_a(-z), alpha = (1 - a a') / (1 - a^2), beta =
    (a - a') / (1 - a^2) (Cor. 1's doubling, for a' in place of 0)."""
    m, c, b = parts
    if before is not None:
        w0, b0 = before
        m, c = m @ w0, m @ b0 + c
    alpha = (1 - a * BIJECTION_SLOPE) / (1 - a**2)
    beta = (a - BIJECTION_SLOPE) / (1 - a**2)
    out = b @ np.hstack([alpha * np.eye(len(b)), beta * np.eye(len(b))])
    if after is not None:
        out = after @ out
    return [(np.vstack([m, -m]), np.vstack([c, -c])), (out, np.zeros((len(out), 1)))]


def sec3_instance(t: int):
    """Instance t of f = psi o A o phi: phi on R^4, psi on R^5, A x = U V x + e of rank 1-3."""
    rng = rng_for("jacot2023", "sec3", t)
    rank = 1 + t % 3
    phi, psi = _bijection_matrices(4, rng), _bijection_matrices(5, rng)
    u, v, e = rng.normal(size=(5, rank)), rng.normal(size=(rank, 4)), rng.normal(size=(5, 1))
    return rank, phi, psi, u, v, e


def sec3_network(instance, x, depth: int, a: float):
    """The three-part network of f = psi o A o phi: phi (its output layer fused with V), identity
    layers at width Rank A, psi (its first layer fused with U and e), built by rank_k_network."""
    rank, phi, psi, u, v, e = instance
    g = _bijection_layers(phi, a, after=v)
    h = _bijection_layers(psi, a, before=(u, e))
    return rank_k_network(g, h, x, depth, a)


def sec3_function(instance, x):
    rank, phi, psi, u, v, e = instance
    inner = u @ v @ _bijection_map(phi, x, BIJECTION_SLOPE) + e
    return _bijection_map(psi, inner, BIJECTION_SLOPE)


def sec3_jacobians(instance, x):
    """J(psi o A o phi)(x) = J psi(A phi(x)) U V J phi(x), (n, 5, 4)."""
    rank, phi, psi, u, v, e = instance
    y = u @ v @ _bijection_map(phi, x, BIJECTION_SLOPE) + e
    j_phi = _bijection_jacobians(phi, x, BIJECTION_SLOPE)
    return _bijection_jacobians(psi, y, BIJECTION_SLOPE) @ (u @ v) @ j_phi


def sec3_values(cfg: ConstructionsConfig, depths=(8, 12, 20, 40), far=10**8, slopes=SEC3_SLOPES):
    """Over instances of f = psi o A o phi and, per slope a of the network's sigma_a: the largest
    relative misfit of the three-part network over depths, the largest spread over depths of its
    ||W||^2 - Rank A * L (its C), and at depth `far` the larger distance from Rank A, relative,
    of Prop. 3's lower bound max_x sum_i s_i(Jf(x))^(2/L) (s_i above 1e-9 of the largest) and of
    the network's ||W||^2 / L = Rank A + C / L (C read at the last of `depths`), with the
    largest C. Returns {a: {measure: value}}."""
    out = {}
    for a in slopes:
        misfit, spread, closes, largest_c = 0.0, 0.0, 0.0, -np.inf
        for t in range(cfg.trials):
            instance = sec3_instance(t)
            rank = instance[0]
            x = rng_for("jacot2023", "sec3_points", t).normal(size=(4, cfg.points))
            target = sec3_function(instance, x)
            constants = []
            for depth in depths:
                net = sec3_network(instance, x, depth, a)
                got = forward(net, x, a)
                misfit = max(misfit, float(np.abs(got - target).max() / np.abs(target).max()))
                constants.append(norm_minus_kl(net, rank))
            spread = max(spread, constant_spread(constants))
            s = np.linalg.svd(sec3_jacobians(instance, x), compute_uv=False)
            s = np.where(s > 1e-9 * s[:, :1], s, 0.0)
            lower = (s ** (2 / far)).sum(axis=1).max()
            upper = rank + constants[-1] / far
            closes = max(closes, abs(lower - rank) / rank, abs(upper - rank) / rank)
            largest_c = max(largest_c, constants[-1])
        out[a] = {
            "sec3_misfit": misfit,
            "sec3_constant_spread": spread,
            "sec3_closes": closes,
            "sec3_largest_c": float(largest_c),
        }
    return out


# Data sizes N at which Sec. 4's two constructions are compared, and the depths of Prop. 2's.
INTERPOLATION_SIZES = (25, 50, 100, 200, 400, 800, 1600)
INTERPOLATION_DEPTHS = (6, 8, 12, 20, 40)


def rank_one_values(cfg: ConstructionsConfig) -> dict:
    """On data y = f*(x) of f* = h o g (g: R^6 -> R^k, k = 2 or 3, x uniform on [-1, 1]^6, the
    sizes nested): Prop. 2's interpolator's largest relative misfit and the spread of its C_N =
    ||W||^2 - L over depths; the least growth, from the smallest N to the largest, of the number
    of depths where Prop. 5's network (||W||^2 = kL + C) is the cheaper; the largest depth (at the
    largest N) past which the interpolator undercuts Prop. 3's bound for networks of f*; the
    least, over instances and N, of the interpolator's largest ||Jf||_op over MST(y) / diam(x)
    (Thm. 2's step ||Jf(x)||_op >= TSP(y) / diam(x), the MST a lower bound on the TSP); and the
    least, over instances, N and depths, of the interpolator's ||W||^2 over Prop. 10's bound
    L (TSP/diam)^(2/L) with 2 MST(y), an upper bound on the TSP, in its place."""
    misfit, spread, growth, undercut, slope, norm_bound = 0.0, 0.0, np.inf, 0.0, np.inf, np.inf
    for t in range(cfg.trials):
        rng = rng_for("jacot2023", "prop2", t)
        k = 2 + t % 2
        g, h = random_layers((6, 12, k), rng), random_layers((k, 12, 5), rng)
        data = rng.uniform(-1, 1, size=(6, INTERPOLATION_SIZES[-1]))
        u = rng.normal(size=6)
        u /= np.linalg.norm(u)
        widths = []
        for n in INTERPOLATION_SIZES:
            x = data[:, :n]
            y = forward(h, forward(g, x))
            constants = []
            for depth in INTERPOLATION_DEPTHS:
                net = interpolation.rank_one_interpolator(x, y, depth, u)
                misfit = max(misfit, float(np.abs(forward(net, x) - y).max() / np.abs(y).max()))
                constants.append(interpolation.squared_norm(net) - depth)
                norm_bound = min(norm_bound, interpolation.prop10_ratio(net, x, y, depth))
            spread = max(spread, constant_spread(constants))
            shallowest = len(g) + len(h)
            c = norm_minus_kl(rank_k_network(g, h, x, shallowest), k)
            widths.append(interpolation.range_width(constants[0], c, k, shallowest))
            bound = interpolation.spanning_length(y) / interpolation.diameter(x)
            slope = min(slope, interpolation.largest_slope(x, y, u) / bound)
        growth = min(growth, widths[-1] - widths[0])
        values = np.linalg.svd(composed_jacobians(g, h, data), compute_uv=False)[:, :k]
        undercut = max(undercut, interpolation.undercut_depth(constants[0], values))
    return {
        "prop2_misfit": misfit,
        "prop2_constant_spread": spread,
        "range_growth": float(growth),
        "undercut_depth": undercut,
        "thm2_slope_over_tsp": slope,
        "prop10_norm_over_bound": norm_bound,
    }


# App. F: h reads the first 5 latent coordinates z (its words) or the first 5 input
# coordinates x = g(z) (its formula y = h(x_1, ..., x_5)).
APPF_READINGS = ("latent coordinates", "input coordinates")


def appf_true_rank(
    cfg: ConstructionsConfig, reading: str, latent=15, d=50, width=100, coordinates=5
) -> int:
    """Largest numerical rank of the Jacobian of App. F's true function at the data's points,
    y = h(the first `coordinates` coordinates, 5 in App. F) with g: R^15 -> R^50 and h random
    shallow ReLU networks of width 100: d y / d z (latent) or d y / d x (inputs, x = g(z))."""
    rng = rng_for("jacot2023", "appf_rank", coordinates)
    g_in, g_bias, g_out = (rng.normal(size=s) for s in ((width, latent), (width, 1), (d, width)))
    h_in, h_bias, h_out = (
        rng.normal(size=s) for s in ((width, coordinates), (width, 1), (d, width))
    )
    z = rng.normal(size=(latent, cfg.points))
    on_latent = reading == "latent coordinates"
    inner = z if on_latent else g_out @ np.maximum(g_in @ z + g_bias, 0)
    active = (h_in @ inner[:coordinates] + h_bias > 0).T  # (n, width)
    jac = np.einsum("ow,nw,wi->noi", h_out, active, h_in)  # d y / d (those coordinates)
    rest = np.zeros((cfg.points, d, len(inner) - coordinates))  # y ignores the others
    return int(numerical_rank(np.concatenate([jac, rest], axis=2), 1e-9).max())


def constructions_table(cfg: ConstructionsConfig) -> pd.DataFrame:
    rows = [{"check": "claim1_rank_gap", "reading": "", "value": claim1(cfg)}]
    for reading in EXAMPLE1_READINGS:
        rows += [
            {"check": k, "reading": reading, "value": v}
            for k, v in example1_values(cfg, reading).items()
        ]
    rows += [
        {"check": "doubling_error", "reading": name, "value": doubling_error(cfg, sign)}
        for name, sign in DOUBLING_SIGNS.items()
    ]
    rows += [
        {"check": "krr_rank_gap", "reading": name, "value": gap}
        for name, gap in krr_rank_gaps(cfg).items()
    ]
    rows.append({"check": "rank_one_ties", "reading": "", "value": rank_one_ties(cfg)})
    rows += [{"check": k, "reading": "", "value": v} for k, v in prop5_values(cfg).items()]
    rows += [
        {"check": "appf_true_rank", "reading": r, "value": appf_true_rank(cfg, r)}
        for r in APPF_READINGS
    ]
    rows += [{"check": k, "reading": "", "value": v} for k, v in rank_one_values(cfg).items()]
    rows.append({"check": "prop1_violations", "reading": "", "value": prop1_violations(cfg)})
    rows += [{"check": k, "reading": "", "value": v} for k, v in thm1_sandwich(cfg).items()]
    rows += [{"check": k, "reading": "", "value": v} for k, v in thm1_properties(cfg).items()]
    rows += [{"check": k, "reading": "", "value": v} for k, v in reduction_values(cfg).items()]
    networks = sec2_network_values(cfg)
    rows.append(
        {
            "check": "sec2_network_misfit",
            "reading": "",
            "value": networks.pop("sec2_network_misfit"),
        }
    )
    rows += [
        {"check": "sec2_cost_scaling", "reading": reading, "value": v}
        for reading, v in networks["sec2_cost_scaling"].items()
    ]
    for a, values in sec3_values(cfg).items():
        rows += [
            {"check": k, "reading": "", "case": f"a = {a:g}", "value": values[k]}
            for k in ("sec3_misfit", "sec3_constant_spread", "sec3_closes")
        ]
    return pd.DataFrame(rows)


def composed_jacobians(g, h, x: np.ndarray) -> np.ndarray:
    """Jacobians (n, d_out, d_in) of f = h o g at the columns of x, g and h ReLU networks
    [(W_l, b_l)] (no ReLU between them): J_h(g(x)) J_g(x)."""

    def jac(layers, points):
        return rank.network_jacobians([w for w, _ in layers], [b[:, 0] for _, b in layers], points)

    return jac(h, forward(g, x)) @ jac(g, x)
