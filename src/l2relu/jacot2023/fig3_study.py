"""A study of Fig. 3's autoencoders: do deep autoencoders, trained to convergence, project onto
the data? On several smooth random curves in the plane, several initializations each, at depths
2 to 12: how far outputs land from the curve, the Jacobian's second singular value at the data
over its first, and ||W||^2 / L. On MNIST: how much noise a deep autoencoder passes, against a
PCA projection of the rank its Jacobian has at the digits."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu import engine
from l2relu.jacot2023.autoencoders import distance_to_polyline, uniform_in_box
from l2relu.jacot2023.data import curve_points, curve_polyline
from l2relu.seeding import derive_seed, rng_for


@dataclass(frozen=True)
class CurveStudyConfig:
    curve_width: int  # the curves: random ReLU nets R -> R^2 of this width (its kinks)
    curves: tuple[int, ...]  # one curve per seed
    seeds: tuple[int, ...]  # initializations of each curve's autoencoder
    n_train: int  # points g(t), t ~ N(0, 1), per curve
    n_random: int  # random inputs in the curve's bounding box, per curve
    depth: int  # L
    width: int  # every hidden layer
    lam: float  # the ridge, as Fig. 3


def _train_converging(model, x, lam, phases, dtype, log):
    """All phases but the last, then the last (a small step): returns the result and each
    network's objective before the last phase, for the convergence criterion."""
    kw = {"log": log} if log else {}
    first = engine.TrainConfig(
        "mse", tuple(phases[:-1]), dtype=dtype, log_every=phases[0].steps // 5
    )
    before = engine.train(model, x, x, lam, first, **kw).objective
    last = engine.TrainConfig(
        "mse", tuple(phases[-1:]), dtype=dtype, log_every=phases[-1].steps // 2
    )
    return engine.train(model, x, x, lam, last, **kw), before


def _fit(result, before, b: int) -> dict:
    """Network b's fit: data loss, objective, objective before the last phase, divergence."""
    return {
        "loss": result.loss[b],
        "objective": result.objective[b],
        "objective_before_last_phase": before[b],
        "diverged": bool(result.diverged[b]),
    }


def jacobian_ratio(model, x: torch.Tensor) -> np.ndarray:
    """(B,) median over the points of s_2/s_1 of each network's Jacobian there; x (B, 2, N).
    A point's outputs depend on its own input only, so the gradient of an output coordinate
    summed over the points gives that row of every point's Jacobian."""
    x = x.detach().clone().requires_grad_()
    out = model.forward(x)
    rows = [torch.autograd.grad(out[:, i].sum(), x, retain_graph=True)[0] for i in range(2)]
    jac = torch.stack(rows, dim=1).permute(0, 3, 1, 2)  # (B, N, out, in)
    s = torch.linalg.svdvals(jac)
    return (s[..., 1] / s[..., 0]).median(dim=1).values.detach().cpu().numpy()


