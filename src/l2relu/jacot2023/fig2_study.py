"""A study of Fig. 2's tripoints: many seeds (each a data set and an initialization), depths
2 to 9, with and without L2, two families of S-shaped classes, read in the data's box and in a
wider one; networks that do not fit their training set are counted and left out."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu import engine
from l2relu.jacot2023.classes import count_tripoints
from l2relu.jacot2023.data import s_classes
from l2relu.seeding import derive_seed


@dataclass(frozen=True)
class Family:
    name: str  # "bands": Fig. 2's data; others: the same S, other proportions
    amplitude: float  # the S is x = amplitude sin(pi y), y in [-1, 1]
    spacing: float  # translation along x between consecutive classes


@dataclass(frozen=True)
class StudyConfig:
    family: Family
    classes: int  # as Fig. 2
    per_class: int  # as Fig. 2
    noise: float  # as Fig. 2
    depth: int  # L, the number of weight matrices
    width: int  # as Fig. 2
    lams: tuple[float, ...]  # with and without L2, as Fig. 2
    seeds: tuple[int, ...]  # one data set and one initialization per seed and lambda
    grid: int  # the class map is read on grid x grid points
    pad: float  # the wider box: the data's box scaled by this about its centre


def data_sets(cfg: StudyConfig):
    """Per seed: (points (N, 2), labels (N,)); the labels are the same for every seed."""
    f = cfg.family
    return [
        s_classes(cfg.classes, cfg.per_class, f.amplitude, f.spacing, cfg.noise, seed)
        for seed in cfg.seeds
    ]


def box_grid(points: np.ndarray, size: int, pad: float) -> np.ndarray:
    """(2, size^2) grid over the data's bounding box scaled by `pad` about its centre."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre, half = (lo + hi) / 2, pad * (hi - lo) / 2
    xs = np.linspace(centre[0] - half[0], centre[0] + half[0], size)
    ys = np.linspace(centre[1] - half[1], centre[1] + half[1], size)
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel()])


def train(cfg: StudyConfig, phases, device="auto", log=None) -> pd.DataFrame:
    """Every (seed, lambda) network of one depth and family, trained together, each on its
    seed's data set. One row per network: fit, divergence, tripoints in both boxes."""
    dev = engine.pick_device(device)
    sets = data_sets(cfg)
    networks = [(seed, lam) for seed in cfg.seeds for lam in cfg.lams]
    x = torch.tensor(
        np.stack([sets[cfg.seeds.index(seed)][0].T for seed, _ in networks]), device=dev
    )
    y = torch.tensor(sets[0][1], device=dev)
    # Fig. 2's initializations (its train_panels derives them the same way)
    init = [derive_seed("jacot2023", "fig2", cfg.depth, cfg.width, lam, s) for s, lam in networks]
    widths = (2, *([cfg.width] * (cfg.depth - 1)), cfg.classes)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), init, dev, torch.float64)
    config = engine.TrainConfig("cross_entropy", phases, log_every=phases[0].steps // 5)
    lams = [lam for _, lam in networks]
    result = engine.train(model, x, y, lams, config, **({"log": log} if log else {}))
    with torch.no_grad():
        accuracy = (model.forward(x).argmax(1) == y).double().mean(1).cpu().numpy()
        counts = {}
        for box, pad in (("box", 1.0), ("padded", cfg.pad)):
            grid = np.stack(
                [box_grid(sets[cfg.seeds.index(s)][0], cfg.grid, pad) for s, _ in networks]
            )
            labels = model.forward(torch.tensor(grid, device=dev)).argmax(1).cpu().numpy()
            counts[box] = [count_tripoints(m.reshape(cfg.grid, cfg.grid)) for m in labels]
    return pd.DataFrame(
        {
            "family": cfg.family.name,
            "depth": cfg.depth,
            "seed": [s for s, _ in networks],
            "lam": lams,
            "loss": result.loss,
            "objective": result.objective,
            "train_accuracy": accuracy,
            **result.record(),
            "tripoints_box": counts["box"],
            "tripoints_padded": counts["padded"],
        }
    )
