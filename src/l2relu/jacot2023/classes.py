"""Fig. 2: class regions of shallow and deep networks on four translated inverted S's, and the
tripoints where three class regions meet."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from scipy import ndimage

from l2relu.jacot2023.data import s_classes
from l2relu.training import engine, polish
from l2relu.training.seeding import derive_seed

SHAPES = ("inverted_s",)


@dataclass(frozen=True)
class ClassesConfig:
    classes: int  # 4 in the paper
    per_class: int  # points a class (not stated)
    amplitude: float  # the S is x = amplitude sin(pi y), y in [-1, 1]
    spacing: float  # translation along x between consecutive classes
    noise: float  # std of the Gaussian noise around the stroke
    seed: int  # draws the points and the initializations
    grid: int  # the class map is read on grid x grid points over the data's bounding box


def data(cfg: ClassesConfig):
    return s_classes(cfg.classes, cfg.per_class, cfg.amplitude, cfg.spacing, cfg.noise, cfg.seed)


def grid_points(points: np.ndarray, size: int):
    """(xs, ys) of a size x size grid spanning the data's bounding box."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    return np.linspace(lo[0], hi[0], size), np.linspace(lo[1], hi[1], size)


def train_panels(cfg: ClassesConfig, depth: int, width: int, lams, phases, device="auto", log=None):
    """One network per lambda (with and without L2), trained together on cross-entropy + lambda
    ||W||^2. Returns the class map (one row per grid point and lambda), a summary a lambda and
    the trained networks' arrays (engine.stacked_arrays)."""
    dev = engine.pick_device(device)
    points, labels = data(cfg)
    x = torch.tensor(points.T, device=dev)
    y = torch.tensor(labels, device=dev)
    seeds = [derive_seed("jacot2023", "fig2", depth, width, lam, cfg.seed) for lam in lams]
    widths = (2, *([width] * (depth - 1)), cfg.classes)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), seeds, dev, torch.float64)
    train_config = engine.TrainConfig("cross_entropy", phases, log_every=phases[0].steps // 5)
    result = engine.train(model, x, y, list(lams), train_config, **({"log": log} if log else {}))
    trained = {"loss": result.loss, "objective": result.objective}
    regions, summary = class_maps(model, cfg, width, lams, trained | result.record())
    return regions, summary, engine.stacked_arrays(model)


def class_maps(model: engine.BatchedMLP, cfg: ClassesConfig, width: int, lams, runs: dict):
    """The class map of every network of a batch (one per lambda) on the grid over the data,
    and a summary a network: `runs` (columns of the training, one value a network), training
    accuracy and the tripoints of its map."""
    dev = model.weights[0].device
    depth = len(model.weights)
    points, labels = data(cfg)
    xs, ys = grid_points(points, cfg.grid)
    gx, gy = np.meshgrid(xs, ys)
    grid = torch.tensor(np.stack([gx.ravel(), gy.ravel()]), device=dev)
    with torch.no_grad():
        predicted = model.forward(grid).argmax(1).cpu().numpy()  # (lams, grid points)
        x, y = torch.tensor(points.T, device=dev), torch.tensor(labels, device=dev)
        accuracy = (model.forward(x).argmax(1) == y).double().mean(1).cpu().numpy()
    regions = pd.concat(
        pd.DataFrame(
            {"depth": depth, "lam": lam, "x": gx.ravel(), "y": gy.ravel(), "label": predicted[i]}
        )
        for i, lam in enumerate(lams)
    )
    first = {k: runs[k] for k in ("loss", "objective")}
    summary = pd.DataFrame(
        {
            "depth": depth,
            "width": width,
            "lam": list(lams),
            **first,
            "train_accuracy": accuracy,
            **{k: v for k, v in runs.items() if k not in first},
            "tripoints": [
                count_tripoints(predicted[i].reshape(cfg.grid, cfg.grid)) for i in range(len(lams))
            ],
        }
    )
    return regions, summary


def polish_panels(arrays: dict, cfg: ClassesConfig, width: int, lams, iterations: int, device):
    """The networks of one depth trained with L2 (lambda > 0; without it cross-entropy has no
    minimum: it falls as the weights grow) polished to a stationary point of cross-entropy +
    lambda ||W||^2 (l2relu.training.polish), each alone. Returns their class maps and summary
    (class_maps), their arrays (stacked, in the order of their lambdas) and the certificate of
    both networks of each (column lam)."""
    regularized = [i for i, lam in enumerate(lams) if lam > 0]
    polished_lams = [lams[i] for i in regularized]
    points, labels = data(cfg)
    x, y = torch.tensor(points.T), torch.tensor(labels)
    model = polish.stacked_networks(arrays, regularized)
    config = polish.PolishConfig(
        iterations, "cross_entropy", log_every=max(1, iterations // 5), device=device
    )
    polished, after, both = polish.polish_and_certify(model, x, y, polished_lams, config)
    objective = after.objective.to_numpy()
    runs = {
        "loss": after.loss.to_numpy(),
        "objective": objective,
        # the line search never accepts a step to a non-finite objective
        "diverged": ~np.isfinite(objective),
        "diverged_step": -1,
        "device": str(polished.weights[0].device),
        "dtype": "float64",
    }
    regions, summary = class_maps(polished, cfg, width, polished_lams, runs)
    certificate = both.assign(lam=[polished_lams[i] for i in both["index"]])
    return regions, summary, engine.stacked_arrays(polished), certificate


def tripoint_cells(label_map: np.ndarray) -> np.ndarray:
    """Boolean (rows - 1, cols - 1): grid cells whose four corners carry three or more
    classes, i.e. cells where three class regions meet."""
    corners = np.stack(
        [label_map[:-1, :-1], label_map[1:, :-1], label_map[:-1, 1:], label_map[1:, 1:]], axis=-1
    )
    ordered = np.sort(corners, axis=-1)
    distinct = 1 + (np.diff(ordered, axis=-1) != 0).sum(axis=-1)
    return distinct >= 3


def count_tripoints(label_map: np.ndarray) -> int:
    """Tripoints on a class map: connected groups (8-neighbours) of tripoint cells, so that one
    meeting point read on two adjacent cells counts once."""
    _, count = ndimage.label(tripoint_cells(label_map), structure=np.ones((3, 3)))
    return int(count)
