"""Theorems 4 and 5: deep L2-regularized networks on a small data set realized by a depth-2
teacher; the mean ||W||_sigma / ||W||_F of the trained layers against the theorems' bounds."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.timor2022 import theory
from l2relu.timor2022.data import TeacherConfig, teacher
from l2relu.training import engine, measures, polish
from l2relu.training.seeding import derive_seed


@dataclass(frozen=True)
class DeepConfig:
    depth: int  # k', depth of the trained networks (> 2, the teacher's depth)
    width: int  # m' >= teacher width
    lam: float  # L2 coefficient: small, so the optimum approaches the min-norm solution
    first_seed: int  # networks are seeds first_seed .. first_seed + n_seeds - 1
    n_seeds: int  # independent initializations, trained together
    adam_steps: int  # Adam steps (the fast part of the descent)
    adam_lr: float
    gd_steps: int  # then full-batch GD steps, to settle on a stationary point
    gd_lr: float
    log_every: int  # steps between progress lines


def bound(teacher_cfg: TeacherConfig, b: float, depth) -> np.ndarray:
    fn = theory.theorem4_bound if teacher_cfg.theorem == 4 else theory.theorem5_bound
    return fn(b, 2, depth)


def run(teacher_cfg: TeacherConfig, cfg: DeepConfig, device="auto", log=None):
    """Train n_seeds networks of depth cfg.depth together. Returns one row per network, and the
    trained weights and seeds for the checkpoint."""
    x, target, teacher_weights = teacher(teacher_cfg)
    b = theory.balanced_frobenius(teacher_weights)
    dev = engine.pick_device(device)
    widths = (teacher_cfg.input_dim, *([cfg.width] * (cfg.depth - 1)), 1)
    seeds = [
        derive_seed("timor2022", "deep", teacher_cfg.theorem, cfg.depth, cfg.width, cfg.lam, s)
        for s in range(cfg.first_seed, cfg.first_seed + cfg.n_seeds)
    ]
    model = engine.BatchedMLP(engine.NetworkConfig(widths=widths), seeds, dev, torch.float64)
    loss = _loss(teacher_cfg)
    phases = (
        engine.Phase("adam", cfg.adam_lr, cfg.adam_steps),
        engine.Phase("gd", cfg.gd_lr, cfg.gd_steps),
    )
    train_cfg = engine.TrainConfig(loss=loss, phases=phases, log_every=cfg.log_every)
    xt = torch.as_tensor(x, dtype=torch.float64, device=dev)
    yt = torch.as_tensor(target, dtype=torch.float64, device=dev)
    result = engine.train(
        model,
        xt,
        yt[None, :] if loss == "mse_half_sum" else yt,
        cfg.lam,
        train_cfg,
        **({"log": log} if log else {}),
    )
    metrics = _metrics(model, xt, target, teacher_cfg, cfg, b)
    metrics = metrics.assign(loss=result.loss, objective=result.objective, **result.record())
    weights = [w.detach().cpu().numpy() for w in model.weights]
    arrays = {f"W{layer + 1}": w for layer, w in enumerate(weights)}
    return metrics[COLUMNS], arrays, seeds


COLUMNS = [
    "theorem", "depth", "width", "lam", "seed", "loss", "objective", "diverged", "diverged_step",
    "device", "dtype", "fit", "mean_ratio", "teacher_B", "bound",
]  # fmt: skip


def _loss(teacher_cfg: TeacherConfig) -> str:
    return "mse_half_sum" if teacher_cfg.theorem == 4 else "logistic"


def _metrics(model, xt, target, teacher_cfg: TeacherConfig, cfg: DeepConfig, b: float):
    """One row per network of `model`: its fit, mean ||W||_sigma / ||W||_F and the bound."""
    with torch.no_grad():
        out = model.forward(xt.to(model.weights[0]))[:, 0, :].cpu().numpy()
    weights = [w.detach().cpu().numpy() for w in model.weights]
    ratios = np.stack([measures.spectral_frobenius_ratio(w) for w in weights], axis=1)
    fit = (
        np.abs(out - target).max(axis=1)
        if teacher_cfg.theorem == 4
        else (out * target).min(axis=1) / np.abs(out).max(axis=1)
    )
    return pd.DataFrame(
        {
            "theorem": teacher_cfg.theorem,
            "depth": cfg.depth,
            "width": cfg.width,
            "lam": cfg.lam,
            "seed": np.arange(cfg.first_seed, cfg.first_seed + cfg.n_seeds),
            # Theorem 4: largest |N(x_i) - y_i|; Theorem 5: smallest normalized margin
            "fit": fit,
            "mean_ratio": ratios.mean(axis=1),
            "teacher_B": b,
            "bound": bound(teacher_cfg, b, cfg.depth),
        }
    )


def polish_run(arrays: dict, teacher_cfg: TeacherConfig, cfg: DeepConfig, runs, iterations: int,
               device="auto"):  # fmt: skip
    """The networks of a `run` (its checkpoint's arrays, its metrics `runs`) polished to a
    stationary point of their objective (l2relu.training.polish). Returns their metrics (as
    `run`'s, the divergence record of `runs`, and the objective's fall over the polish's second
    half), their arrays, and the certificate of both networks (column network: schedule or
    polished)."""
    x, target, teacher_weights = teacher(teacher_cfg)
    b = theory.balanced_frobenius(teacher_weights)
    dev = engine.pick_device(device)
    model = engine.BatchedMLP.from_weights(
        [torch.as_tensor(arrays[f"W{i + 1}"], dtype=torch.float64) for i in range(cfg.depth)]
    )
    loss = _loss(teacher_cfg)
    xt = torch.as_tensor(x, dtype=torch.float64, device=dev)
    yt = torch.as_tensor(target, dtype=torch.float64, device=dev)
    yt = yt[None, :] if loss == "mse_half_sum" else yt
    pcfg = polish.PolishConfig(iterations, loss, log_every=max(1, iterations // 10), device=device)
    polished, after, both = polish.polish_and_certify(model, xt, yt, cfg.lam, pcfg)
    certificate = both.assign(seed=list(runs.seed) * 2)
    record = runs[["diverged", "diverged_step", "device", "dtype"]].reset_index(drop=True)
    metrics = _metrics(polished, xt, target, teacher_cfg, cfg, b)
    metrics = pd.concat(
        [metrics.assign(loss=after.loss, objective=after.objective), record], axis=1
    )
    arrays = {f"W{i + 1}": w.detach().cpu().numpy() for i, w in enumerate(polished.weights)}
    metrics = metrics[COLUMNS].assign(fall_last_half=after.fall_last_half, stalled=after.stalled)
    return metrics, arrays, certificate
