"""Fig. 1: the hidden representations of a depth-3 network trained on three MNIST digits, with
the attraction and repulsion forces on its data points (columns) and neurons (rows)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022 import forces
from l2relu.training import engine
from l2relu.training.seeding import derive_seed

# The bias input, Z^sigma = (sigma(Z); beta 1^T): 1 in the paper, and what the engine's biases are.
BETA = 1.0
# A network whose outputs vary by at most this over the inputs computes a constant: it has
# collapsed (a dead layer, or weights decayed to nothing). In the default Fig. 1 study the
# collapsed ones vary by exactly 0, every other network by more than 4.
CONSTANT_OUTPUT = 1e-6


def computes_a_constant(outputs: np.ndarray) -> bool:
    """Whether a network's outputs (n_out, N) are the same on every input, to CONSTANT_OUTPUT."""
    return bool((outputs.max(axis=1) - outputs.min(axis=1)).max() <= CONSTANT_OUTPUT)


@dataclass(frozen=True)
class Fig1Config:
    digits: tuple[int, ...]  # the classes (7, 8, 9 in the paper)
    width: int  # both hidden layers (50 in the paper)
    lam: float  # L2 coefficient on every weight and bias (not stated in the paper)
    lr: float  # full-batch GD step size (not stated)
    steps: int  # GD steps (20k in the paper)
    seed: int
    log_every: int


@dataclass(frozen=True)
class ForcesConfig:
    eps: float  # Tikhonov eps of the pseudo-inverses (the paper regularizes, value not stated)
    ray_angle_deg: float  # a neuron within this angle of a ray counts as on it


def train(cfg: Fig1Config, data: dict, device="auto", log=None):
    """Full-batch GD on cross-entropy + lam ||W||^2 (biases included). Returns the weights and
    biases (numpy, input layer first) and the final objective and loss."""
    dev = engine.pick_device(device)
    x = torch.tensor(data["x_train"].T, device=dev)
    y = torch.tensor(np.searchsorted(cfg.digits, data["y_train"]), device=dev)
    # the initialization depends on the architecture and the seed only
    seed = derive_seed("jacot2022", "fig1", cfg.digits, cfg.width, cfg.seed)
    widths = (x.shape[0], cfg.width, cfg.width, len(cfg.digits))
    config = engine.NetworkConfig(widths, bias=True)
    model = engine.BatchedMLP(config, [seed], dev, torch.float64)
    phases = (engine.Phase("gd", cfg.lr, cfg.steps),)
    train_config = engine.TrainConfig("cross_entropy", phases, log_every=cfg.log_every)
    result = engine.train(model, x, y, cfg.lam, train_config, **({"log": log} if log else {}))
    arrays = {f"w{i + 1}": w[0].detach().cpu().numpy() for i, w in enumerate(model.weights)}
    arrays |= {f"b{i + 1}": b[0].detach().cpu().numpy() for i, b in enumerate(model.biases)}
    summary = {
        "objective": float(result.objective[0]),
        "loss": float(result.loss[0]),
        **result.record(0),
    }
    return seed, arrays, summary


