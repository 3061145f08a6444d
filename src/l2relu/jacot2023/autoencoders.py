"""Fig. 3: L2-regularized autoencoders, deep and shallow, on MNIST and on a curve in the
plane; how far their outputs for noisy or random inputs land from the data."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu import engine
from l2relu.jacot2023.data import curve_points, curve_polyline
from l2relu.seeding import derive_seed, rng_for


@dataclass(frozen=True)
class Architecture:
    depth: int  # L, the number of weight matrices
    width: int  # every hidden layer


def train(
    x: np.ndarray,
    arch: Architecture,
    lam: float,
    phases,
    seed_parts,
    dtype="float64",
    device="auto",
    log=None,
):
    """Fit f(x) = x on the columns of x (d, N) with loss (1/N) sum |f(x) - x|^2 + lam ||W||^2
    (the ridge of Fig. 3's caption). Returns the trained model and its final summary."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    torch_dtype = getattr(torch, dtype)
    data = torch.tensor(x, dtype=torch_dtype, device=dev)
    seed = derive_seed("jacot2023", "autoencoder", *seed_parts, arch.depth, arch.width)
    d = x.shape[0]
    widths = (d, *([arch.width] * (arch.depth - 1)), d)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), [seed], dev, torch_dtype)
    config = engine.TrainConfig("mse", phases, dtype=dtype, log_every=phases[0].steps // 5)
    result = engine.train(model, data, data, lam, config, **({"log": log} if log else {}))
    summary = {
        "depth": arch.depth,
        "width": arch.width,
        "loss": float(result.loss[0]),
        "objective": float(result.objective[0]),
        **result.record(0),
    }
    return model, summary


def apply(model, points: np.ndarray) -> np.ndarray:
    """The autoencoder's outputs for the rows of points."""
    weights = model.weights[0]
    with torch.no_grad():
        x = torch.tensor(points.T, dtype=weights.dtype, device=weights.device)
        return model.forward(x)[0].cpu().double().numpy().T


def distance_to_polyline(points: np.ndarray, polyline: np.ndarray) -> np.ndarray:
    """Euclidean distance of each row of points to a dense polyline (its segments)."""
    a, b = polyline[:-1], polyline[1:]
    ab = b - a
    t = ((points[:, None, :] - a[None]) * ab[None]).sum(-1) / np.maximum((ab**2).sum(-1), 1e-300)
    nearest = a[None] + np.clip(t, 0.0, 1.0)[..., None] * ab[None]
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(-1)).min(axis=1)


def uniform_in_box(points: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n random inputs uniform in the data's bounding box."""
    return rng.uniform(points.min(axis=0), points.max(axis=0), size=(n, points.shape[1]))


def curve_table(depth: int, inputs, outputs, polyline) -> pd.DataFrame:
    """One row per random input: where it is, where the autoencoder sends it, and both
    distances to the curve."""
    return pd.DataFrame(
        {
            "depth": depth,
            "input_x": inputs[:, 0],
            "input_y": inputs[:, 1],
            "output_x": outputs[:, 0],
            "output_y": outputs[:, 1],
            "input_distance": distance_to_polyline(inputs, polyline),
            "output_distance": distance_to_polyline(outputs, polyline),
        }
    )


@dataclass(frozen=True)
class CurveConfig:
    curve_width: int  # width of the random ReLU net R -> R^2 drawing the curve
    n_train: int  # points g(t), t ~ N(0, 1), the autoencoder is fitted to
    n_random: int  # random inputs, uniform in the data's bounding box (green in the figure)
    seed: int  # draws the curve, its points and the random inputs


def curve_experiment(
    cfg: CurveConfig, arch: Architecture, lam: float, phases, device="auto", log=None
):
    """Fig. 3 B/C: fit one autoencoder to the curve's points and send random inputs through
    it. Returns (one row per random input, summary)."""
    points = curve_points(cfg.curve_width, cfg.n_train, cfg.seed)
    model, summary = train(points.T, arch, lam, phases, ("curve", cfg.seed), device=device, log=log)
    rng = rng_for("jacot2023", "curve_random_inputs", cfg.seed, cfg.n_random)
    inputs = uniform_in_box(points, cfg.n_random, rng)
    polyline = curve_polyline(cfg.curve_width, cfg.seed)
    table = curve_table(arch.depth, inputs, apply(model, inputs), polyline)
    summary |= {
        "input_distance": float(table.input_distance.mean()),
        "output_distance": float(table.output_distance.mean()),
    }
    return table, summary


@dataclass(frozen=True)
class NoiseConfig:
    noise: float  # std of the Gaussian noise added to every pixel of a clean image
    n_noisy: int  # training digits shown noisy, spread evenly over the training set
    seed: int  # draws the noise


def mnist_experiment(
    data: dict,
    arch: Architecture,
    lam: float,
    phases,
    noise: NoiseConfig,
    dtype="float32",
    device="auto",
    log=None,
):
    """Fig. 3 A: fit one autoencoder to MNIST training images, then send noisy copies of some
    of them through it (Section 5's argument is local to the data: near a data point a
    rank-recovering autoencoder projects onto the data's tangent space). Returns (images:
    clean, noisy, output (n, 784)), summary."""
    model, summary = train(
        data["x_train"].T,
        arch,
        lam,
        phases,
        ("mnist", noise.seed),
        dtype=dtype,
        device=device,
        log=log,
    )
    shown = np.linspace(0, len(data["x_train"]) - 1, noise.n_noisy).round().astype(int)
    clean = data["x_train"][shown]  # spread over the digits (the set is grouped by digit)
    rng = rng_for("jacot2023", "mnist_noise", noise.seed, noise.noise, clean.shape)
    noisy = clean + noise.noise * rng.normal(size=clean.shape)
    output, reconstruction = apply(model, noisy), apply(model, clean)
    noise_norm = np.linalg.norm(noisy - clean, axis=1)
    summary |= {
        "input_distance": float(noise_norm.mean()),
        "output_distance": float(np.linalg.norm(output - clean, axis=1).mean()),
        # how much of the noise reaches the output: ~1 for the identity, ~0 for a projection
        # onto the data's tangent space (Section 5's mechanism)
        "noise_response": float(
            (np.linalg.norm(output - reconstruction, axis=1) / noise_norm).mean()
        ),
    }
    images = {"clean": clean, "noisy": noisy, "output": output, "reconstruction": reconstruction}
    return images, summary
