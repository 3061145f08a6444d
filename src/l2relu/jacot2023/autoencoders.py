"""Fig. 3: L2-regularized autoencoders, deep and shallow, on MNIST and on a curve in the
plane; how far their outputs for noisy or random inputs land from the data."""

import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023.data import curve_points, curve_polyline
from l2relu.training import engine
from l2relu.training.seeding import derive_seed, rng_for


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


@dataclass(frozen=True)
class CurveData:
    curve_width: int  # width of the random ReLU net R -> R^2 drawing each curve (its kinks)
    n_train: int  # points g(t), t ~ N(0, 1), an autoencoder is fitted to
    n_random: int  # random inputs, uniform in the curve's bounding box (green in the figure)


@dataclass(frozen=True)
class Settling:
    # the largest relative change of a network's objective over a stretch that settles it
    bar: float
    max_repeats: int  # the most repeats of the last phase


def train_converging(model, x, lam, phases, dtype, log=None, settling: Settling | None = None):
    """All phases but the last, then the last (a small step), then, with `settling`, the last
    again while some network's objective still moved by more than the bar over the stretch
    before (at most max_repeats times). Returns the result, each network's objective before the
    last stretch (for a convergence criterion) and the repeats trained."""
    kw = {"log": log} if log else {}
    first = engine.TrainConfig(
        "mse", tuple(phases[:-1]), dtype=dtype, log_every=phases[0].steps // 5
    )
    before = engine.train(model, x, x, lam, first, **kw).objective
    last = engine.TrainConfig(
        "mse", tuple(phases[-1:]), dtype=dtype, log_every=phases[-1].steps // 2
    )
    result = engine.train(model, x, x, lam, last, **kw)
    repeats = 0
    while settling and repeats < settling.max_repeats:
        change = np.abs(1 - result.objective / before)
        moving = np.isfinite(change) & (change > settling.bar)
        if not moving.any():
            break
        print(
            f"[{moving.sum()} networks moved > {settling.bar:.0%}: last phase again]",
            file=sys.stderr,
        )
        before, repeats = result.objective, repeats + 1
        result = engine.train(model, x, x, lam, last, **kw)
    return result, before, repeats


