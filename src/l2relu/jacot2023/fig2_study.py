"""A study of Fig. 2's tripoints: many seeds (each a data set and an initialization), the
figure's two depths, with and without L2, three families of S-shaped classes (two interleaved,
one not) drawn with a margin between classes. Each network's class map is read once, in the
widest box, at the cell size of Fig. 2's grid over the data's box, and each smaller box is a
crop of it; the maps are saved. Whether the tripoints have settled is read by counting them
again four fifths of the way through training. The networks trained with L2 are also read
polished (polishing.polish_fig2_study)."""

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023.classes import count_tripoints
from l2relu.jacot2023.data import inverted_s
from l2relu.training import engine
from l2relu.training.seeding import derive_seed, rng_for

STROKE_SAMPLES = 4001  # points a stroke is sampled on to measure a point's distance to it


@dataclass(frozen=True)
class Family:
    name: str  # "bands": Fig. 2's data; others: the same S, other proportions
    amplitude: float  # the S is x = amplitude sin(pi y), y in [-1, 1]
    spacing: float  # translation along x between consecutive classes

    @property
    def interleaved(self) -> bool:
        """Whether neighbouring S's overlap along x, so that no vertical line parts them."""
        return self.spacing < 2 * self.amplitude


@dataclass(frozen=True)
class StudyConfig:
    family: Family
    classes: int  # as Fig. 2
    per_class: int  # as Fig. 2
    noise: float  # as Fig. 2
    margin: float  # a point is at least this much nearer its own stroke than any other class's
    depth: int  # L, the number of weight matrices
    width: int  # hidden width at this depth
    lams: tuple[float, ...]  # with and without L2, as Fig. 2
    seeds: tuple[int, ...]  # one data set and one initialization per seed and lambda
    grid: int  # the class map is read on grid x grid points
    pads: tuple[float, ...]  # the boxes: the data's box scaled by each about its centre

    @classmethod
    def from_dict(cls, study: dict) -> "StudyConfig":
        """The config from its plain form (a rule's params, a checkpoint's config)."""
        tuples = {k: tuple(study[k]) for k in ("lams", "seeds", "pads")}
        return cls(**study | tuples | {"family": Family(**study["family"])})

    def as_dict(self) -> dict:
        """The plain form from_dict reads (lists, numbers, strings)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def stroke_distance(points: np.ndarray, amplitude: float, offset: float) -> np.ndarray:
    """Each point's distance to the stroke x = offset + amplitude sin(pi y), y in [-1, 1]."""
    y = np.linspace(-1.0, 1.0, STROKE_SAMPLES)
    stroke = np.stack([offset + amplitude * np.sin(np.pi * y), y], axis=1)
    gaps = points[:, None, :] - stroke[None]
    return np.sqrt((gaps**2).sum(-1)).min(axis=1)


def margin_classes(family: Family, classes: int, per_class: int, noise: float, margin: float, seed):
    """Fig. 2's classes (translated inverted S's with Gaussian noise), each point kept only if
    it lies at least `margin` nearer its own stroke than its neighbours' on either side, so that
    training accuracy 1 is the nearest-stroke labelling and no point has to be memorised. The
    outer classes are held to strokes one spacing out too, so that every class is the same
    distribution translated. Points are drawn in rounds of `per_class` until a class has
    enough. Returns (points (N, 2), labels (N,))."""
    rng = rng_for(
        "jacot2023", "fig2_study", family.amplitude, family.spacing, noise, margin, per_class, seed
    )
    kept = []
    for c in range(classes):
        offset = c * family.spacing
        points = np.empty((0, 2))
        for _ in range(100):
            drawn = inverted_s(per_class, rng, family.amplitude, noise) + [offset, 0.0]
            own = stroke_distance(drawn, family.amplitude, offset)
            # strokes are translates that never cross: the nearest other is a neighbour
            neighbour = np.minimum(
                stroke_distance(drawn, family.amplitude, offset - family.spacing),
                stroke_distance(drawn, family.amplitude, offset + family.spacing),
            )
            points = np.concatenate([points, drawn[neighbour - own >= margin]])
            if len(points) >= per_class:
                break
        else:
            raise ValueError(f"{family.name}: too few points keep a margin of {margin:g}")
        kept.append(points[:per_class])
    return np.concatenate(kept), np.repeat(np.arange(classes), per_class)


