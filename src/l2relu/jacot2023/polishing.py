"""Trained networks carried on to a stationary point of their own objective
(l2relu.training.polish): Fig. 1's task (Fig. 1, the depth sweep, the rank study), the Fig. 2
study's classifiers and Fig. 3's autoencoders, with what the ledger reads of the polished
networks and the certificate of both networks. Kept apart from the training modules, so that
training does not depend on the polish's code."""

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023 import autoencoders, fig2_study, fig3_study
from l2relu.jacot2023.data import LatentTask
from l2relu.training import engine, polish
from l2relu.training.io import load_checkpoint


def polish_fit(
    arrays: dict, task: LatentTask, fit_config: dict, iterations: int, indices, device="auto"
):
    """Networks `indices` of a checkpoint of `task` (Fig. 1's, the depth sweep's) polished to a
    stationary point of their objective (1/N)||f(X) - Y||^2 + (lambda / L)||W||^2
    (l2relu.training.polish), in float64, each alone. Returns their arrays (stacked, in the order of
    `indices`), their run summaries (the columns of `fit`'s that the ledger reads, one row a
    network) and the certificate of both networks of each (column `network`: schedule or
    polished; column `index`: the network's in the checkpoint; the schedule's objective fall is
    how far polishing lowered it, relative to where polishing ended)."""
    depth, lam = fit_config["depth"], fit_config["lam"] / fit_config["depth"]
    x, y, _ = task.sample(fit_config["n_train"])
    x, y = torch.tensor(x, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)
    model = polish.stacked_networks(arrays, indices)
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 20), device=device)
    polished, after, both = polish.polish_and_certify(model, x, y, lam, cfg)
    certificate = both.assign(index=[indices[i] for i in both["index"]])
    with torch.no_grad():
        norms = polished.squared_norm().cpu().numpy()
    runs = pd.DataFrame(
        {
            "loss": after.loss,
            "objective": after.objective,
            "norm_per_layer": norms / depth,
            "output_variance": float(((y - y.mean(1, keepdim=True)) ** 2).sum(0).mean()),
        }
    )
    return engine.stacked_arrays(polished), runs, certificate


def load_polished(checkpoints, runs, certificates):
    """The polished networks of Fig. 1 (one checkpoint, run summary and certificate a seed, in
    seed order): their arrays stacked as one checkpoint's, their run summaries and certificates."""
    parts = [load_checkpoint(p)["arrays"] for p in checkpoints]
    arrays = {k: np.concatenate([part[k].numpy() for part in parts]) for k in parts[0]}
    read = lambda paths: pd.concat(map(pd.read_csv, paths), ignore_index=True)  # noqa: E731
    return arrays, read(runs), read(certificates)


def polish_study(
    arrays: dict, runs: pd.DataFrame, task: LatentTask, iterations: int, device="auto"
):
    """Every network of one of the rank study's checkpoints (one per lambda and seed, `runs` in
    the checkpoint's order) polished to a stationary point of its own objective
    (1/N)||f(X) - Y||^2 + (lambda / L)||W||^2 (l2relu.training.polish), in float64, each alone
    with its own lambda. Returns the polished arrays (stacked as the checkpoint's), `runs` with the
    polished networks' loss, objective and ||W||^2/L, and the certificate of both networks of
    each (columns `index`, the network's in the checkpoint, and the run's scale, lam_factor,
    lam, depth and seed)."""
    if list(runs.network) != list(range(len(runs))):
        raise ValueError("runs must list the checkpoint's networks in order")
    depth = int(runs.depth.iloc[0])
    x, y, _ = task.sample(int(runs.n_train.iloc[0]))
    x, y = torch.tensor(x, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)
    model = polish.stacked_networks(arrays)
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 10), device=device)
    lams = runs.lam.to_numpy() / depth
    polished, after, both = polish.polish_and_certify(model, x, y, lams, cfg)
    keys = runs[["scale", "lam_factor", "lam", "depth", "seed"]]
    certificate = both.join(keys, on="index")
    with torch.no_grad():
        norms = polished.squared_norm().cpu().numpy() / depth
    polished_runs = runs.assign(
        loss=after.loss.to_numpy(), objective=after.objective.to_numpy(), norm_per_layer=norms
    )
    return engine.stacked_arrays(polished), polished_runs, certificate


def polish_curves(arrays: dict, table: pd.DataFrame, data, lam: float, iterations: int, device):
    """Fig. 3's curve autoencoders of one architecture (`table`: the training's rows, one per
    network of the stacked `arrays`) each polished on its own curve's points to a stationary
    point of (1/N) sum |f(x) - x|^2 + lam ||W||^2. Returns the table with the polished
    networks' loss, objective and measures (autoencoders.curve_measures), their random inputs'
    outputs, their arrays and the certificate of both networks of each (curve, seed)."""
    networks = list(zip(table.curve, table.seed, strict=True))
    arch = autoencoders.Architecture(int(table.depth.iloc[0]), int(table.width.iloc[0]))
    x = autoencoders.curves_data(data, networks, "cpu")
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 5), device=device)
    parts, after, certificates = [], [], []
    for b, (curve, seed) in enumerate(networks):
        network = polish.stacked_networks(arrays, slice(b, b + 1))
        polished, end, both = polish.polish_and_certify(network, x[b], x[b], lam, cfg)
        parts.append(engine.stacked_arrays(polished))
        after.append(end)
        certificates.append(both.assign(index=b, curve=curve, seed=seed, depth=arch.depth))
    stacked = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    model = polish.stacked_networks(stacked)
    measures, moved = autoencoders.curve_measures(model, x, data, networks, arch)
    after = pd.concat(after, ignore_index=True)
    polished_table = table.assign(
        loss=after.loss.to_numpy(), objective=after.objective.to_numpy()
    ).assign(**pd.DataFrame(measures).to_dict("list"))
    return polished_table, moved, stacked, pd.concat(certificates, ignore_index=True)