def polish(cfg: Fig1Config, data: dict, arrays: dict, iterations: int, device="auto"):
    """The trained network (`arrays`, as train() returns them) carried on to a stationary point
    of its own objective, cross-entropy + lam ||W||^2, in float64 (l2relu.training.polish).
    Returns the polished arrays, in train()'s layout, and the certificate of both networks
    (column `network`: schedule, polished)."""
    from l2relu.training import polish as polishing

    x = torch.tensor(data["x_train"].T, dtype=torch.float64)
    y = torch.tensor(np.searchsorted(cfg.digits, data["y_train"]))
    model = polishing.stacked_networks({k: v[None] for k, v in arrays.items()})
    settings = polishing.PolishConfig(
        iterations, "cross_entropy", log_every=max(1, iterations // 10), device=device
    )
    polished, _, both = polishing.polish_and_certify(model, x, y, cfg.lam, settings)
    stacked = engine.stacked_arrays(polished)
    return {k: v[0] for k, v in stacked.items()}, both


def silhouette(points: np.ndarray, labels: np.ndarray) -> float:
    """Mean silhouette (Euclidean) of points (rows) grouped by label: 1 = tight, separated
    clusters, 0 = no cluster structure."""
    dist = np.linalg.norm(points[:, None] - points[None], axis=2)
    scores = []
    for i, label in enumerate(labels):
        same = labels == label
        within = dist[i, same].sum() / max(same.sum() - 1, 1)
        between = min(dist[i, labels == c].mean() for c in np.unique(labels) if c != label)
        scores.append((between - within) / max(within, between))
    return float(np.mean(scores))


def find_rays(rows: np.ndarray, n_rays: int, active: np.ndarray | None = None):
    """Rays through the origin along which the active neurons (rows) align: spherical k-means on
    the neuron directions, weighted by norm, started deterministically from the longest row and
    the rows farthest in angle from the rays so far. `active`: which rows count, when the rows
    are not pre-activations (a projection's); by default the rows active on some input.
    Returns (unit ray directions, each row's ray, each row's angle to it in degrees, active
    mask)."""
    norms = np.linalg.norm(rows, axis=1)
    if active is None:
        active = forces.active_rows(rows)
    ray_of = np.full(len(rows), -1)
    angle = np.full(len(rows), np.nan)
    if not active.any():  # every neuron dead: no ray to find
        return np.zeros((0, rows.shape[1])), ray_of, angle, active
    unit = rows[active] / norms[active, None]
    n_rays = min(n_rays, len(unit))
    rays = [unit[np.argmax(norms[active])]]
    while len(rays) < n_rays:
        rays.append(unit[np.argmin(np.max(unit @ np.array(rays).T, axis=1))])
    rays = np.array(rays)
    for _ in range(100):
        assignment = np.argmax(unit @ rays.T, axis=1)
        updated = np.array(
            [
                (unit[assignment == k] * norms[active][assignment == k, None]).sum(axis=0)
                if (assignment == k).any()
                else rays[k]
                for k in range(n_rays)
            ]
        )
        updated /= np.linalg.norm(updated, axis=1, keepdims=True)
        if np.allclose(updated, rays, atol=1e-12):
            break
        rays = updated
    ray_of[active] = np.argmax(unit @ rays.T, axis=1)
    angle[active] = np.degrees(np.arccos(np.clip(np.max(unit @ rays.T, axis=1), -1, 1)))
    return rays, ray_of, angle, active


def _forces_in_plane(vectors: dict, basis: np.ndarray) -> dict:
    """Columns `<kind>_pc1`, `<kind>_pc2`: each force (one per row) in the 2-D PCA plane."""
    columns = {}
    for kind, v in vectors.items():
        xy = v @ basis.T
        columns |= {f"{kind}_pc1": xy[:, 0], f"{kind}_pc2": xy[:, 1]}
    return columns


def _share_within(mass, angle, degrees: float, readable: bool) -> float:
    """The share of the neurons' norm within `degrees` of their ray (NaN where not readable)."""
    return float(mass[angle <= degrees].sum() / mass.sum()) if readable else np.nan


def rays_from_data(
    rows: np.ndarray,
    max_rays: int,
    neurons_per_ray: int,
    n_rays: int,
    active: np.ndarray | None = None,
) -> int:
    """How many rays the active neurons (rows) themselves show, read as a rank is read at the
    largest gap: with spread(k) the norm-weighted mean squared angle of the neurons to the
    nearest of find_rays' k rays, the k from 2 to max_rays at the largest drop
    spread(k - 1) / spread(k). Neurons exactly on k rays have spread 0 from k on and read k.
    k is at most the active neurons over neurons_per_ray, or n_rays (the fixed readings' number,
    which a readable layer has more neurons than) where that is more: n neurons lie on n rays
    whatever their directions, and the spread always drops most near k = n. 0 where no k from
    2 is allowed."""
    if active is None:
        active = forces.active_rows(rows)
    mass = np.linalg.norm(rows[active], axis=1)
    n_active = int(active.sum())
    most = min(max_rays, max(n_rays, n_active // neurons_per_ray), n_active - 1)
    if most < 2:
        return 0
    spread = []
    for k in range(1, most + 1):
        angle = np.radians(find_rays(rows, k, active)[2][active])
        # below float rounding of the angles, spreads are one level, as gap_rank's zeros are
        spread.append(max(float(np.sum(mass * angle**2) / mass.sum()), 1e-12))
    drops = np.array(spread[:-1]) / np.array(spread[1:])
    return int(np.argmax(drops)) + 2


def reading_angles(rows, n_rays: int, readings: dict, active=None) -> dict:
    """{reading: (each row's angle to its ray in degrees, the number of rays)} for each of
    `readings` ({name: its parameters}): n_rays rays, or, where a reading has max_rays, as many
    as rays_from_data finds."""
    _, _, fixed, _ = find_rays(rows, n_rays, active)
    out = {}
    for name, parameters in readings.items():
        if "max_rays" not in parameters:
            out[name] = (fixed, n_rays)
            continue
        if parameters.get("rule") != "largest_drop":
            raise ValueError(f"reading {name!r}: rays from the data need rule largest_drop")
        k = rays_from_data(
            rows, parameters["max_rays"], parameters["neurons_per_ray"], n_rays, active
        )
        out[name] = (find_rays(rows, k, active)[2] if k else np.full(len(rows), np.nan), k)
    return out


def _direction_columns(z, attraction, repulsion) -> dict:
    """The layer's force directions (forces.force_directions) as one-row table columns
    "attraction_inward: <reading>" and "repulsion_outward: <reading>"."""
    columns = {}
    for reading, (inward, outward) in forces.force_directions(z, attraction, repulsion).items():
        columns[f"attraction_inward: {reading}"] = [inward]
        columns[f"repulsion_outward: {reading}"] = [outward]
    return columns


def analyze(arrays: dict, data: dict, n_rays: int, cfg: ForcesConfig, ray_readings=None) -> dict:
    """Forces on both hidden layers, their 2-D PCA views, rays (n_rays of them: one per class in
    the paper), clustering and balance.

    Returns tables: `points` (data columns), `neurons` (rows), `rays`, `layers` (one row per
    hidden layer: clustering, share of neurons on a ray within cfg.ray_angle_deg and, for each
    of `ray_readings` {reading: its parameters (reading_angles)}, the share of their norm within
    its angle_deg in "mass_on_ray: <reading>" and its number of rays in "rays: <reading>",
    balance of the forces)."""
    ray_readings = ray_readings or {}
    x = torch.tensor(data["x_train"].T)
    labels = np.asarray(data["y_train"])
    n_layers = sum(k.startswith("w") for k in arrays)
    weights = [torch.tensor(arrays[f"w{i + 1}"]) for i in range(n_layers)]
    biases = [torch.tensor(arrays[f"b{i + 1}"]) for i in range(n_layers)]
    zs = forces.representations(weights, biases, x, BETA)
    raw = forces.forces(zs, x, BETA, cfg.eps)
    tables = {"points": [], "neurons": [], "rays": [], "layers": []}
    for layer, (attraction, repulsion) in enumerate(raw):
        z = zs[layer].numpy()
        project = forces.feasible_projection(zs, x, layer, BETA, np.sqrt(cfg.eps))
        projected = {"attraction": project(attraction), "repulsion": project(repulsion)}
        name = layer + 1
        tables["points"].append(_point_rows(name, z, labels, projected))
        neurons, rays, (angle, active) = _neuron_and_ray_rows(name, z, n_rays, projected)
        tables["neurons"].append(neurons)
        tables["rays"].append(rays)
        on_rays = _mass_on_rays(z, n_rays, angle, active, cfg, ray_readings)
        row = _layer_row(
            z, labels, (attraction, repulsion), projected, (angle, active), on_rays, cfg
        )
        tables["layers"].append(pd.DataFrame({"layer": [name], **row}))
    out = {k: pd.concat(v, ignore_index=True) for k, v in tables.items()}
    out["layers"].insert(1, "input_silhouette", silhouette(x.numpy().T, labels))
    out["layers"]["collapsed"] = computes_a_constant(zs[-1].numpy())
    return out


def _point_rows(name, z, labels, projected) -> pd.DataFrame:
    """(a), (c): a layer's data columns, PCA centered on their mean, and their forces there."""
    basis = forces.pca_basis(z.T, center=True)
    xy = (z.T - z.T.mean(axis=0)) @ basis.T
    columns = {"layer": name, "point": np.arange(z.shape[1]), "digit": labels}
    columns |= {"pc1": xy[:, 0], "pc2": xy[:, 1]}
    return pd.DataFrame(columns | _forces_in_plane({k: v.T for k, v in projected.items()}, basis))


def _neuron_and_ray_rows(name, z, n_rays, projected):
    """(b), (d): a layer's neuron rows, PCA through the origin so that rays stay rays, their
    forces there, and its rays; with each neuron's angle to its ray and whether it is active."""
    basis = forces.pca_basis(z)
    xy = z @ basis.T
    rays, ray_of, angle, active = find_rays(z, n_rays)
    neurons = {"layer": name, "neuron": np.arange(z.shape[0]), "active": active, "ray": ray_of}
    neurons |= {"angle_deg": angle, "pc1": xy[:, 0], "pc2": xy[:, 1]}
    neurons = pd.DataFrame(neurons | _forces_in_plane(projected, basis))
    ray_xy = rays @ basis.T
    rays = pd.DataFrame(
        {
            "layer": name,
            "ray": np.arange(len(rays)),
            "pc1": ray_xy[:, 0],
            "pc2": ray_xy[:, 1],
            "neurons": np.bincount(ray_of[active], minlength=len(rays)),
        }
    )
    return neurons, rays, (angle, active)


def _mass_on_rays(z, n_rays, angle, active, cfg, ray_readings) -> dict:
    """The share of the active neurons' norm within cfg.ray_angle_deg of a ray, and per
    reading its share within the reading's angle and its number of rays."""
    mass = np.linalg.norm(np.maximum(z[active], 0), axis=1)
    # at most n_rays active neurons lie on n_rays rays whatever they learned: not read
    readable = active.sum() > n_rays
    out = {"mass_on_ray": _share_within(mass, angle[active], cfg.ray_angle_deg, readable)}
    for r, (angles, k) in reading_angles(z, n_rays, ray_readings).items():
        degrees = ray_readings[r]["angle_deg"]
        out[f"mass_on_ray: {r}"] = _share_within(mass, angles[active], degrees, readable)
        out[f"rays: {r}"] = k
    return out


def _layer_row(z, labels, raw, projected, rays, on_rays: dict, cfg) -> dict:
    """A layer's row of `layers` but its number: `raw` and `projected` its forces, `rays` each
    neuron's angle to its ray and whether it is active, `on_rays` from _mass_on_rays."""
    (attraction, repulsion), (angle, active) = raw, rays
    p_attraction, p_repulsion = projected["attraction"], projected["repulsion"]
    norm = np.linalg.norm
    by_reading = {k: v for k, v in on_rays.items() if k != "mass_on_ray"}
    return {
        "active_neurons": [int(active.sum())],
        "share_on_ray": [float(np.mean(angle[active] <= cfg.ray_angle_deg))],
        "mass_on_ray": [float(on_rays["mass_on_ray"])],
        **{k: [float(v)] for k, v in by_reading.items()},
        "silhouette": [silhouette(z.T, labels)],
        "balance_radial": [forces.radial_balance(z, attraction, repulsion)],
        "balance": [norm(p_attraction + p_repulsion) / norm(p_attraction)],
        "balance_raw": [norm(attraction + repulsion) / norm(attraction)],
        "projected_share": [norm(p_attraction) / norm(attraction)],
        **_direction_columns(z, attraction, repulsion),
        "pushed_apart": [forces.pushed_apart(z, repulsion, labels)],
    }
