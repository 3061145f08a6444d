"""Measurements of weight matrices. All functions accept stacks of matrices (..., m, n)."""

import numpy as np


def singular_values(w) -> np.ndarray:
    """Singular values, largest first, of every matrix in the stack."""
    return np.linalg.svd(np.asarray(w, dtype=float), compute_uv=False)


def stable_rank(w) -> np.ndarray:
    """||W||_F^2 / ||W||_sigma^2: 1 for a rank-1 matrix, rank(W) for equal singular values."""
    s = singular_values(w)
    return (s**2).sum(axis=-1) / s[..., 0] ** 2


def spectral_frobenius_ratio(w) -> np.ndarray:
    """||W||_sigma / ||W||_F, the scale-free rank surrogate of timor2022's Theorems 4 and 5."""
    s = singular_values(w)
    return s[..., 0] / np.sqrt((s**2).sum(axis=-1))


def numerical_rank(w, rtol: float = 1e-10) -> np.ndarray:
    """Number of singular values above rtol times the largest."""
    s = singular_values(w)
    return (s > rtol * s[..., :1]).sum(axis=-1)


def angle(u, v) -> np.ndarray:
    """Angle in [0, pi] between vectors along the last axis."""
    u, v = np.asarray(u, dtype=float), np.asarray(v, dtype=float)
    cos = (u * v).sum(-1) / (np.linalg.norm(u, axis=-1) * np.linalg.norm(v, axis=-1))
    return np.arccos(np.clip(cos, -1.0, 1.0))
