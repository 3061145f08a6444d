"""jacot2022 Secs. 3.2 and 4.1 on random finite networks: the covariance reformulation's trace
identity (Prop. 3), its convexity in one layer's pair (Prop. 5), and the reduction of a network
to at most N(N+1) neurons per hidden layer with the same covariances and outputs and no larger
parameter norm (Lemma 10, Props. 7 and 8). Networks follow Sec. 2: W_l is n_l x (n_{l-1} + 1),
its last column multiplying the bias row beta 1^T; the output layer is linear."""

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd

from l2relu.training.seeding import rng_for


@dataclass(frozen=True)
class ReductionConfig:
    networks: int  # random networks reduced
    n_points: int  # N: the bound N(N+1) is the dimension of the pairs (K, K^sigma)
    widths: tuple[int, ...]  # n_0, hidden widths (some above N(N+1)), n_L
    beta: float  # amount of bias


def with_bias(h: np.ndarray, beta: float) -> np.ndarray:
    return np.vstack([h, beta * np.ones((1, h.shape[1]))])


def random_weights(widths, rng) -> list[np.ndarray]:
    return [rng.standard_normal((n, m + 1)) / np.sqrt(m + 1) for m, n in pairwise(widths)]


def forward(weights, x: np.ndarray, beta: float) -> list[np.ndarray]:
    """Z_1 .. Z_L (pre-activations; Z_L is the output)."""
    zs, h = [], x
    for w in weights:
        zs.append(w @ with_bias(h, beta))
        h = np.maximum(zs[-1], 0.0)
    return zs


