"""Fig. 2: the minimal regularized loss of depth-3 networks against width, on MNIST
(cross-entropy, two lambdas) and on a teacher network's outputs (MSE)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022.plateau import with_running_best
from l2relu.training import engine
from l2relu.training.seeding import derive_seed

# One plateau curve per data set and lambda.
CURVE = ["dataset", "lam"]


@dataclass(frozen=True)
class Fig2Config:
    dataset: str  # "mnist" (cross-entropy) or "teacher" (MSE)
    width: int  # width of both hidden layers (depth 3)
    lams: tuple[float, ...]  # L2 coefficients, trained together
    trials: int  # initializations per lambda, trained together; the best is the estimate
    init_scale: float  # multiplies the He init (small: wide nets start feature learning sooner)
    adam_steps: int  # Adam first (fast), then full-batch GD (settles), as in App. A
    adam_lr: float
    gd_steps: int
    gd_lr: float  # the initial step; halved on any step that raises a network's objective
    log_every: int
    seed: int
    dtype: str = "float64"  # float type of the parameters, data and arithmetic


def _targets(data: dict, dataset: str, split: str, dtype) -> torch.Tensor:
    y = data[f"y_{split}"]
    if dataset == "mnist":  # digits -> class indices
        return torch.tensor(np.searchsorted(np.unique(data["y_train"]), y))
    return torch.tensor(y.T, dtype=dtype)


def run(cfg: Fig2Config, data: dict, device="auto", log=None) -> pd.DataFrame:
    """Train every (lambda, trial) network of one width together; one row per network."""
    return train_width(cfg, data, device, log)[0]


def train_width(cfg: Fig2Config, data: dict, device="auto", log=None):
    """run()'s table, and the networks it describes (App. A's Adam then GD, one per row, in the
    table's order)."""
    dev = engine.pick_device(device)
    dtype = getattr(torch, cfg.dtype)
    if dtype == torch.float32:
        torch.set_flush_denormal(True)  # ReLU nets drift into denormals, ~2x slower on CPU
    loss = "cross_entropy" if cfg.dataset == "mnist" else "mse"
    x = torch.tensor(data["x_train"].T, device=dev, dtype=dtype)
    x_test = torch.tensor(data["x_test"].T, device=dev, dtype=dtype)
    y = _targets(data, cfg.dataset, "train", dtype).to(dev)
    y_test = _targets(data, cfg.dataset, "test", dtype)
    n_out = int(y.max()) + 1 if cfg.dataset == "mnist" else y.shape[0]
    lams = np.repeat(cfg.lams, cfg.trials)
    trials = np.tile(np.arange(cfg.trials), len(cfg.lams))
    seeds = [
        derive_seed("jacot2022", "fig2", cfg.dataset, cfg.width, lam, cfg.seed, t)
        for lam, t in zip(lams, trials, strict=True)
    ]
    widths = (x.shape[0], cfg.width, cfg.width, n_out)
    network = engine.NetworkConfig(widths, bias=True, init_scale=cfg.init_scale)
    model = engine.BatchedMLP(network, seeds, dev, dtype)
    adam, gd = engine.adam_then_gd(cfg.adam_lr, cfg.adam_steps, cfg.gd_lr, cfg.gd_steps)

    def train(net, phase):
        return engine.train(
            net,
            x,
            y,
            torch.tensor(lams, device=dev),  # engine.train casts lambda to the parameters' type
            engine.TrainConfig(loss, (phase,), dtype=cfg.dtype, log_every=cfg.log_every),
            **({"log": log} if log else {}),
        )

    # App. A's recipe, Adam then GD; and, from the same end of the Adam phase, Adam on for as
    # many steps as GD takes (App. A sets GD against Adam)
    first = train(model, adam)
    if first.diverged.all():  # nothing left to train: the sweep stops here
        result, adam_on = first, first
    else:
        adam_only = engine.BatchedMLP.from_weights(model.weights, model.biases, bias=True)
        result = first.followed_by(train(model, gd))
        adam_on = train(adam_only, engine.Phase("adam", cfg.adam_lr, cfg.gd_steps))
    with torch.no_grad():
        test = engine.network_losses(model.forward(x_test), y_test.to(dev), loss).cpu().numpy()
    table = pd.DataFrame(
        {
            "dataset": cfg.dataset,
            "width": cfg.width,
            "lam": lams,
            "trial": trials,
            "objective": result.objective,
            "train_loss": result.loss,
            "test_loss": test,
            "objective_adam_only": np.where(adam_on.diverged, np.nan, adam_on.objective),
            **result.record(),
        }
    )
    return table, model


def polish_width(dataset: str, data: dict, runs: pd.DataFrame, arrays: dict, iterations: int):
    """One width's trained networks (`arrays`, one per row of its `runs`) polished to a
    stationary point of their objective, each alone, in float64 on the CPU (l2relu.training.polish).
    Returns `runs` with the polished networks' objective, training and test losses, the
    polished networks' arrays, and the certificate of both networks of each row (column
    `network`; `lam` and `trial` name the row)."""
    from l2relu.training import polish

    loss = "cross_entropy" if dataset == "mnist" else "mse"
    x = torch.tensor(data["x_train"].T, dtype=torch.float64)
    x_test = torch.tensor(data["x_test"].T, dtype=torch.float64)
    y = _targets(data, dataset, "train", torch.float64)
    y_test = _targets(data, dataset, "test", torch.float64)
    model = polish.stacked_networks(arrays)
    lams = runs.lam.to_numpy()
    settings = polish.PolishConfig(
        iterations, loss, log_every=max(1, iterations // 4), device="cpu"
    )
    polished, after, both = polish.polish_and_certify(model, x, y, lams, settings)
    with torch.no_grad():
        test = engine.network_losses(polished.forward(x_test), y_test, loss).numpy()
    table = runs.assign(objective=after.objective, train_loss=after.loss, test_loss=test)
    rows = runs[["lam", "trial"]].reset_index(drop=True)
    certificate = both.join(rows, on="index")
    table = table.assign(device="cpu", dtype="float64")
    return table, engine.stacked_arrays(polished), certificate


def diverged_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs whose loss became NaN or infinite, with the step where training stopped them;
    the figure marks them, since they are left out of every curve."""
    bad = runs[runs.diverged.astype(bool)]
    return bad[["dataset", "lam", "width", "trial", "diverged_step"]].reset_index(drop=True)


def curves(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, lambda, width): the trial with the lowest objective (its test loss is the
    one plotted, as in App. A), and `best`, the lowest objective found at any width <= this one
    (a wider network contains every narrower one)."""
    ok = runs[~runs.diverged.astype(bool)]
    chosen = with_running_best(ok.loc[ok.groupby([*CURVE, "width"]).objective.idxmin()], CURVE)
    every = ok.groupby([*CURVE, "width"]).objective.agg(lambda v: ";".join(f"{x:.12g}" for x in v))
    return chosen.join(every.rename("all_objectives"), on=[*CURVE, "width"])
