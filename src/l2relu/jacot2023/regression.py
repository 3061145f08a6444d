"""Deep L2-regularized ReLU networks fitted to App. F's low-rank regression task, several
seeds of one depth trained together, and the rank measurements Fig. 1 and the depth sweep read."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2023 import krr, rank, trace
from l2relu.jacot2023.data import LatentTask
from l2relu.training import engine
from l2relu.training.seeding import derive_seed


@dataclass(frozen=True)
class FitConfig:
    depth: int  # L, the number of weight matrices (13 in Fig. 1)
    width: int  # every hidden layer (100 in Fig. 1)
    n_train: int  # N, training points (500 in Fig. 1)
    lam: float  # lambda of the loss (1/N) sum |f(x) - y|^2 + (lambda / L) ||W||^2
    phases: tuple[engine.Phase, ...]  # Adam (with its L2 term), then optionally GD
    seeds: tuple[int, ...]  # one network per seed, trained together
    dtype: str = "float32"  # float32: these nets are large; denormals are flushed (speed)
    log_every: int = 1000  # steps between progress lines in the job's log


def fit(task: LatentTask, cfg: FitConfig, device="auto", log=None, trace_dir=None):
    """Train len(cfg.seeds) networks of one depth on the task's N training points. Returns the
    stacked arrays (w1.., b1.., each (seeds, ...)), one summary row a seed, and the trace of each
    network's MSE and ||W||^2 / L at every progress line (network = the seed's index), kept in
    trace_dir while training."""
    torch.set_flush_denormal(True)  # deep ReLU nets drift into denormals: ~2x slower without
    dev = engine.pick_device(device)
    dtype = getattr(torch, cfg.dtype)
    x, y, _ = task.sample(cfg.n_train)
    x = torch.tensor(x, dtype=dtype, device=dev)
    y = torch.tensor(y, dtype=dtype, device=dev)
    seeds = [init_seed(cfg.depth, cfg.width, cfg.n_train, s) for s in cfg.seeds]
    widths = (task.d_in, *([cfg.width] * (cfg.depth - 1)), task.d_out)
    model = engine.BatchedMLP(engine.NetworkConfig(widths, bias=True), seeds, dev, dtype)
    train_config = engine.TrainConfig(
        "mse", cfg.phases, dtype=cfg.dtype, log_every=cfg.log_every, device=str(dev)
    )
    watch = trace.Trace(model, x, y, cfg.depth, trace_dir, (cfg, task))
    result = engine.train(
        model, x, y, cfg.lam / cfg.depth, train_config, watch=watch, **({"log": log} if log else {})
    )
    arrays = engine.stacked_arrays(model)
    with torch.no_grad():
        norms = model.squared_norm().cpu().numpy()
    summary = pd.DataFrame(
        {
            "seed": cfg.seeds,
            "init_seed": [str(s) for s in seeds],
            "depth": cfg.depth,
            "n_train": cfg.n_train,
            "loss": result.loss,
            "objective": result.objective,
            "norm_per_layer": norms / cfg.depth,
            # the loss of the best constant: what the MSE is judged against
            "output_variance": float(((y - y.mean(1, keepdim=True)) ** 2).sum(0).mean()),
            **result.record(),
        }
    )
    return arrays, summary, watch.table()


def init_seed(depth: int, width: int, n_train: int, seed: int) -> int:
    """The initialization of the network of `seed` at this depth, width and N: Fig. 1's, the
    depth sweep's and the rank study's networks of one seed and shape start alike."""
    return derive_seed("jacot2023", "fit", depth, width, n_train, seed)


def network(arrays: dict, index: int = 0):
    """(weights, biases) of one network of a stacked checkpoint, in float64 numpy."""
    depth = sum(k.startswith("w") for k in arrays)
    weights = [np.asarray(arrays[f"w{i + 1}"][index], dtype=float) for i in range(depth)]
    biases = [np.asarray(arrays[f"b{i + 1}"][index], dtype=float) for i in range(depth)]
    return weights, biases


def middle_layers(depth: int) -> range:
    """The layers more than a third of the depth from either end: 5..9 of 13. Fig. 1's 'middle
    layers', where the representation should be the bottleneck."""
    third = depth // 3
    return range(third + 1, depth - third + 1)


