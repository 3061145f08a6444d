"""The network the proof of Theorem 4 builds (App. D): the depth-k network N that fits the
data, made deeper without changing its outputs on the data, at a parameter norm the proof
states (App. E's width-2 network for Theorem 5 is not built here yet). Bias-free ReLU
networks, as in Sec. 2: N(x) = W_k relu(... relu(W_1 x))."""

import numpy as np


def outputs(weights, x: np.ndarray) -> np.ndarray:
    """N(x) (d_out, n) of the bias-free ReLU network with layers `weights` on inputs x (d, n);
    of each network, (networks, d_out, n), for stacked layers (networks, out, in)."""
    h = x
    for w in weights[:-1]:
        h = np.maximum(w @ h, 0.0)
    return weights[-1] @ h


def deepened_for_theorem4(weights, depth: int) -> tuple[list[np.ndarray], float]:
    """App. D's N' of depth k' = `depth` from N's k layers `weights` (one output): N's layers
    scaled by alpha = (1/B)^((k'-k)/k'), then k' - k layers of width 1 of weight
    beta = (1/B)^(-k/k'), with B = max_i ||W_i||_F, the least B of Theorem 4's hypothesis.
    Returns N''s layers and B."""
    k = len(weights)
    b = max(float(np.linalg.norm(w)) for w in weights)
    alpha, beta = (1 / b) ** ((depth - k) / depth), (1 / b) ** (-k / depth)
    return [alpha * w for w in weights] + [np.full((1, 1), beta)] * (depth - k), b


def theorem4_construction_gap(weights, x: np.ndarray, y: np.ndarray, depth: int) -> float:
    """How far App. D's N' (deepened_for_theorem4) is from what Eq. (18)'s derivation says of
    it: the larger of max_i |N'(x_i) - y_i| / max_i |y_i| (N'(x_i) = y_i) and the relative
    excess of ||theta'||^2 over k' B^(2k/k') (||theta'||^2 <= (1/B^2)^(-k/k') k'); 0 where the
    network meets both exactly."""
    deeper, b = deepened_for_theorem4(weights, depth)
    error = np.abs(outputs(deeper, x)[0] - y).max() / np.abs(y).max()
    squared_norm = sum(float((w**2).sum()) for w in deeper)
    excess = squared_norm / (depth * b ** (2 * len(weights) / depth)) - 1
    return max(float(error), excess, 0.0)
