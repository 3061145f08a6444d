"""A study of Fig. 3's autoencoders: do deep autoencoders, trained to convergence, project onto
the data? On several smooth random curves in the plane, several initializations each, at depths
2 to 12: how far outputs land from the curve, the Jacobian's second singular value at the data
over its first, and ||W||^2 / L. On MNIST: how much noise a deep autoencoder passes, against
PCA projections of the training digits of every rank (the ledger's readings pick the rank: the
digits' intrinsic dimension, or a share of their variance)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023 import autoencoders
from l2relu.training import engine
from l2relu.training.seeding import derive_seed, rng_for


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


def train_curves(cfg: CurveStudyConfig, phases, device="auto", log=None, settling=None):
    """Every (curve, seed) autoencoder of one depth, trained together, each on its curve.
    Returns one row per network, the outputs of the first network's random inputs and the
    trained networks (engine.stacked_arrays, in the rows' order)."""
    networks = [(c, s) for c in cfg.curves for s in cfg.seeds]
    init = [
        derive_seed("jacot2023", "fig3_study", cfg.curve_width, c, s, cfg.depth, cfg.width)
        for c, s in networks
    ]
    table, moved, arrays = autoencoders.train_curves(
        autoencoders.CurveData(cfg.curve_width, cfg.n_train, cfg.n_random),
        networks,
        init,
        autoencoders.Architecture(cfg.depth, cfg.width),
        cfg.lam,
        phases,
        device,
        log,
        settling,
    )
    first = moved[(moved.curve == networks[0][0]) & (moved.seed == networks[0][1])]
    return table, first.drop(columns=["curve", "seed"]).reset_index(drop=True), arrays


def jacobian_norms(model, images: torch.Tensor, network: int) -> np.ndarray:
    """The largest singular value of network `network`'s Jacobian at each image (rows): 0 where
    the network is constant around the image."""

    def f(v):
        return model.forward(v[:, None])[network, :, 0]

    jacobians = [torch.autograd.functional.jacobian(f, image, vectorize=True) for image in images]
    return np.array([torch.linalg.matrix_norm(j.double(), ord=2).item() for j in jacobians])


def intrinsic_dimension(points: np.ndarray) -> float:
    """The TwoNN estimate (Facco et al. 2017, its maximum-likelihood form) of the dimension of
    the set the points (rows) are drawn from: from each point's two nearest neighbours at
    distances r1 <= r2, N over the sum of log(r2 / r1). It needs no scale or neighbourhood size.
    Repeated points count once (a duplicate's distance 0 says nothing of the dimension)."""
    x = np.unique(np.asarray(points, dtype=np.float64), axis=0)
    if len(x) < 3:
        raise ValueError(f"an intrinsic dimension needs 3 distinct points, got {len(x)}")
    squared = np.sum(x**2, axis=1)
    # the Gram form keeps memory at N x N (the difference form needs N x N x d)
    dist2 = np.maximum(squared[:, None] + squared[None] - 2 * x @ x.T, 0)
    np.fill_diagonal(dist2, np.inf)
    r1, r2 = np.sqrt(np.partition(dist2, 1, axis=1)[:, :2]).T
    log_ratio = np.log(r2 / r1)
    if not log_ratio.sum() > 0:
        raise ValueError("every point's two nearest neighbours are equidistant: no dimension")
    return float(len(x) / log_ratio.sum())


def projections(train: np.ndarray, noise: np.ndarray) -> pd.DataFrame:
    """Per rank r, from 0 to the number of principal directions of the training images (rows):
    the share of their variance the r leading directions hold, and the share of the noise (rows,
    mean over them of ||P_r e|| / ||e||) the projection P_r on those directions passes."""
    _, s, vt = np.linalg.svd(train - train.mean(axis=0), full_matrices=False)
    along = (noise @ vt.T) ** 2  # each noise vector's energy along each principal direction
    passed = np.sqrt(np.cumsum(along, axis=1)) / np.linalg.norm(noise, axis=1, keepdims=True)
    return pd.DataFrame(
        {
            "rank": np.arange(len(s) + 1),
            "variance_held": np.concatenate([[0.0], np.cumsum(s**2) / np.sum(s**2)]),
            "pca_noise_share": np.concatenate([[0.0], passed.mean(axis=0)]),
        }
    )


def train_mnist(
    data: dict,
    depth: int,
    width: int,
    lam: float,
    phases,
    noise: float,
    n_noisy: int,
    seeds,
    dtype="float32",
    device="auto",
    log=None,
    settling: autoencoders.Settling | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """One MNIST autoencoder per seed (Fig. 3's initialization and noise for that seed: `noise`
    the std added to each pixel of `n_noisy` training digits), trained together. Returns two
    tables: per network, its fit and noise_measures'; per network and rank, `projections` of
    the training digits with that seed's noise; and the trained networks (engine.stacked_arrays,
    in seed order)."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    torch_dtype = getattr(torch, dtype)
    train = data["x_train"]
    x = torch.tensor(train.T, dtype=torch_dtype, device=dev)
    init = [derive_seed("jacot2023", "autoencoder", "mnist", s, depth, width) for s in seeds]
    widths = (x.shape[0], *([width] * (depth - 1)), x.shape[0])
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), init, dev, torch_dtype)
    result, before, repeats = autoencoders.train_converging(
        model, x, lam, phases, dtype, log, settling
    )
    measures, shares = noise_measures(model, train, noise, n_noisy, seeds)
    rows = [
        {"depth": depth, "width": width, "seed": seed}
        | autoencoders.fit_record(result, before, repeats, b)
        | measures[b]
        for b, seed in enumerate(seeds)
    ]
    return pd.DataFrame(rows), shares, engine.stacked_arrays(model)


def noise_measures(model, train: np.ndarray, noise: float, n_noisy: int, seeds):
    """What MNIST autoencoders do near the digits (network b, seed seeds[b], fitted to the
    training digits `train` (rows)): per network, the share of the noise (`noise` the std added
    to each pixel of `n_noisy` training digits, drawn from the seed) it passes and the largest
    singular value of its Jacobian at the clean digits (0 when the network is constant around
    every one); and per network and rank, `projections` of the digits with that noise."""
    weights = model.weights[0]
    torch_dtype, dev = weights.dtype, weights.device
    depth, width = len(model.weights), model.config.widths[1]
    shown = np.linspace(0, len(train) - 1, n_noisy).round().astype(int)
    clean = train[shown]
    rows, shares = [], []
    for b, seed in enumerate(seeds):
        rng = rng_for("jacot2023", "mnist_noise", seed, noise, clean.shape)
        e = noise * rng.normal(size=clean.shape)
        with torch.no_grad():
            both = torch.tensor(np.concatenate([clean, clean + e]).T, dtype=torch_dtype, device=dev)
            out = model.forward(both)[b].cpu().double().numpy().T
        passed = np.linalg.norm(out[len(clean) :] - out[: len(clean)], axis=1)
        norms = jacobian_norms(model, torch.tensor(clean, dtype=torch_dtype, device=dev), b)
        rows.append(
            {
                "noise_share": float((passed / np.linalg.norm(e, axis=1)).mean()),
                "jacobian_norm": float(np.max(norms)),
            }
        )
        network = {"depth": depth, "width": width, "seed": seed}
        shares.append(projections(train, e).assign(**network))
    return rows, pd.concat(shares)
