"""Rank measurements of a trained network: singular values of every layer's representations
and weights, the impact of each nonlinearity, and the Jacobian's singular values."""

import numpy as np


def layers(weights, biases, x):
    """Per layer l = 1..L: (pre-activations Z~_l, activations Z_l), columns = inputs. The last
    layer is linear, so its Z_l = Z~_l. weights[l]: (n_l, n_{l-1}), x: (d_in, N)."""
    out = []
    h = x
    for layer, (w, b) in enumerate(zip(weights, biases, strict=True)):
        pre = w @ h + b[:, None]
        h = np.maximum(pre, 0.0) if layer < len(weights) - 1 else pre
        out.append((pre, h))
    return out


def numerical_rank(s: np.ndarray, rel_tol: float) -> int:
    """Singular values above rel_tol times the largest (s sorted, largest first)."""
    return int((s > rel_tol * s[0]).sum()) if len(s) and s[0] > 0 else 0


def gap_rank(s) -> int:
    """The rank read at the largest gap of a spectrum (s sorted, largest first): the i that
    maximizes s_i / s_(i+1), as one reads a log-scaled plot of the singular values. Values at
    or below 1e-300 count as zero, so an exactly rank-r spectrum reads r."""
    s = np.maximum(np.asarray(s, dtype=float), 1e-300)
    if len(s) < 2:
        return len(s)
    return int(np.argmax(s[:-1] / s[1:])) + 1


def read_rank(
    s,
    rule: str,
    rel_tol: float | None = None,
    n_values: int | None = None,
    floor: float | None = None,
) -> int:
    """A spectrum's rank (s sorted, largest first) under one reading (a registry reading's
    parameters):
    gap            the largest gap s_i/s_(i+1) among the first n_values (as a plot shows them);
    gap_above_floor the largest gap over every value, those below `floor` times the largest
                   raised to it (values there are float rounding of a product of many layers,
                   not directions of the data: their ratios must never win);
    threshold      the values above rel_tol times the largest."""
    s = np.asarray(s, dtype=float)
    if rule == "gap":
        return gap_rank(s[:n_values])
    if rule == "gap_above_floor":  # values below the floor count as the floor: one level
        return gap_rank(np.maximum(s, floor * s[0])) if len(s) and s[0] > 0 else 0
    if rule == "threshold":
        return numerical_rank(s, rel_tol)
    raise ValueError(f"rank rule {rule!r} is gap, gap_above_floor or threshold")


def representation_spectra(weights, biases, x, n_values: int):
    """One row per layer: the first n_values singular values of Z_l (as the paper plots them),
    and of the centred Z_l (the affine dimension of the representation, which biases make the
    relevant one: a k-dimensional affine set has uncentred rank k + 1), and the nonlinearity's
    impact ||Z~_l - relu(Z~_l)||_F / ||Z~_l||_F."""
    rows = []
    for layer, (pre, z) in enumerate(layers(weights, biases, x), start=1):
        s = np.linalg.svd(z, compute_uv=False)
        centred = np.linalg.svd(z - z.mean(axis=1, keepdims=True), compute_uv=False)
        impact = np.linalg.norm(pre - np.maximum(pre, 0.0)) / np.linalg.norm(pre)
        rows.append(
            {
                "layer": layer,
                "activations_sv": _pad(s, n_values),
                "centred_sv": _pad(centred, n_values),
                "nonlinearity_impact": float(impact),
            }
        )
    return rows


def _pad(s, n):
    return np.concatenate([s[:n], np.zeros(max(0, n - len(s)))])


def weight_spectra(weights, n_values: int) -> list[np.ndarray]:
    """The first n_values singular values of every W_l."""
    return [_pad(np.linalg.svd(w, compute_uv=False), n_values) for w in weights]


def network_jacobians(weights, biases, points) -> np.ndarray:
    """(N, d_out, d_in) Jacobians of the network at the columns of `points` (d_in, N): the
    product of the weights restricted to each point's active neurons."""
    n = points.shape[1]
    jac = np.broadcast_to(np.eye(points.shape[0]), (n, points.shape[0], points.shape[0]))
    last = len(weights) - 1
    for layer, ((pre, _), w) in enumerate(
        zip(layers(weights, biases, points), weights, strict=True)
    ):
        jac = w[None] @ jac
        if layer < last:  # the output layer is linear
            jac = jac * (pre.T > 0)[:, :, None]
    return jac


def jacobian_spectra(jacobians: np.ndarray) -> np.ndarray:
    """(N, min(d_out, d_in)) singular values of each Jacobian, largest first."""
    return np.linalg.svd(jacobians, compute_uv=False)
