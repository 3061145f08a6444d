"""Kernel ridge regression with a translation- and rotation-invariant kernel, and its Jacobian
(jacot2023 App. D.1): J f_K(x) = (X - x) diag(k'(|x - X|) / |x - X|) (K(X, X) + lam I)^-1 Y."""

import numpy as np


def gaussian_kernel(distance: np.ndarray, bandwidth: float) -> np.ndarray:
    """k(r) = exp(-r^2 / (2 bandwidth^2))."""
    return np.exp(-(distance**2) / (2 * bandwidth**2))


def _distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N_a, N_b) Euclidean distances between the columns of a and b."""
    sq = (a**2).sum(0)[:, None] + (b**2).sum(0)[None, :] - 2 * a.T @ b
    return np.sqrt(np.maximum(sq, 0.0))


def median_bandwidth(x: np.ndarray) -> float:
    """The median distance between distinct training inputs: the usual default bandwidth."""
    d = _distances(x, x)
    return float(np.median(d[np.triu_indices_from(d, k=1)]))


def fit(x: np.ndarray, y: np.ndarray, ridge: float, bandwidth: float) -> np.ndarray:
    """Dual coefficients A = (K(X, X) + ridge I)^-1 Y^T, (N, d_out). x: (d_in, N), y: (d_out, N)."""
    k = gaussian_kernel(_distances(x, x), bandwidth)
    return np.linalg.solve(k + ridge * np.eye(len(k)), y.T)


def predict(x_train, coefficients, bandwidth, points) -> np.ndarray:
    """(d_out, M) predictions at the columns of points."""
    return (gaussian_kernel(_distances(points, x_train), bandwidth) @ coefficients).T


def jacobians(x_train, coefficients, bandwidth, points) -> np.ndarray:
    """(M, d_out, d_in) Jacobians of the predictor at the columns of points. For the Gaussian
    kernel k'(r)/r = -k(r)/bandwidth^2, so the Jacobian is, per point x,
    sum_i A_i (x_i - x)^T k(|x - x_i|) / bandwidth^2."""
    weight = gaussian_kernel(_distances(points, x_train), bandwidth) / bandwidth**2  # (M, N)
    out = []
    for j in range(points.shape[1]):
        diff = x_train - points[:, j : j + 1]  # (d_in, N)
        out.append((coefficients.T * weight[j]) @ diff.T)
    return np.stack(out)