def bottleneck_rank(weights, biases, x, **reading) -> tuple[int, int]:
    """(layer, rank): the hidden layer whose centred representation has the smallest rank under
    `reading` (rank.read_rank's parameters), the first such layer."""
    spectra = rank.representation_spectra(weights, biases, x, n_values=x.shape[1])
    ranks = [rank.read_rank(r["centred_sv"], **reading) for r in spectra[:-1]]
    best = int(np.argmin(ranks))
    return best + 1, ranks[best]


def fig1_tables(
    arrays: dict, x: np.ndarray, n_values: int, rank_rel_tol: float, index=0, rank_readings=()
):
    """Fig. 1's panels for network `index` of a checkpoint: `spectra` (long: layer, kind in
    activations / centred / weights, index, value) and `layers` (one row per layer: the
    nonlinearity impact, numerical ranks of Z_l, the rank read at the largest gap of the first
    n_values singular values of Z_l as the paper's left panel shows them, ||W_l||^2 with its
    bias, and Z_l's rank under each of `rank_readings` (registry Readings of rank.read_rank),
    in a column "rank: <reading>")."""
    weights, biases = network(arrays, index)
    rows, layer_rows = [], []
    representation = rank.representation_spectra(weights, biases, x, n_values=x.shape[1])
    for r, w, b in zip(representation, weights, biases, strict=True):
        for kind in ("activations", "centred"):
            rows += [(r["layer"], kind, i + 1, v) for i, v in enumerate(r[f"{kind}_sv"][:n_values])]
        layer_rows.append(
            {
                "layer": r["layer"],
                "nonlinearity_impact": r["nonlinearity_impact"],
                "rank": rank.numerical_rank(r["activations_sv"], rank_rel_tol),
                "centred_rank": rank.numerical_rank(r["centred_sv"], rank_rel_tol),
                "gap_rank": rank.gap_rank(r["activations_sv"][:n_values]),
                "centred_gap_rank": rank.gap_rank(r["centred_sv"][:n_values]),
                "squared_norm": float((w**2).sum() + (b**2).sum()),
                "middle": r["layer"] in middle_layers(len(weights)),
            }
            | {
                f"rank: {reading.name}": rank.read_rank(r["activations_sv"], **reading.parameters)
                for reading in rank_readings
            }
        )
    for layer, values in enumerate(rank.weight_spectra(weights, n_values), start=1):
        rows += [(layer, "weights", i + 1, v) for i, v in enumerate(values)]
    spectra = pd.DataFrame(rows, columns=["layer", "kind", "index", "value"])
    return spectra, pd.DataFrame(layer_rows)


def _spectra_rows(name: str, jacobians) -> pd.DataFrame:
    s = rank.jacobian_spectra(jacobians)
    point, index = np.meshgrid(np.arange(len(s)), np.arange(s.shape[1]) + 1, indexing="ij")
    return pd.DataFrame(
        {
            "model": name,
            "point": point.ravel(),
            "index": index.ravel(),
            "value": s.ravel(),
            "ratio": (s / s[:, :1]).ravel(),
        }
    )


def krr_spectra(task: LatentTask, n_train: int, n_test: int, ridge: float):
    """App. D.1: KRR (Gaussian kernel, median-distance bandwidth) fitted to the task's training
    set; the singular values of its Jacobian at n_test held-out points (spectra: model, point,
    index, value, ratio to the point's largest) and its fit (one row: test error)."""
    x, y, _ = task.sample(n_train)
    x_test, y_test, _ = task.sample(n_test, "test")
    bandwidth = krr.median_bandwidth(x)
    coefficients = krr.fit(x, y, ridge, bandwidth)
    prediction = krr.predict(x, coefficients, bandwidth, x_test)
    spectra = _spectra_rows("krr", krr.jacobians(x, coefficients, bandwidth, x_test))
    fit = {"model": "krr", "test_mse": prediction_mse(prediction, y_test), "bandwidth": bandwidth}
    return spectra, pd.DataFrame([fit | {"ridge": ridge}])