def fit_record(result, before, repeats: int, b: int) -> dict:
    """Network b's fit: data loss, objective, objective before the last stretch of training
    (the last phase, or its last repeat), the repeats, divergence."""
    return {
        "loss": result.loss[b],
        "objective": result.objective[b],
        "objective_before_last_phase": before[b],
        "last_phase_repeats": repeats,
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
    # on the host: a CUDA median along a dimension has no deterministic kernel
    return (s[..., 1] / s[..., 0]).detach().cpu().median(dim=1).values.numpy()


def curve_random_inputs(data: CurveData, curve: int) -> np.ndarray:
    """The random inputs of a curve: n_random points uniform in its points' bounding box."""
    points = curve_points(data.curve_width, data.n_train, curve)
    rng = rng_for("jacot2023", "curve_random_inputs", curve, data.n_random)
    return uniform_in_box(points, data.n_random, rng)


def curve_measures(model, x: torch.Tensor, data: CurveData, networks, arch: Architecture):
    """What the autoencoders of one architecture do (network b, labelled networks[b] = (curve,
    seed), fitted to the points x[b] of its curve): per network ||W||^2 / L, the Jacobian's
    s_2/s_1 at the data and the mean distances of the random inputs and of their outputs to the
    curve; and every network's random inputs with their outputs."""
    curves = list(dict.fromkeys(c for c, _ in networks))
    inputs = {c: curve_random_inputs(data, c) for c in curves}
    with torch.no_grad():
        random_x = torch.tensor(np.stack([inputs[c].T for c, _ in networks]), device=x.device)
        outputs = model.forward(random_x).cpu().numpy().transpose(0, 2, 1)  # (B, n_random, 2)
        norm_per_layer = (model.squared_norm() / arch.depth).cpu().numpy()
    ratio = jacobian_ratio(model, x)
    rows = []
    for b, (c, _) in enumerate(networks):
        polyline = curve_polyline(data.curve_width, c)
        rows.append(
            {
                "norm_per_layer": norm_per_layer[b],
                "jacobian_ratio": ratio[b],
                "input_distance": distance_to_polyline(inputs[c], polyline).mean(),
                "output_distance": distance_to_polyline(outputs[b], polyline).mean(),
            }
        )
    moved = pd.concat(
        [
            pd.DataFrame(
                {
                    "depth": arch.depth,
                    "curve": c,
                    "seed": s,
                    "input_x": inputs[c][:, 0],
                    "input_y": inputs[c][:, 1],
                    "output_x": outputs[b][:, 0],
                    "output_y": outputs[b][:, 1],
                }
            )
            for b, (c, s) in enumerate(networks)
        ],
        ignore_index=True,
    )
    return rows, moved


def curves_data(data: CurveData, networks, device) -> torch.Tensor:
    """(B, 2, N) float64: network b's training points, those of its curve networks[b][0]."""
    points = {c: curve_points(data.curve_width, data.n_train, c) for c, _ in networks}
    return torch.tensor(np.stack([points[c].T for c, _ in networks]), device=device)


def train_curves(
    data: CurveData,
    networks,
    init_seeds,
    arch: Architecture,
    lam: float,
    phases,
    device="auto",
    log=None,
    settling: Settling | None = None,
):
    """Autoencoders of one architecture on curves, trained together (float64): network b,
    labelled networks[b] = (curve, seed), is fitted to that curve's points from the
    initialization init_seeds[b]. Returns one row per network (fit, then curve_measures'), every
    network's random inputs with their outputs, and the trained networks' arrays."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    x = curves_data(data, networks, dev)
    widths = (2, *([arch.width] * (arch.depth - 1)), 2)
    model = engine.BatchedMLP(
        engine.NetworkConfig(widths, bias=True), list(init_seeds), dev, torch.float64
    )
    result, before, repeats = train_converging(model, x, lam, phases, "float64", log, settling)
    measures, moved = curve_measures(model, x, data, networks, arch)
    rows = [
        {"depth": arch.depth, "width": arch.width, "curve": c, "seed": s}
        | fit_record(result, before, repeats, b)
        | measures[b]
        for b, (c, s) in enumerate(networks)
    ]
    return pd.DataFrame(rows), moved, engine.stacked_arrays(model)


def figure_curves(data: CurveData, seeds, arch: Architecture, lam: float, phases, device="auto"):
    """Fig. 3 B/C: one autoencoder per seed, each on the curve of its own seed, from an
    initialization drawn from that seed and the architecture."""
    init = [
        derive_seed("jacot2023", "autoencoder", "curve", s, arch.depth, arch.width) for s in seeds
    ]
    return train_curves(data, [(s, s) for s in seeds], init, arch, lam, phases, device)


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
    of them through it (denoise). Returns (images: clean, noisy, output (n, 784)), summary and
    the trained network's arrays."""
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
    images, measures = denoise(model, data, noise)
    return images, summary | measures, engine.stacked_arrays(model)


def denoise(model, data: dict, noise: NoiseConfig):
    """Noisy copies of some training digits sent through an MNIST autoencoder (Section 5's
    argument is local to the data: near a data point a rank-recovering autoencoder projects
    onto the data's tangent space). Returns (images: clean, noisy, output, reconstruction
    (n, 784)) and the mean distances of the noisy inputs and of their outputs to the clean
    digits, and the share of the noise the outputs pass."""
    shown = np.linspace(0, len(data["x_train"]) - 1, noise.n_noisy).round().astype(int)
    clean = data["x_train"][shown]  # spread over the digits (the set is grouped by digit)
    rng = rng_for("jacot2023", "mnist_noise", noise.seed, noise.noise, clean.shape)
    noisy = clean + noise.noise * rng.normal(size=clean.shape)
    output, reconstruction = apply(model, noisy), apply(model, clean)
    noise_norm = np.linalg.norm(noisy - clean, axis=1)
    measures = {
        "input_distance": float(noise_norm.mean()),
        "output_distance": float(np.linalg.norm(output - clean, axis=1).mean()),
        # how much of the noise reaches the output: ~1 for the identity, ~0 for a projection
        # onto the data's tangent space (Section 5's mechanism)
        "noise_response": float(
            (np.linalg.norm(output - reconstruction, axis=1) / noise_norm).mean()
        ),
    }
    images = {"clean": clean, "noisy": noisy, "output": output, "reconstruction": reconstruction}
    return images, measures
