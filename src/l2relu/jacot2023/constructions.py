"""jacot2023's constructions, built and measured on finite instances: Claim 1 (rank under
bijections), App. A's Example 1 (Prop. 1's strict case), Cor. 1's neuron doubling, App. D.1's
formula for the rank of kernel ridge regression's Jacobian, Sec. 5's rank-1 classifiers (no
three classes meet), Prop. 5's rank-k network (||W||^2 = kL + C), the true rank of App. F's
Fig. 1 task, Sec. 4's comparison of Prop. 2's rank-1 interpolator with Prop. 5's network, and
Prop. 1's rank properties and Thm. 1's bounds and properties. One table, a row per (check,
reading): the value its registry entry reads."""

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


def forward(layers, x: np.ndarray, a: float = 0.0) -> np.ndarray:
    """x: (d_in, n) columns; sigma_a after every layer but the last."""
    for i, (w, b) in enumerate(layers):
        x = w @ x + b
        if i < len(layers) - 1:
            x = leaky(x, a)
    return x


def _bijection(d: int, rng, a: float):
    """x -> B sigma_a(A x + c), A and B invertible, a in (0, 1): a piecewise linear bijection of
    R^d. Returns the map and its Jacobians at columns x, (n, d, d)."""
    a_mat, b_mat = (np.linalg.qr(rng.normal(size=(d, d)))[0] * rng.uniform(0.5, 2, d) for _ in "ab")
    c = rng.normal(size=(d, 1))

    def slopes(x):
        return np.where(a_mat @ x + c >= 0, 1.0, a).T  # (n, d)

    return (
        lambda x: b_mat @ leaky(a_mat @ x + c, a),
        lambda x: np.einsum("ij,nj,jk->nik", b_mat, slopes(x), a_mat),
    )


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


def rank_k_network(g, h, x: np.ndarray, depth: int):
    """Prop. 5's proof: g (into R^k), identity layers on R^k, h, g's output shifted into the
    positive orthant on the data (so the identity layers' ReLU lets it through) and h's first bias
    shifted back."""
    k = g[-1][0].shape[0]
    shift = np.maximum(0.0, -forward(g, x).min(axis=1, keepdims=True)) + 1.0
    g = [*g[:-1], (g[-1][0], g[-1][1] + shift)]
    h = [(h[0][0], h[0][1] - h[0][0] @ shift), *h[1:]]
    middle = [(np.eye(k), np.zeros((k, 1)))] * (depth - len(g) - len(h))
    return g + middle + h


def norm_minus_kl(net, k: int) -> float:
    """||W||^2 - kL of a network [(W_l, b_l)], biases included: Prop. 5's C."""
    return float(sum((w**2).sum() + (b**2).sum() for w, b in net) - k * len(net))


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


# Data sizes N at which Sec. 4's two constructions are compared, and the depths of Prop. 2's.
INTERPOLATION_SIZES = (25, 50, 100, 200, 400, 800, 1600)
INTERPOLATION_DEPTHS = (6, 8, 12, 20, 40)


def rank_one_values(cfg: ConstructionsConfig) -> dict:
    """On data y = f*(x) of f* = h o g (g: R^6 -> R^k, k = 2 or 3, x uniform on [-1, 1]^6, the
    sizes nested): Prop. 2's interpolator's largest relative misfit and the spread of its C_N =
    ||W||^2 - L over depths; the least growth, from the smallest N to the largest, of the number
    of depths where Prop. 5's network (||W||^2 = kL + C) is the cheaper; the largest depth (at the
    largest N) past which the interpolator undercuts Prop. 3's bound for networks of f*; and the
    least, over instances and N, of the interpolator's largest ||Jf||_op over MST(y) / diam(x)
    (Thm. 2's step ||Jf(x)||_op >= TSP(y) / diam(x), the MST a lower bound on the TSP)."""
    misfit, spread, growth, undercut, slope = 0.0, 0.0, np.inf, 0.0, np.inf
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
    return pd.DataFrame(rows)


def composed_jacobians(g, h, x: np.ndarray) -> np.ndarray:
    """Jacobians (n, d_out, d_in) of f = h o g at the columns of x, g and h ReLU networks
    [(W_l, b_l)] (no ReLU between them): J_h(g(x)) J_g(x)."""

    def jac(layers, points):
        return rank.network_jacobians([w for w, _ in layers], [b[:, 0] for _, b in layers], points)

    return jac(h, forward(g, x)) @ jac(g, x)
