"""Sec. 3.1, item 2: the hidden covariances of deep linear networks (sigma = id, no bias, X
square and invertible) at a global minimizer, Z_l^T Z_l = X^T (X^-T Z_L^T Z_L X^-1)^(l/L) X, read
on the balanced SVD network built for a given Z_L and on small networks trained with L2
regularization and polished to a stationary point (l2relu.training.polish)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.training import engine, polish
from l2relu.training.seeding import derive_seed, rng_for


class LinearMLP(engine.BatchedMLP):
    """engine.BatchedMLP with sigma = id: x -> W_L ... W_1 x (built with bias=False)."""

    def forward(self, x: torch.Tensor, layers=None) -> torch.Tensor:
        weights, _ = layers or self.layers()
        h = x.view(x.shape[1:]) if self.batch == 1 and x.dim() == 3 else x
        for w in weights:
            h = torch.matmul(w, h)
        return h.unsqueeze(0) if self.batch == 1 else h


def _end_to_end_svd(x: np.ndarray, z_out: np.ndarray):
    """The SVD U S V^T of A = Z_L X^-1, singular values below numpy's rank tolerance
    (s_max max(shape) eps, as np.linalg.matrix_rank) set to 0: rounding, not a direction of Z_L,
    which a fractional power s^(l/L) would otherwise lift far above rounding."""
    u, s, vt = np.linalg.svd(z_out @ np.linalg.inv(x), full_matrices=False)
    s = np.where(s > s.max(initial=0) * max(z_out.shape[0], x.shape[0]) * np.finfo(float).eps, s, 0)
    return u, s, vt


def predicted_covariances(x: np.ndarray, z_out: np.ndarray, depth: int) -> list[np.ndarray]:
    """The paper's X^T (X^-T Z_L^T Z_L X^-1)^(l/L) X for l = 1, ..., L - 1, the power taken on
    the SVD of A = Z_L X^-1 (X^-T Z_L^T Z_L X^-1 = A^T A = V S^2 V^T)."""
    _, s, vt = _end_to_end_svd(x, z_out)
    return [x.T @ (vt.T * s ** (2 * layer / depth)) @ vt @ x for layer in range(1, depth)]


def representations(weights, x: np.ndarray) -> list[np.ndarray]:
    """Z_1, ..., Z_L of the linear network: Z_l = W_l Z_(l-1), Z_0 = X."""
    zs = []
    for w in weights:
        x = w @ x
        zs.append(x)
    return zs


def covariance_gap(weights, x: np.ndarray) -> float:
    """The largest relative Frobenius distance, over the hidden layers, of the network's
    Z_l^T Z_l from the paper's formula computed from the network's own outputs Z_L."""
    zs = representations(weights, x)
    predicted = predicted_covariances(x, zs[-1], len(weights))
    return max(
        float(np.linalg.norm(z.T @ z - k) / np.linalg.norm(k))
        for z, k in zip(zs[:-1], predicted, strict=True)
    )


def balanced_network(x: np.ndarray, z_out: np.ndarray, depth: int) -> list[np.ndarray]:
    """The balanced SVD network with outputs z_out on inputs x: A = Z_L X^-1 = U S V^T,
    W_1 = S^(1/L) V^T, W_l = S^(1/L), W_L = U S^(1/L), the least ||W||^2 (L sum s_i^(2/L)) of
    the depth-L linear networks with these outputs."""
    u, s, vt = _end_to_end_svd(x, z_out)
    root = np.diag(s ** (1 / depth))
    return [root @ vt, *[root] * (depth - 2), u @ root]


def linear_objective(weights, x, y, lam: float) -> float:
    """(1/N) ||W_L ... W_1 X - Y||_F^2 + lam ||W||^2, the trained networks' objective."""
    out = representations(weights, x)[-1]
    return float(((out - y) ** 2).sum() / x.shape[1] + lam * sum((w**2).sum() for w in weights))


@dataclass(frozen=True)
class LinearConfig:
    n: int  # data points N = input size n_0 (X is N x N)
    outputs: int  # n_L
    width: int  # every hidden width
    depths: tuple[int, ...]  # L
    lam: float  # L2 coefficient of (1/N)||Y_hat - Y||^2 + lam ||W||^2
    seeds: int  # data sets (X, Y), one seed of the claims each
    restarts: int  # initializations per data set and depth
    steps: int  # Adam steps (lr 1e-2) before the polish
    polish_iterations: int  # L-BFGS iterations of the polish
    trials: int  # random (X, Z_L) per depth for the construction
    seed: int