def polish_mnist(arrays: dict, summary: dict, data: dict, lam: float, noise, iterations, device):
    """Fig. 3's MNIST autoencoder polished on its training digits to a stationary point of
    (1/N) sum |f(x) - x|^2 + lam ||W||^2. Returns its summary with the polished network's loss,
    objective and denoising (autoencoders.denoise), its arrays and the certificate of both
    networks."""
    x = torch.tensor(data["x_train"].T, dtype=torch.float64)
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 5), device=device)
    polished, after, both = polish.polish_and_certify(
        polish.stacked_networks(arrays), x, x, lam, cfg
    )
    _, measures = autoencoders.denoise(polished, data, noise)
    end = {"loss": float(after.loss.iloc[0]), "objective": float(after.objective.iloc[0])}
    return summary | end | measures, engine.stacked_arrays(polished), both


def polish_fig2_study(arrays: dict, cfg: fig2_study.StudyConfig, iterations: int, device="auto"):
    """The networks of one (family, depth) trained with L2 (lambda > 0: without it
    cross-entropy has no minimum, it falls as the weights grow), each polished alone on its
    seed's data set to a stationary point of cross-entropy + lambda ||W||^2
    (l2relu.training.polish).
    `arrays`: fig2_study.train's networks. Returns, for the polished networks (in
    fig2_study.networks_of's order), train's tables and maps (no last-fifth columns: polishing
    has no schedule to watch), their arrays and the certificate of both networks of each
    (columns index, the network's in `arrays`, and seed, lam, family, depth)."""
    every = fig2_study.networks_of(cfg)
    indices = [i for i, (_, lam) in enumerate(every) if lam > 0]
    networks = [every[i] for i in indices]
    sets = fig2_study.data_sets(cfg)
    config = polish.PolishConfig(
        iterations, "cross_entropy", log_every=max(1, iterations // 5), device=device
    )
    parts, after, certificates = [], [], []
    for seed in cfg.seeds:
        mine = [i for i in indices if every[i][0] == seed]
        lams = [every[i][1] for i in mine]
        points, labels = sets[cfg.seeds.index(seed)]
        polished, end, both = polish.polish_and_certify(
            polish.stacked_networks(arrays, mine),
            torch.tensor(points.T),
            torch.tensor(labels),
            lams,
            config,
        )
        parts.append(engine.stacked_arrays(polished))
        after.append(end)
        at = list(both["index"])
        certificates.append(
            both.assign(index=[mine[i] for i in at], seed=seed, lam=[lams[i] for i in at])
        )
    stacked = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    model = polish.stacked_networks(stacked)
    x, y, grid, size = fig2_study.reading_grid(cfg, sets, networks)
    maps, counts, accuracy = fig2_study.read_maps(
        model, torch.tensor(x), torch.tensor(y), grid, size, cfg.pads
    )
    after = pd.concat(after, ignore_index=True)
    objective = after.objective.to_numpy()
    runs, tripoints = fig2_study.run_tables(
        cfg,
        networks,
        counts,
        {
            "loss": after.loss.to_numpy(),
            "objective": objective,
            "train_accuracy": accuracy,
            # the line search never accepts a step to a non-finite objective
            "diverged": ~np.isfinite(objective),
            "diverged_step": -1,
            "device": str(model.weights[0].device),
            "dtype": "float64",
        },
    )
    keys = {"family": cfg.family.name, "depth": cfg.depth}
    certificate = pd.concat(certificates, ignore_index=True).assign(**keys)
    return runs, tripoints, maps, stacked, certificate


def polish_mnist_study(
    arrays: dict, table: pd.DataFrame, train: np.ndarray, lam: float, noise, iterations, device
):
    """The Fig. 3 study's MNIST autoencoders of one architecture (`table`: the training's rows,
    one per seed, in the order of the stacked `arrays`), each polished alone on the training
    digits `train` (rows) to a stationary point of (1/N) sum |f(x) - x|^2 + lam ||W||^2, in
    float64. `noise`: (std, n_noisy) as training's. Returns the table with the polished
    networks' loss, objective and fig3_study.noise_measures, their arrays and the certificate
    of both networks of each (column seed)."""
    x = torch.tensor(train.T, dtype=torch.float64)
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 5), device=device)
    polished, after, both = polish.polish_and_certify(
        polish.stacked_networks(arrays), x, x, lam, cfg
    )
    seeds = [int(s) for s in table.seed]
    measures, _ = fig3_study.noise_measures(polished, train, noise[0], noise[1], seeds)
    polished_table = table.assign(
        loss=after.loss.to_numpy(), objective=after.objective.to_numpy()
    ).assign(**pd.DataFrame(measures).to_dict("list"))
    certificate = both.assign(
        seed=[seeds[i] for i in both["index"]], depth=int(table.depth.iloc[0])
    )
    return polished_table, engine.stacked_arrays(polished), certificate
