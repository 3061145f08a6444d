"""Section 3.1: 288 depth-2, width-2 ReLU networks trained by GD on two points."""

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from l2relu.timor2022.data import two_points
from l2relu.training import measures, twolayer
from l2relu.training.seeding import rng_for

# How the paper's text and its authors' code differ (see docs/replication/timor2022.md).
VARIANTS = {
    # (1/2)||N(X) - Y||^2; rows of W(1), columns of W(2) uniform on the sphere of radius r.
    "paper_text": {"loss_scale": 0.5, "init": "sphere", "w2_fill": "columns"},
    # mean-reduced MSE over the 2x2 outputs = (1/4)||.||^2; uniform in the disk; rows of W(2).
    "author_code": {"loss_scale": 0.25, "init": "disk", "w2_fill": "rows"},
}


@dataclass(frozen=True)
class Fig1Config:
    variant: str  # "paper_text" or "author_code" (VARIANTS)
    first_seed: int  # the runs are seeds first_seed .. first_seed + n_runs - 1
    n_runs: int  # 288 in the paper
    steps: int  # full-batch GD steps, 3e6 in the paper
    lr: float  # GD step size, 1e-4 in the paper
    init_radius: float  # 1e-4 in the paper
    converged_loss: float  # a run converged when its final loss is below this, 1e-4 in the paper
    x1: tuple[float, float]  # first input before normalization, (1, 0.99)
    x2: tuple[float, float]  # second input before normalization, (-1, 0.99)


def _draw(rng, radius, how):
    """One vector of R^2: uniform on the circle of `radius`, or uniform in its disk."""
    phi = rng.uniform(0.0, 2 * np.pi)
    r = radius if how == "sphere" else radius * np.sqrt(rng.uniform())
    return r * np.array([np.cos(phi), np.sin(phi)])


def initial_weights(cfg: Fig1Config) -> tuple[np.ndarray, np.ndarray]:
    """(R, 2, 2) W(1) and W(2) at initialization, one generator per run seed."""
    spec = VARIANTS[cfg.variant]
    w = np.empty((cfg.n_runs, 2, 2))
    v = np.empty((cfg.n_runs, 2, 2))
    for r in range(cfg.n_runs):
        rng = rng_for("timor2022", "fig1", cfg.variant, cfg.first_seed + r)
        vecs = [_draw(rng, cfg.init_radius, spec["init"]) for _ in range(4)]
        w[r] = np.stack(vecs[:2])  # rows: incoming weights of the two hidden neurons
        v[r] = np.stack(vecs[2:], axis=1 if spec["w2_fill"] == "columns" else 0)
    return w, v


def run(cfg: Fig1Config, *, threads=None, log_every=0, log=None):
    """Train every run; return the per-run table and the arrays for the checkpoint."""
    if cfg.variant not in VARIANTS:
        raise ValueError(f"unknown variant {cfg.variant!r}; expected one of {list(VARIANTS)}")
    x, y = two_points(cfg.x1, cfg.x2)
    w0, v0 = initial_weights(cfg)
    w, v = w0.copy(), v0.copy()
    loss, diverged_step = twolayer.train(
        w,
        v,
        x,
        y,
        lr=cfg.lr,
        steps=cfg.steps,
        loss_scale=VARIANTS[cfg.variant]["loss_scale"],
        log_every=log_every,
        threads=threads,
        log=log,
    )
    return runs_table(cfg, w0, v0, w, v, loss, diverged_step), {"w0": w0, "v0": v0, "w": w, "v": v}


def runs_table(cfg: Fig1Config, w0, v0, w, v, loss, diverged_step) -> pd.DataFrame:
    diverged = ~np.isfinite(loss) | ~np.isfinite(w).all(axis=(1, 2)) | ~np.isfinite(v).all((1, 2))
    # diverged runs are measured on a stand-in and reported as NaN, never as a result
    safe_w = np.where(diverged[:, None, None], np.eye(2), w)
    safe_v = np.where(diverged[:, None, None], np.eye(2), v)
    table = {
        "variant": cfg.variant,
        "seed": cfg.first_seed + np.arange(cfg.n_runs),
        "loss": loss,
        "diverged": diverged,
        "diverged_step": diverged_step,
        "converged": ~diverged & (loss < cfg.converged_loss),
        "stable_rank_w1": np.where(diverged, np.nan, measures.stable_rank(safe_w)),
        "stable_rank_w2": np.where(diverged, np.nan, measures.stable_rank(safe_v)),
    }
    # Final weights (w_i = row i of W(1), v_i = column i of W(2)) and initial norms, for the
    # checks of Theorems 2-3 and Lemma 6.
    for i in range(2):
        for j in range(2):
            table[f"w{i + 1}_{j + 1}"] = w[:, i, j]
            table[f"v{i + 1}_{j + 1}"] = v[:, j, i]
        table[f"w{i + 1}_init_norm"] = np.linalg.norm(w0[:, i, :], axis=1)
        table[f"v{i + 1}_init_norm"] = np.linalg.norm(v0[:, :, i], axis=1)
    return pd.DataFrame(table)


def config_dict(cfg: Fig1Config) -> dict:
    return asdict(cfg)