def data(cfg: LinearConfig, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A data set: Gaussian X (N x N, invertible almost surely) and Y (n_L x N)."""
    rng = rng_for("jacot2022", "linear", cfg.seed, seed)
    return rng.standard_normal((cfg.n, cfg.n)), rng.standard_normal((cfg.outputs, cfg.n))


def construction_table(cfg: LinearConfig) -> pd.DataFrame:
    """Per depth and trial: the balanced SVD network built for random X and Z_L (half the trials
    with Z_L of rank 1, so that X^-T Z_L^T Z_L X^-1 is singular), its output error and its
    covariance gap."""
    rows = []
    for depth in cfg.depths:
        for t in range(cfg.trials):
            rng = rng_for("jacot2022", "linear_construction", cfg.seed, depth, t)
            x = rng.standard_normal((cfg.n, cfg.n))
            z_out = rng.standard_normal((cfg.outputs, cfg.n))
            if t % 2:
                z_out = np.outer(rng.standard_normal(cfg.outputs), rng.standard_normal(cfg.n))
            weights = balanced_network(x, z_out, depth)
            out = np.linalg.multi_dot([*weights[::-1], x])
            rows.append(
                {
                    "depth": depth,
                    "trial": t,
                    "rank": int(np.linalg.matrix_rank(z_out)),
                    "output_error": float(np.abs(out - z_out).max() / np.abs(z_out).max()),
                    "gap": covariance_gap(weights, x),
                }
            )
    return pd.DataFrame(rows)


def trained_table(cfg: LinearConfig, log=None) -> pd.DataFrame:
    """Per data set (seed), depth and restart: a linear network trained (Adam) then polished to a
    stationary point of its objective: both networks (column network: schedule, as Adam left it;
    polished), each with its objective, that of the balanced SVD network built for its own outputs
    (no higher: the least ||W||^2 for those outputs) and its covariance gap, and the polished one
    with its certificate (polish.polish: the objective's fall over the polish's second half and
    whether it stalled)."""
    settings = polish.PolishConfig(cfg.polish_iterations, "mse", log_every=0, device="cpu")
    rows = []
    for seed in range(cfg.seeds):
        x, y = data(cfg, seed)
        xt, yt = torch.tensor(x), torch.tensor(y)
        for depth in cfg.depths:
            seeds = [
                derive_seed("jacot2022", "linear", cfg.seed, seed, depth, r)
                for r in range(cfg.restarts)
            ]
            widths = (cfg.n, *(cfg.width,) * (depth - 1), cfg.outputs)
            model = LinearMLP(
                engine.NetworkConfig(widths), seeds, torch.device("cpu"), torch.float64
            )
            phases = (engine.Phase("adam", 1e-2, cfg.steps),)
            train_cfg = engine.TrainConfig("mse", phases, log_every=max(1, cfg.steps), device="cpu")
            engine.train(model, xt, yt, cfg.lam, train_cfg, **({"log": log} if log else {}))
            kwargs = {"log": log} if log else {"log": lambda _: None}
            polished, after = polish.polish(model, xt, yt, cfg.lam, settings, **kwargs)
            for network, net in (("schedule", model), ("polished", polished)):
                for r in range(cfg.restarts):
                    weights = [w[r].detach().numpy() for w in net.weights]
                    out = np.linalg.multi_dot([*weights[::-1], x])
                    certified = network == "polished"
                    rows.append(
                        {
                            "seed": seed,
                            "depth": depth,
                            "restart": r,
                            "network": network,
                            "objective": linear_objective(weights, x, y, cfg.lam),
                            "balanced_objective": linear_objective(
                                balanced_network(x, out, depth), x, y, cfg.lam
                            ),
                            "fall_last_half": after.fall_last_half.iloc[r] if certified else None,
                            "stalled": bool(after.stalled.iloc[r]) if certified else None,
                            "gap": covariance_gap(weights, x),
                        }
                    )
    return pd.DataFrame(rows)
