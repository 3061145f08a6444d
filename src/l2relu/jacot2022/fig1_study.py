"""A study of Fig. 1's first-layer rays: over many seeds, with the inputs as they are and centred
on their mean, at three lambda, how much of each hidden layer lies on rays, and how much of it
sits in neurons the ReLU never cuts (positive on every input, where it acts as the identity).

The networks are Fig. 1's (same data, widths, GD, initializations from the same seeds), trained
in the span of the inputs: with N = 42 points in 784 dimensions, W_1 acts on the data only
through W_1 Q, Q an orthonormal basis of the inputs' span. GD moves W_1 Q exactly as GD on the
reduced inputs Q^T X moves a first layer started at W_1 Q, while the rest, W_1 (I - Q Q^T),
receives no data gradient and only decays by (1 - 2 lambda lr) a step. So the reduced
training gives every representation of the full one at about a tenth of the cost, and the full
objective is the reduced one plus lambda times the decayed rest's squared norm.

Whether training has settled is read at four fifths of the steps: the weights are kept there
(`train`'s second arrays), and the objective and the shares on rays are read at both points.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022 import forces
from l2relu.jacot2022.fig1 import computes_a_constant, reading_angles
from l2relu.training import engine
from l2relu.training.seeding import derive_seed

INPUTS = ("raw", "centred")
# the prefix of the arrays kept at four fifths of the steps, beside the final ones
KEPT = "four_fifths_"


@dataclass(frozen=True)
class StudyConfig:
    digits: tuple[int, ...]  # Fig. 1's classes
    width: int  # both hidden layers, as Fig. 1
    lam: float  # L2 coefficient of this job (Fig. 1's and the study's others)
    lr: float  # full-batch GD step (the study's own: smaller than Fig. 1's, for more steps)
    steps: int  # GD steps; the weights are also kept at four fifths of them
    inputs: str  # "raw" (the paper's pixels) or "centred" (minus their mean over the N points)
    seeds: tuple[int, ...]  # Fig. 1's seeds: the initializations of Fig. 1's networks
    log_every: int  # steps between progress lines; divides four fifths of the steps

    def __post_init__(self):
        if self.log_every <= 0 or (4 * (self.steps // 5)) % self.log_every:
            raise ValueError(
                f"log_every {self.log_every} does not divide four fifths of the steps "
                f"({4 * (self.steps // 5)}), where training is read a second time"
            )


def prepared_inputs(x: np.ndarray, inputs: str) -> np.ndarray:
    """The training inputs (d_0, N) as the setting uses them."""
    if inputs not in INPUTS:
        raise ValueError(f"unknown inputs {inputs!r}; expected one of {INPUTS}")
    return x - x.mean(axis=1, keepdims=True) if inputs == "centred" else x


def input_span(x: np.ndarray) -> np.ndarray:
    """An orthonormal basis (d_0, r) of the span of the columns of x."""
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    return u[:, : int((s > s[0] * 1e-12).sum())]


def train(
    cfg: StudyConfig, x: np.ndarray, labels: np.ndarray, device="auto", log=None, keep_dir=None
):
    """Fig. 1's network from each seed, trained in the inputs' span, all seeds in one batch.
    Returns arrays (w1 acting on the reduced inputs `x`, stacked over seeds), the same arrays at
    four fifths of the steps (kept in `keep_dir`, the job's resume directory, for a job resumed
    after that point; None if a job was killed between reaching it and keeping it), one record
    per seed (loss and full objective at the end and at four fifths, divergence) and the
    reduced inputs."""
    dev = engine.pick_device(device)
    inputs = prepared_inputs(x, cfg.inputs)
    basis = input_span(inputs)
    reduced = basis.T @ inputs
    y = torch.tensor(np.searchsorted(cfg.digits, labels), device=dev)
    # Fig. 1's initializations (its train() derives them the same way), in the full input space
    seeds = [derive_seed("jacot2022", "fig1", cfg.digits, cfg.width, s) for s in cfg.seeds]
    widths = (inputs.shape[0], cfg.width, cfg.width, len(cfg.digits))
    full = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), seeds, dev, torch.float64)
    q = torch.tensor(basis, device=dev)
    w1 = full.weights[0].detach()
    rest_sq = ((w1 - w1 @ q @ q.T) ** 2).flatten(1).sum(1)  # (B,) ||W_1 (I - Q Q^T)||^2 at init
    model = engine.BatchedMLP.from_weights([w1 @ q, *full.weights[1:]], full.biases, bias=True)
    phases = (engine.Phase("gd", cfg.lr, cfg.steps),)
    config = engine.TrainConfig("cross_entropy", phases, log_every=cfg.log_every)
    xr = torch.tensor(reduced, device=dev)
    keep_from = 4 * (cfg.steps // 5)
    watch = engine.ReadOnce(
        keep_from,
        lambda: engine.stacked_arrays(model) | _objective(model, xr, y, cfg.lam),
        keep_dir,
        "four_fifths",
        cfg,
    )
    result = engine.train(
        model, xr, y, cfg.lam, config, watch=watch, **({"log": log} if log else {})
    )
    kept = watch.value() or {}
    decay = (1 - 2 * cfg.lam * cfg.lr) ** 2
    rest = rest_sq.cpu().numpy()
    before = kept.pop("objective", np.full(len(cfg.seeds), np.nan))  # NaN: not kept
    records = pd.DataFrame(
        {
            "inputs": cfg.inputs,
            "lam": cfg.lam,
            "lr": cfg.lr,
            "steps": cfg.steps,
            "seed": list(cfg.seeds),
            "loss": result.loss,
            "objective": result.objective + cfg.lam * decay**result.steps * rest,
            "objective_four_fifths": before + cfg.lam * decay**keep_from * rest,
            **result.record(),
        }
    )
    return engine.stacked_arrays(model), (kept or None), records, reduced


def polish_study(
    arrays: dict, runs: pd.DataFrame, cfg: StudyConfig, labels, iterations: int, device="auto"
):
    """A job's networks (`arrays` as the job saved them, `runs` its records) each carried on to
    a stationary point of cross-entropy + lam ||theta||^2 on the reduced inputs, in float64, each
    alone (l2relu.training.polish). The part of W_1 outside the inputs' span, which train() leaves
    decaying, has no data gradient and is 0 at every stationary point of the full objective: the
    polished networks lie in the span, whole. Returns their arrays (the final ones and the
    reduced inputs; nothing kept at four fifths), `runs` with the polished loss and objective
    (at four fifths: NaN), and the certificate of both networks of each, of the reduced
    objective (the schedule's decaying rest left out), with the job's setting and seed."""
    from l2relu.training import polish

    final = {k: v for k, v in arrays.items() if k[0] in "wb"}
    x = torch.tensor(arrays["inputs"], dtype=torch.float64)
    y = torch.tensor(np.searchsorted(cfg.digits, labels))
    settings = polish.PolishConfig(
        iterations, "cross_entropy", log_every=max(1, iterations // 5), device=device
    )
    model = polish.stacked_networks(final)
    polished, after, both = polish.polish_and_certify(model, x, y, cfg.lam, settings)
    polished_runs = runs.assign(
        loss=after.loss.to_numpy(),
        objective=after.objective.to_numpy(),
        objective_four_fifths=np.nan,
    )
    keys = runs[["inputs", "lam", "lr", "steps", "seed"]].reset_index(drop=True)
    certificate = both.join(keys, on="index")
    return (
        engine.stacked_arrays(polished) | {"inputs": arrays["inputs"]},
        polished_runs,
        certificate,
    )


def _objective(model: engine.BatchedMLP, x: torch.Tensor, y: torch.Tensor, lam: float) -> dict:
    """{"objective": (B,)} of the reduced networks: cross-entropy + lam ||theta||^2."""
    with torch.no_grad():
        loss = engine.network_losses(model.forward(x), y, "cross_entropy")
        return {"objective": (loss + lam * model.squared_norm()).cpu().numpy()}


def layer_scores(z: np.ndarray, n_rays: int, ray_readings: dict) -> dict:
    """How one hidden layer's neurons (rows of its pre-activations z, n x N) sit: the active
    ones, those the ReLU never cuts (positive on every input), and the share of the active
    neurons' norm on rays, in the full row space and in the 2-D PCA plane the paper draws,
    under each of `ray_readings` ({reading: its parameters, fig1.reading_angles}, the primary
    first: its shares are mass_on_ray and mass_on_ray_plane, each reading's
    "mass_on_ray: <reading>" and "mass_on_ray_plane: <reading>", its number of rays in the full
    space "rays: <reading>"). A share is NaN where it cannot be read: a layer of at most n_rays
    active neurons (or neurons seen in the plane) lies on n_rays rays whatever their
    directions."""
    nan = float("nan")
    active = forces.active_rows(z)
    mass = np.linalg.norm(np.maximum(z, 0), axis=1)
    always = active & (z > 0).all(axis=1)
    scores = {
        "active_neurons": int(active.sum()),
        "always_active_neurons": int(always.sum()),
        "always_active_mass": float(mass[always].sum() / mass[active].sum())
        if active.any()
        else nan,
    }
    full, plane, counts = {}, {}, {}
    if active.sum() > n_rays:
        for r, (angle, k) in reading_angles(z, n_rays, ray_readings).items():
            within = active & (angle <= ray_readings[r]["angle_deg"])
            full[r], counts[r] = float(mass[within].sum() / mass[active].sum()), k
        xy = z @ forces.pca_basis(z).T
        plane_mass = np.linalg.norm(xy, axis=1)
        # an active neuron orthogonal to the plane has no direction there
        shown = active & (plane_mass > 1e-12 * plane_mass.max())
        if shown.sum() > n_rays:
            for r, (angle, _) in reading_angles(xy, n_rays, ray_readings, shown).items():
                within = shown & (angle <= ray_readings[r]["angle_deg"])
                plane[r] = float(plane_mass[within].sum() / plane_mass[active].sum())
    primary = next(iter(ray_readings))
    scores["mass_on_ray"] = full.get(primary, nan)
    scores["mass_on_ray_plane"] = plane.get(primary, nan)
    for r in ray_readings:
        scores[f"mass_on_ray: {r}"] = full.get(r, nan)
        scores[f"mass_on_ray_plane: {r}"] = plane.get(r, nan)
        scores[f"rays: {r}"] = counts.get(r, nan)
    return scores


def scores(arrays: dict, reduced: np.ndarray, n_rays: int, ray_readings: dict) -> pd.DataFrame:
    """layer_scores of both hidden layers of every network of a job (one row per network and
    layer, `network` its index in the batch), and whether the network has collapsed."""
    rows = []
    x = torch.tensor(reduced)
    for b in range(arrays["w1"].shape[0]):
        weights = [torch.tensor(arrays[f"w{i}"][b]) for i in (1, 2, 3)]
        biases = [torch.tensor(arrays[f"b{i}"][b]) for i in (1, 2, 3)]
        zs = forces.representations(weights, biases, x)
        collapsed = computes_a_constant(zs[2].numpy())
        for layer in (1, 2):
            rows.append(
                {"network": b, "layer": layer, "collapsed": collapsed}
                | layer_scores(zs[layer - 1].numpy(), n_rays, ray_readings)
            )
    return pd.DataFrame(rows)


def settled_scores(arrays: dict, n_rays: int, ray_readings: dict) -> pd.DataFrame:
    """`scores` of a job's networks at the end (arrays as the job saved them: the final ones,
    those kept at four fifths under KEPT, and the reduced inputs), with each layer's primary
    share on rays at four fifths beside it ("mass_on_ray_four_fifths"; NaN where nothing was
    kept, or the layer cannot be read there)."""
    inputs = arrays["inputs"]
    final = {k: v for k, v in arrays.items() if k[0] in "wb" and not k.startswith(KEPT)}
    kept = {k.removeprefix(KEPT): v for k, v in arrays.items() if k.startswith(KEPT)}
    table = scores(final, inputs, n_rays, ray_readings)
    if kept:
        earlier = scores(kept, inputs, n_rays, ray_readings)["mass_on_ray"].to_numpy()
    else:
        earlier = np.nan
    return table.assign(mass_on_ray_four_fifths=earlier)
