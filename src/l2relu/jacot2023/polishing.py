"""Trained networks of Fig. 1's task carried on to a stationary point of their own objective
(l2relu.polish), with the run summary the ledger reads and the certificate of both networks."""

import numpy as np
import pandas as pd
import torch

from l2relu import engine, polish
from l2relu.io import load_checkpoint
from l2relu.jacot2023.data import LatentTask


def polish_fit(
    arrays: dict, task: LatentTask, fit_config: dict, iterations: int, indices, device="auto"
):
    """Networks `indices` of a checkpoint of `task` (Fig. 1's, the depth sweep's) polished to a
    stationary point of their objective (1/N)||f(X) - Y||^2 + (lambda / L)||W||^2
    (l2relu.polish), in float64, each alone. Returns their arrays (stacked, in the order of
    `indices`), their run summaries (the columns of `fit`'s that the ledger reads, one row a
    network) and the certificate of both networks of each (column `network`: schedule or
    polished; column `index`: the network's in the checkpoint; the schedule's objective fall is
    how far polishing lowered it, relative to where polishing ended)."""
    depth, lam = fit_config["depth"], fit_config["lam"] / fit_config["depth"]
    x, y, _ = task.sample(fit_config["n_train"])
    x, y = torch.tensor(x, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)
    model = engine.BatchedMLP.from_weights(
        [torch.as_tensor(arrays[f"w{i + 1}"][indices]).double() for i in range(depth)],
        [torch.as_tensor(arrays[f"b{i + 1}"][indices]).double() for i in range(depth)],
        bias=True,
    )
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
    (1/N)||f(X) - Y||^2 + (lambda / L)||W||^2 (l2relu.polish), in float64, each alone with its
    own lambda. Returns the polished arrays (stacked as the checkpoint's), `runs` with the
    polished networks' loss, objective and ||W||^2/L, and the certificate of both networks of
    each (columns `index`, the network's in the checkpoint, and the run's scale, lam_factor,
    lam, depth and seed)."""
    if list(runs.network) != list(range(len(runs))):
        raise ValueError("runs must list the checkpoint's networks in order")
    depth = int(runs.depth.iloc[0])
    x, y, _ = task.sample(int(runs.n_train.iloc[0]))
    x, y = torch.tensor(x, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)
    model = engine.BatchedMLP.from_weights(
        [torch.as_tensor(arrays[f"w{i + 1}"]).double() for i in range(depth)],
        [torch.as_tensor(arrays[f"b{i + 1}"]).double() for i in range(depth)],
        bias=True,
    )
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