def train_curves(cfg: CurveStudyConfig, phases, device="auto", log=None):
    """Every (curve, seed) autoencoder of one depth, trained together, each on its curve.
    Returns one row per network and the outputs of the first network's random inputs."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    networks = [(c, s) for c in cfg.curves for s in cfg.seeds]
    points = {c: curve_points(cfg.curve_width, cfg.n_train, c) for c in cfg.curves}
    x = torch.tensor(np.stack([points[c].T for c, _ in networks]), device=dev)
    init = [
        derive_seed("jacot2023", "fig3_study", cfg.curve_width, c, s, cfg.depth, cfg.width)
        for c, s in networks
    ]
    widths = (2, *([cfg.width] * (cfg.depth - 1)), 2)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), init, dev, torch.float64)
    result, before = _train_converging(model, x, cfg.lam, phases, "float64", log)
    inputs = {
        c: uniform_in_box(
            points[c], cfg.n_random, rng_for("jacot2023", "curve_random_inputs", c, cfg.n_random)
        )
        for c in cfg.curves
    }
    with torch.no_grad():
        random_x = torch.tensor(np.stack([inputs[c].T for c, _ in networks]), device=dev)
        outputs = model.forward(random_x).cpu().numpy().transpose(0, 2, 1)  # (B, n_random, 2)
        norm_per_layer = (model.squared_norm() / cfg.depth).cpu().numpy()
    ratio = jacobian_ratio(model, x)
    rows = []
    for b, (c, s) in enumerate(networks):
        polyline = curve_polyline(cfg.curve_width, c)
        rows.append(
            {
                "depth": cfg.depth,
                "width": cfg.width,
                "curve": c,
                "seed": s,
                **_fit(result, before, b),
                "norm_per_layer": norm_per_layer[b],
                "jacobian_ratio": ratio[b],
                "input_distance": distance_to_polyline(inputs[c], polyline).mean(),
                "output_distance": distance_to_polyline(outputs[b], polyline).mean(),
            }
        )
    first = pd.DataFrame(
        {
            "depth": cfg.depth,
            "input_x": inputs[cfg.curves[0]][:, 0],
            "input_y": inputs[cfg.curves[0]][:, 1],
            "output_x": outputs[0][:, 0],
            "output_y": outputs[0][:, 1],
        }
    )
    return pd.DataFrame(rows), first


def jacobian_rank(model, images: torch.Tensor, network: int, rel_tol: float) -> int:
    """Median over the images (rows) of the number of singular values of network `network`'s
    Jacobian there above rel_tol times the largest."""

    def f(v):
        return model.forward(v[:, None])[network, :, 0]

    ranks = []
    for image in images:
        jac = torch.autograd.functional.jacobian(f, image, vectorize=True)
        s = torch.linalg.svdvals(jac.double())
        ranks.append(int((s > rel_tol * s[0]).sum()))
    return int(np.median(ranks))


def pca_noise_share(train: np.ndarray, noise: np.ndarray, rank: int) -> float:
    """Mean over the noise vectors (rows) of ||P e|| / ||e||, P the projection on the `rank`
    leading principal directions of the training images (rows)."""
    _, _, vt = np.linalg.svd(train - train.mean(axis=0), full_matrices=False)
    kept = noise @ vt[:rank].T
    return float((np.linalg.norm(kept, axis=1) / np.linalg.norm(noise, axis=1)).mean())


def train_mnist(
    data: dict,
    depth: int,
    width: int,
    lam: float,
    phases,
    noise: float,
    n_noisy: int,
    seeds,
    rank_rel_tol: float,
    dtype="float32",
    device="auto",
    log=None,
) -> pd.DataFrame:
    """One MNIST autoencoder per seed (Fig. 3's initialization and noise for that seed: `noise`
    the std added to each pixel of `n_noisy` training digits), trained together; per network:
    fit, the share of the noise it passes, its Jacobian's rank at the clean digits and the
    share a PCA projection of that rank passes."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    torch_dtype = getattr(torch, dtype)
    train = data["x_train"]
    x = torch.tensor(train.T, dtype=torch_dtype, device=dev)
    init = [derive_seed("jacot2023", "autoencoder", "mnist", s, depth, width) for s in seeds]
    widths = (x.shape[0], *([width] * (depth - 1)), x.shape[0])
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), init, dev, torch_dtype)
    result, before = _train_converging(model, x, lam, phases, dtype, log)
    shown = np.linspace(0, len(train) - 1, n_noisy).round().astype(int)
    clean = train[shown]
    rows = []
    for b, seed in enumerate(seeds):
        rng = rng_for("jacot2023", "mnist_noise", seed, noise, clean.shape)
        e = noise * rng.normal(size=clean.shape)
        with torch.no_grad():
            both = torch.tensor(np.concatenate([clean, clean + e]).T, dtype=torch_dtype, device=dev)
            out = model.forward(both)[b].cpu().double().numpy().T
        passed = np.linalg.norm(out[len(clean) :] - out[: len(clean)], axis=1)
        rank = jacobian_rank(
            model, torch.tensor(clean, dtype=torch_dtype, device=dev), b, rank_rel_tol
        )
        rows.append(
            {
                "depth": depth,
                "width": width,
                "seed": seed,
                **_fit(result, before, b),
                "noise_share": float((passed / np.linalg.norm(e, axis=1)).mean()),
                "jacobian_rank": rank,
                "pca_noise_share": pca_noise_share(train, e, rank),
            }
        )
    return pd.DataFrame(rows)
