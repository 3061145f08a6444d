"""Fig. 1's trained networks carried on to a stationary point of their own objective
(l2relu.polish), with the run summary the ledger reads and the certificate of both networks."""

import pandas as pd
import torch

from l2relu import engine, polish
from l2relu.jacot2023.data import LatentTask


def polish_fit(
    arrays: dict, task: LatentTask, fit_config: dict, iterations: int, index: int, device="auto"
):
    """Network `index` of a Fig. 1 checkpoint polished to a stationary point of its objective
    (1/N)||f(X) - Y||^2 + (lambda / L)||W||^2 (l2relu.polish), in float64. Returns its arrays
    (stacked, one network), its run summary (the columns of `fit`'s that the ledger reads) and
    the certificate of both networks (column `network`: schedule or polished; the schedule's
    objective fall is how far polishing lowered it, relative to where polishing ended)."""
    depth, lam = fit_config["depth"], fit_config["lam"] / fit_config["depth"]
    x, y, _ = task.sample(fit_config["n_train"])
    x, y = torch.tensor(x, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)
    one = slice(index, index + 1)
    model = engine.BatchedMLP.from_weights(
        [torch.as_tensor(arrays[f"w{i + 1}"][one]).double() for i in range(depth)],
        [torch.as_tensor(arrays[f"b{i + 1}"][one]).double() for i in range(depth)],
        bias=True,
    )
    cfg = polish.PolishConfig(iterations, "mse", log_every=max(1, iterations // 20), device=device)
    polished, after, both = polish.polish_and_certify(model, x, y, lam, cfg)
    certificate = both.assign(index=index)
    with torch.no_grad():
        norm = float(polished.squared_norm().cpu()[0])
    runs = pd.DataFrame(
        {
            "loss": after.loss,
            "objective": after.objective,
            "norm_per_layer": [norm / depth],
            "output_variance": float(((y - y.mean(1, keepdim=True)) ** 2).sum(0).mean()),
        }
    )
    return engine.stacked_arrays(polished), runs, certificate