def network_spectra(arrays: dict, index: int, task: LatentTask, n_test: int):
    """The same for network `index` of a stacked checkpoint trained on `task`."""
    x_test, y_test, _ = task.sample(n_test, "test")
    weights, biases = network(arrays, index)
    prediction = rank.layers(weights, biases, x_test)[-1][1]
    spectra = _spectra_rows("network", rank.network_jacobians(weights, biases, x_test))
    fit = {"model": "network", "test_mse": prediction_mse(prediction, y_test)}
    return spectra, pd.DataFrame([fit | {"bandwidth": np.nan, "ridge": np.nan}])


def prediction_mse(prediction, y_test) -> float:
    """Mean over points of the squared error summed over outputs (points as columns)."""
    return float(((prediction - y_test) ** 2).sum(axis=0).mean())


def bottleneck_table(arrays: dict, task: LatentTask, runs: pd.DataFrame, readings):
    """One row per network of a stacked checkpoint and reading (registry Readings of
    rank.read_rank, the primary first): its run summary, the reading and whether it is the
    primary, the hidden layer of smallest centred rank and that rank."""
    x, _, _ = task.sample(int(runs.n_train.iloc[0]))
    rows = []
    for index, run in enumerate(runs.to_dict("records")):
        weights, biases = network(arrays, index)
        for n, reading in enumerate(readings):
            layer, smallest = bottleneck_rank(weights, biases, x, **reading.parameters)
            # the figure draws the primary reading's
            rows.append(
                run
                | {"reading": reading.name, "bottleneck_layer": layer, "bottleneck_rank": smallest}
                | {"primary": n == 0}
            )
    return pd.DataFrame(rows)


def hidden_ratios(weights, biases, x) -> np.ndarray:
    """Prop. 4's s_2/s_1 of every hidden representation Z_l, l = 1..L-1: columns the activations
    of x's columns, uncentred, as the proposition defines Z_l. NaN where Z_l is zero."""
    ratios = []
    for _, z in rank.layers(weights, biases, x)[:-1]:
        s = np.linalg.svd(z, compute_uv=False)
        ratios.append(s[1] / s[0] if len(s) > 1 and s[0] > 0 else np.nan)
    return np.array(ratios)


def _squared_norm(weights, biases) -> float:
    """||W||^2, every weight and bias, each layer's sum taken in float64."""
    return sum(float((w**2).sum() + (b**2).sum()) for w, b in zip(weights, biases, strict=True))


def layer_norm_bounds(weights, biases) -> np.ndarray:
    """The proof of Prop. 4's bound ||W_(l+1)||_F^2 <= (L + C_N) / (L - l), C_N := ||W||^2 - L at
    the network: (L - l) ||W_(l+1)||_F^2 / ||W||^2 for l = 0..L-1, at most 1 where it holds.
    ||W||^2 is every weight and bias, as Prop. 12's."""
    total, depth = _squared_norm(weights, biases), len(weights)
    return np.array([(depth - k) * float((weights[k] ** 2).sum()) / total for k in range(depth)])


def prop4_measures(weights, biases, x) -> dict:
    """Prop. 4's measures of one network on the inputs x (columns): the least s_2/s_1 over the
    hidden layers and its layer (0 where no layer has one), the largest (L - l) ||W_(l+1)||_F^2 /
    ||W||^2 and its l, and C_N := ||W||^2 - L."""
    ratios, bounds = hidden_ratios(weights, biases, x), layer_norm_bounds(weights, biases)
    least = int(np.nanargmin(ratios)) if np.isfinite(ratios).any() else -1
    norm = _squared_norm(weights, biases)
    return {
        "min_ratio": float(ratios[least]) if least >= 0 else np.nan,
        "ratio_layer": least + 1,
        "bound": float(bounds.max()),
        "bound_layer": int(bounds.argmax()),
        "c_n": norm - len(weights),
    }


def prop4_table(arrays: dict, task: LatentTask, runs: pd.DataFrame) -> pd.DataFrame:
    """One row per network of a stacked checkpoint: its run summary and prop4_measures on the
    training inputs."""
    x, _, _ = task.sample(int(runs.n_train.iloc[0]))
    rows = [
        run | prop4_measures(*network(arrays, index), x)
        for index, run in enumerate(runs.to_dict("records"))
    ]
    return pd.DataFrame(rows)
