"""jacot2023's rank study: Fig. 1's task and network over the setups the paper leaves open (the
scale of the data's g and h, lambda, depth). Every lambda and seed of one (scale, depth) trained
together, ||W||^2/L traced while they train; then per network Prop. 3's floor, the middle
layers' ranks and the Jacobian's."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023 import rank, trace
from l2relu.jacot2023.data import LatentTask
from l2relu.jacot2023.regression import (
    init_seed,
    middle_layers,
    network,
    prediction_mse,
)
from l2relu.training import engine


@dataclass(frozen=True)
class StudyFit:
    depth: int  # L, the number of weight matrices
    width: int  # every hidden layer (Fig. 1's 100)
    n_train: int  # N (Fig. 1's 500)
    lams: tuple[float, ...]  # lambda of (1/N) sum |f(x) - y|^2 + (lambda / L) ||W||^2, each run
    phases: tuple[engine.Phase, ...]
    seeds: tuple[int, ...]  # one network per seed and lambda
    dtype: str = "float32"
    log_every: int = 500  # steps between progress lines, and between traced norms


def fit(task: LatentTask, cfg: StudyFit, device="auto", trace_dir=None):
    """Train len(lams) x len(seeds) networks on the task's training points. A seed starts from
    the initialization Fig. 1's network of that seed, depth and size starts from, whatever its
    lambda. Returns the stacked arrays, one summary row per network and the trace (trace.Trace:
    network, step, loss, norm_per_layer), kept in trace_dir while training."""
    torch.set_flush_denormal(True)
    dev = engine.pick_device(device)
    dtype = getattr(torch, cfg.dtype)
    x, y, _ = task.sample(cfg.n_train)
    x = torch.tensor(x, dtype=dtype, device=dev)
    y = torch.tensor(y, dtype=dtype, device=dev)
    grid = [(lam, seed) for lam in cfg.lams for seed in cfg.seeds]
    inits = [init_seed(cfg.depth, cfg.width, cfg.n_train, s) for _, s in grid]
    widths = (task.d_in, *([cfg.width] * (cfg.depth - 1)), task.d_out)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), inits, dev, dtype)
    watch = trace.Trace(model, x, y, cfg.depth, trace_dir, (cfg, task))
    lams = torch.tensor([lam / cfg.depth for lam, _ in grid], dtype=dtype, device=dev)
    train_config = engine.TrainConfig(
        "mse", cfg.phases, dtype=cfg.dtype, log_every=cfg.log_every, device=str(dev)
    )
    result = engine.train(model, x, y, lams, train_config, watch=watch)
    arrays = engine.stacked_arrays(model)
    with torch.no_grad():
        norms = model.squared_norm().cpu().numpy() / cfg.depth
    runs = pd.DataFrame(
        {
            "network": range(len(grid)),
            "lam": [lam for lam, _ in grid],
            "seed": [seed for _, seed in grid],
            "init_seed": [str(s) for s in inits],
            "depth": cfg.depth,
            "n_train": cfg.n_train,
            "loss": result.loss,
            "objective": result.objective,
            "norm_per_layer": norms,
            "steps": result.steps,
            "output_variance": float(((y - y.mean(1, keepdim=True)) ** 2).sum(0).mean()),
            **result.record(),
        }
    )
    return arrays, runs, watch.table()


def settling_drift(trace: pd.DataFrame, steps: int, final: float, share: float) -> float:
    """|final - N(t)| / final for ||W||^2/L's last traced value N(t) at or before (1 - share)
    of the steps: how far the norm moved over (at least) the last `share` of training. NaN
    where nothing was traced that early."""
    early = trace[trace.step <= (1 - share) * steps].sort_values("step")
    if early.empty:
        return float("nan")
    return abs(final - early.norm_per_layer.iloc[-1]) / final


def jacobian_measures(weights, biases, points, readings) -> dict:
    """Prop. 3's floor sum_k s_k(Jf(x))^(2/L) at each point (median and largest), and the
    Jacobian's rank under each reading (rank.read_rank's parameters): the median over points."""
    s = rank.jacobian_spectra(rank.network_jacobians(weights, biases, points))
    floor = (s ** (2.0 / len(weights))).sum(axis=1)
    out = {"floor_median": float(np.median(floor)), "floor_max": float(floor.max())}
    for reading in readings:
        ranks = [rank.read_rank(point, **reading.parameters) for point in s]
        out[f"jacobian rank: {reading.name}"] = float(np.median(ranks))
    return out


def middle_ranks(weights, biases, x, readings, true_rank: int) -> dict:
    """Under each reading, whose parameters say which Z_l it reads (`z`: "plotted", as the paper
    plots it, or "centred") and how (rank.read_rank's): the rank of the middle layer farthest
    from the true rank ("middle rank: <reading>") and every middle layer's ("middle ranks:
    <reading>", as text)."""
    spectra = rank.representation_spectra(weights, biases, x, n_values=x.shape[1])
    middle = [s for s in spectra if s["layer"] in middle_layers(len(weights))]
    out = {}
    for reading in readings:
        parameters = dict(reading.parameters)
        kind = {"plotted": "activations_sv", "centred": "centred_sv"}[parameters.pop("z")]
        ranks = np.array([rank.read_rank(s[kind], **parameters) for s in middle])
        out[f"middle rank: {reading.name}"] = int(ranks[np.argmax(np.abs(ranks - true_rank))])
        out[f"middle ranks: {reading.name}"] = " ".join(map(str, ranks))
    return out


def network_table(arrays, runs, trace, task, n_test, readings, settling_share):
    """One row per network of a stacked checkpoint: its run row, how far ||W||^2/L moved over
    the last settling_share of the steps (its trace), test MSE, Prop. 3's floor and the ranks
    (readings: {"middle": ..., "jacobian": ...}, as middle_ranks and jacobian_measures take)."""
    x, _, _ = task.sample(int(runs.n_train.iloc[0]))
    x_test, y_test, _ = task.sample(n_test, "test")
    rows = []
    for run in runs.to_dict("records"):
        weights, biases = network(arrays, int(run["network"]))
        own = trace[trace.network == run["network"]]
        drift = settling_drift(own, run["steps"], run["norm_per_layer"], settling_share)
        prediction = rank.layers(weights, biases, x_test)[-1][1]
        rows.append(
            run
            | {"norm_drift": drift}
            | {"test_mse": prediction_mse(prediction, y_test)}
            | jacobian_measures(weights, biases, x_test, readings["jacobian"])
            | middle_ranks(weights, biases, x, readings["middle"], task.true_rank)
        )
    return pd.DataFrame(rows)


def deepest_setting(runs: pd.DataFrame, paper_norm: float) -> dict:
    """The setting (scale, lam_factor) of the deepest swept depth whose networks all fit (runs'
    column `fits`) and whose median ||W||^2/L is nearest paper_norm in ratio; the nearest of
    every setting if none fits. Ties go to the first in runs' order."""
    deepest = runs[runs.depth == runs.depth.max()]
    cells = deepest.groupby(["scale", "lam_factor"], sort=False).agg(
        fits=("fits", "all"), norm=("norm_per_layer", "median")
    )
    candidates = cells[cells.fits] if cells.fits.any() else cells
    scale, lam_factor = np.abs(np.log(candidates.norm / paper_norm)).idxmin()
    return {"scale": scale, "lam_factor": float(lam_factor), "any_fit": bool(cells.fits.any())}