def data_sets(cfg: StudyConfig):
    """Per seed: (points (N, 2), labels (N,)); the labels are the same for every seed."""
    return [
        margin_classes(cfg.family, cfg.classes, cfg.per_class, cfg.noise, cfg.margin, seed)
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


def map_size(grid: int, widest: float) -> int:
    """Cells a side of the widest box's map: its cells as large as those of a grid x grid map
    of the data's box, so that every box is read at one resolution."""
    return int(round(grid * widest))


def crop(label_map: np.ndarray, widest: float, pad: float) -> np.ndarray:
    """The part of a map of the widest box that lies in the box scaled by `pad`."""
    size = label_map.shape[0]
    offsets = np.abs(np.linspace(-widest, widest, size))
    inside = offsets <= pad * (1 + 1e-9)
    return label_map[np.ix_(inside, inside)]


def tripoints_per_box(label_map: np.ndarray, pads) -> list[int]:
    return [count_tripoints(crop(label_map, max(pads), pad)) for pad in pads]


CHUNK = 20_000  # grid points a forward pass reads at once, to bound its memory


def networks_of(cfg: StudyConfig) -> list[tuple[int, float]]:
    """The (seed, lambda) of every network, in the order a batch (and a checkpoint) holds them."""
    return [(seed, lam) for seed in cfg.seeds for lam in cfg.lams]


def class_maps(model: engine.BatchedMLP, grid: np.ndarray, size: int) -> np.ndarray:
    """Each network's classes on its own grid (networks, 2, size^2): (networks, size, size) int8."""
    dev = model.weights[0].device
    with torch.no_grad():
        labels = [
            model.forward(torch.tensor(grid[:, :, i : i + CHUNK], device=dev)).argmax(1)
            for i in range(0, grid.shape[2], CHUNK)
        ]
    return torch.cat(labels, 1).cpu().numpy().astype(np.int8).reshape(-1, size, size)


def reading_grid(cfg: StudyConfig, sets, networks):
    """Each network's data set stacked (networks, 2, N), the labels (N,), the grid of the widest
    box over each network's data (networks, 2, size^2) and the map's size."""
    points = [sets[cfg.seeds.index(seed)][0] for seed, _ in networks]
    widest, size = max(cfg.pads), map_size(cfg.grid, max(cfg.pads))
    grid = np.stack([box_grid(p, size, widest) for p in points])
    return np.stack([p.T for p in points]), sets[0][1], grid, size


def read_maps(model, x, y, grid, size, pads):
    """The class maps of the widest box, each map's tripoints per box, and training accuracy."""
    maps = class_maps(model, grid, size)
    with torch.no_grad():
        accuracy = (model.forward(x).argmax(1) == y).double().mean(1).cpu().numpy()
    return maps, [tripoints_per_box(m, pads) for m in maps], accuracy


def run_tables(cfg: StudyConfig, networks, counts, columns: dict):
    """The runs table (one row a network: `columns`) and the tripoints table (a row a box)."""
    keys = {
        "family": cfg.family.name,
        "interleaved": cfg.family.interleaved,
        "depth": cfg.depth,
        "width": cfg.width,
        "seed": [s for s, _ in networks],
        "lam": [lam for _, lam in networks],
    }
    runs = pd.DataFrame(keys | columns)
    tripoints = pd.DataFrame(
        [
            {k: (v[i] if isinstance(v, list) else v) for k, v in keys.items()}
            | {"pad": pad, "tripoints": counts[i][j]}
            for i in range(len(networks))
            for j, pad in enumerate(cfg.pads)
        ]
    )
    return runs, tripoints


def train(cfg: StudyConfig, phases, device="auto", log=None, snapshot_dir=None):
    """Every (seed, lambda) network of one depth and family, trained together, each on its
    seed's data set. Returns one row per network (fit, divergence; the share of the widest box
    whose class changed over the last fifth of the steps and whether any box's tripoint count
    did), one row per network and box (its tripoints), the class maps of the widest box
    (networks, size, size) as int8, and the trained networks (engine.stacked_arrays, in
    networks_of's order)."""
    dev = engine.pick_device(device)
    networks = networks_of(cfg)
    x, y, grid, size = reading_grid(cfg, data_sets(cfg), networks)
    x, y = torch.tensor(x, device=dev), torch.tensor(y, device=dev)
    init = [derive_seed("jacot2023", "fig2", cfg.depth, cfg.width, lam, s) for s, lam in networks]
    widths = (2, *([cfg.width] * (cfg.depth - 1)), cfg.classes)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), init, dev, torch.float64)
    total = sum(p.steps for p in phases)
    # the maps read at four fifths of the steps (the watch is called every total // 5 steps),
    # kept for a job resumed after that read
    watch = engine.ReadOnce(
        4 * (total // 5),
        lambda: {"maps": class_maps(model, grid, size)},
        snapshot_dir,
        "maps",
        (cfg, phases),
    )
    config = engine.TrainConfig("cross_entropy", phases, log_every=total // 5)
    lams = [lam for _, lam in networks]
    result = engine.train(model, x, y, lams, config, watch=watch, **({"log": log} if log else {}))
    maps, counts, accuracy = read_maps(model, x, y, grid, size, cfg.pads)
    # no snapshot (a job killed between its save and its read at that step): unknown, NaN
    snapshot = watch.value()
    before = None if snapshot is None else snapshot["maps"]
    if before is None:
        moved = changed = [np.nan] * len(networks)
    else:
        moved = list((before != maps).mean(axis=(1, 2)))
        changed = [
            float(tripoints_per_box(b, cfg.pads) != c) for b, c in zip(before, counts, strict=True)
        ]
    runs, tripoints = run_tables(
        cfg,
        networks,
        counts,
        {
            "loss": result.loss,
            "objective": result.objective,
            "train_accuracy": accuracy,
            "moved_last_fifth": moved,
            "tripoints_changed_last_fifth": changed,
            **result.record(),
        },
    )
    return runs, tripoints, maps, engine.stacked_arrays(model)
