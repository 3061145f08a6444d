"""The networks the proofs of Theorems 4 and 5 build (Apps. D and E): the depth-k network N
that fits the data, made deeper without changing its outputs (App. D: on the data, through
layers of width 1; App. E: on every input, through layers of width 2 carrying N(x) and -N(x)),
at a parameter norm the proof states. Bias-free ReLU networks, as in Sec. 2:
N(x) = W_k relu(... relu(W_1 x))."""

import numpy as np


def outputs(weights, x: np.ndarray) -> np.ndarray:
    """N(x) (d_out, n) of the bias-free ReLU network with layers `weights` on inputs x (d, n);
    of each network, (networks, d_out, n), for stacked layers (networks, out, in)."""
    h = x
    for w in weights[:-1]:
        h = np.maximum(w @ h, 0.0)
    return weights[-1] @ h


def least_layer_bound(weights) -> float:
    """B = max_i ||W_i||_F, the least B of Theorems 4 and 5's hypothesis ||W_i||_F <= B."""
    return max(float(np.linalg.norm(w)) for w in weights)


def _construction_gap(deeper, x: np.ndarray, target: np.ndarray, norm_bound: float) -> float:
    """The larger of max |N'(x) - target| / max |target| and the relative excess of ||theta'||^2
    over `norm_bound`; 0 where the network meets both exactly."""
    error = np.abs(outputs(deeper, x)[0] - target).max() / np.abs(target).max()
    squared_norm = sum(float((w**2).sum()) for w in deeper)
    return max(float(error), squared_norm / norm_bound - 1, 0.0)


def deepened_for_theorem4(weights, depth: int) -> tuple[list[np.ndarray], float]:
    """App. D's N' of depth k' = `depth` from N's k layers `weights` (one output): N's layers
    scaled by alpha = (1/B)^((k'-k)/k'), then k' - k layers of width 1 of weight
    beta = (1/B)^(-k/k'), with B = max_i ||W_i||_F, the least B of Theorem 4's hypothesis.
    Returns N''s layers and B."""
    k, b = len(weights), least_layer_bound(weights)
    alpha, beta = (1 / b) ** ((depth - k) / depth), (1 / b) ** (-k / depth)
    return [alpha * w for w in weights] + [np.full((1, 1), beta)] * (depth - k), b


def theorem4_construction_gap(weights, x: np.ndarray, y: np.ndarray, depth: int) -> float:
    """How far App. D's N' (deepened_for_theorem4) is from what Eq. (18)'s derivation says of
    it: the larger of max_i |N'(x_i) - y_i| / max_i |y_i| (N'(x_i) = y_i) and the relative
    excess of ||theta'||^2 over k' B^(2k/k') (||theta'||^2 <= (1/B^2)^(-k/k') k'); 0 where the
    network meets both exactly."""
    deeper, b = deepened_for_theorem4(weights, depth)
    return _construction_gap(deeper, x, y, depth * b ** (2 * len(weights) / depth))


def deepened_for_theorem5(weights, depth: int) -> tuple[list[np.ndarray], float]:
    """App. E's N' of depth k' = `depth` from N's k layers `weights` (one output, row u^T):
    N's first k - 1 layers scaled by alpha = (sqrt 2 / B)^((k'-k)/k'), its output layer made
    the two neurons alpha (u^T; -u^T), then k' - k - 1 layers beta I_2 and the output layer
    beta (1, -1), with beta = (sqrt 2 / B)^(-k/k') and B = max_i ||W_i||_F, the least B of
    Theorem 5's hypothesis. Returns N''s layers and B."""
    k, b = len(weights), least_layer_bound(weights)
    alpha = (np.sqrt(2) / b) ** ((depth - k) / depth)
    beta = (np.sqrt(2) / b) ** (-k / depth)
    both_signs = alpha * np.vstack([weights[-1], -weights[-1]])
    middle = [beta * np.eye(2)] * (depth - k - 1)
    return [alpha * w for w in weights[:-1]] + [
        both_signs,
        *middle,
        beta * np.array([[1.0, -1.0]]),
    ], b


def theorem5_construction_gap(weights, x: np.ndarray, depth: int) -> float:
    """How far App. E's N' (deepened_for_theorem5) is from what Eq. (20)'s derivation says of
    it: the larger of max_x |N'(x) - N(x)| / max_x |N(x)| over the inputs x (N'(x) = N(x) for
    every x) and the relative excess of ||theta'||^2 over 2 (B^2/2)^(k/k') (k'+1) (Eq. (20):
    ||theta'||^2 <= 2 (2/B^2)^(-k/k') (k'+1)); 0 where the network meets both exactly."""
    deeper, b = deepened_for_theorem5(weights, depth)
    bound = 2 * (b**2 / 2) ** (len(weights) / depth) * (depth + 1)
    return _construction_gap(deeper, x, outputs(weights, x)[0], bound)