def grams(z: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """(K, K^sigma) = (Z^T Z, sigma(Z)^T sigma(Z) + beta^2 1)."""
    s = np.maximum(z, 0.0)
    return z.T @ z, s.T @ s + beta**2


def trace_costs(zs, x: np.ndarray, beta: float) -> np.ndarray:
    """Tr[K_l (K^sigma_{l-1})^+] per layer, K^sigma_0 = X^T X + beta^2 1."""
    prev = x.T @ x + beta**2
    out = []
    for z in zs:
        out.append(np.trace(z.T @ z @ np.linalg.pinv(prev, hermitian=True)))
        prev = grams(z, beta)[1]
    return np.array(out)


def norm_costs(zs, x: np.ndarray, beta: float) -> np.ndarray:
    """||Z_l (Z^sigma_{l-1})^+||_F^2 per layer."""
    prevs = [x] + [np.maximum(z, 0.0) for z in zs[:-1]]
    return np.array(
        [
            ((z @ np.linalg.pinv(with_bias(p, beta))) ** 2).sum()
            for z, p in zip(zs, prevs, strict=True)
        ]
    )


def _pair_vectors(z: np.ndarray) -> np.ndarray:
    """Each neuron (row z_i) as the vector (vech z_i z_i^T, vech s_i s_i^T), s_i = sigma(z_i),
    in the N(N+1)-dimensional space of pairs of symmetric matrices."""
    iu = np.triu_indices(z.shape[1])
    s = np.maximum(z, 0.0)
    return np.hstack([np.einsum("ia,ib->iab", z, z)[:, *iu], np.einsum("ia,ib->iab", s, s)[:, *iu]])


def caratheodory(z: np.ndarray, rtol: float = 1e-12) -> np.ndarray:
    """Fewer neurons with the same (K, K^sigma): Caratheodory's theorem for conical hulls, the
    argument of Lemma 10. While the live neurons' pair vectors are dependent, their weights a
    move along a null direction until one weight reaches 0; the neurons left are sqrt(a_i) z_i."""
    a = np.ones(len(z))
    vectors = _pair_vectors(z).T
    while True:
        live = np.flatnonzero(a > 0)
        _, s, vt = np.linalg.svd(vectors[:, live])
        if len(live) <= len(s) and s[-1] > rtol * s[0]:
            return np.sqrt(a[live])[:, None] * z[live]
        c = vt[-1] if vt[-1].max() > 0 else -vt[-1]
        pos = np.flatnonzero(c > rtol * np.abs(c).max())
        ratios = a[live][pos] / c[pos]
        a[live] -= ratios.min() * c
        a[live[pos[ratios.argmin()]]] = 0.0


def rebuild(hidden, output: np.ndarray, x: np.ndarray, beta: float, widths) -> list[np.ndarray]:
    """Prop. 8's construction: hidden representations padded with zero rows (dead neurons) to
    `widths`, then W_l = Z_l (Z^sigma_{l-1})^+ layer by layer."""
    padded = [
        np.vstack([z, np.zeros((n - len(z), z.shape[1]))])
        for z, n in zip(hidden, widths, strict=True)
    ]
    weights, prev = [], x
    for z in [*padded, output]:
        weights.append(z @ np.linalg.pinv(with_bias(prev, beta)))
        prev = np.maximum(z, 0.0)
    return weights


def _relative(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


def _gram_error(layers, targets, beta: float) -> float:
    """The largest relative error of the layers' (K, K^sigma) against the target pairs."""
    return max(
        _relative(got, want)
        for z, pair in zip(layers, targets, strict=True)
        for got, want in zip(grams(z, beta), pair, strict=True)
    )


def reduction_table(cfg: ReductionConfig) -> pd.DataFrame:
    """Per random network and width it is moved to (N(N+1), the original width, and a width in
    between): the reduced width and the reduced neurons' own error in (K_l, K^sigma_l); the
    errors in (K_l, K^sigma_l) and Z_L of the rebuilt network, and its norm against the
    original's and against L^k's penalty sum_l Tr[K_l (K^sigma_{l-1})^+]; Prop. 3's two costs."""
    n = cfg.n_points
    bound = n * (n + 1)
    rows = []
    for t in range(cfg.networks):
        rng = rng_for("jacot2022", "reduction", t)
        x = rng.standard_normal((cfg.widths[0], n))
        weights = random_weights(cfg.widths, rng)
        zs = forward(weights, x, cfg.beta)
        reduced = [caratheodory(z) for z in zs[:-1]]
        targets = [grams(z, cfg.beta) for z in zs[:-1]]
        reduced_error = _gram_error(reduced, targets, cfg.beta)
        norm = float(sum((w**2).sum() for w in weights))
        traces, norms = trace_costs(zs, x, cfg.beta), norm_costs(zs, x, cfg.beta)
        top = max(cfg.widths[1:-1])
        for width in sorted({bound, (bound + top) // 2, top}):
            rebuilt = rebuild(reduced, zs[-1], x, cfg.beta, [width] * len(reduced))
            new = forward(rebuilt, x, cfg.beta)
            gram_error = _gram_error(new[:-1], targets, cfg.beta)
            rows.append(
                {
                    "network": t,
                    "N": n,
                    "original_width": top,
                    "reduced_width": max(len(r) for r in reduced),
                    "reduced_gram_error": reduced_error,
                    "width": width,
                    "gram_error": gram_error,
                    "output_error": _relative(new[-1], zs[-1]),
                    "norm": norm,
                    "rebuilt_norm": float(sum((w**2).sum() for w in rebuilt)),
                    "trace_cost": float(traces.sum()),
                    "identity_gap": float(np.abs(norms - traces).max() / traces.max()),
                }
            )
    return pd.DataFrame(rows)


def layer_cost(k: np.ndarray, k_sigma: np.ndarray, k_prev_sigma: np.ndarray, k_next) -> float:
    """The terms of L^k that hold one hidden layer's pair (K_l, K^sigma_l), the rest fixed:
    Tr[K_l (K^sigma_{l-1})^+] + Tr[K_{l+1} (K^sigma_l)^+]."""
    pinv = np.linalg.pinv
    return float(
        np.trace(k @ pinv(k_prev_sigma, hermitian=True))
        + np.trace(k_next @ pinv(k_sigma, hermitian=True))
    )


def convexity_table(cfg: ReductionConfig, segments: int) -> pd.DataFrame:
    """Prop. 5: L^k along segments between two feasible pairs (K_l, K^sigma_l) of a hidden layer,
    the other covariances of a random network fixed. Each end is the pair of a random set of
    neurons; the midpoint is the pair of both sets scaled by 1/sqrt(2), so it is feasible
    (the cone). Per segment: the midpoint gap (L(a) + L(b))/2 - L(mid), relative to L(mid)."""
    rows = []
    for t in range(segments):
        rng = rng_for("jacot2022", "prop5", t)
        x = rng.standard_normal((cfg.widths[0], cfg.n_points))
        zs = forward(random_weights(cfg.widths, rng), x, cfg.beta)
        layer = 1 + t % (len(zs) - 1)  # 1-based hidden layer
        prev_sigma = x.T @ x + cfg.beta**2 if layer == 1 else grams(zs[layer - 2], cfg.beta)[1]
        k_next = zs[layer].T @ zs[layer]
        ends = [rng.standard_normal(zs[layer - 1].shape) for _ in range(2)]
        mid = np.vstack(ends) / np.sqrt(2)
        cost = [layer_cost(*grams(z, cfg.beta), prev_sigma, k_next) for z in (*ends, mid)]
        rows.append(
            {
                "segment": t,
                "layer": layer,
                "cost_a": cost[0],
                "cost_b": cost[1],
                "cost_mid": cost[2],
                "midpoint_gap": ((cost[0] + cost[1]) / 2 - cost[2]) / cost[2],
            }
        )
    return pd.DataFrame(rows)
