"""The plateau runs' networks (each width's best restart, Props. 14-15) carried on to a
stationary point of their own objective (1/N)||Y_hat - Y||^2 + lam ||W||^2
(l2relu.training.polish), so that the plateau is read on minima rather than on where the training
budget stopped."""

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022.theory import PlateauConfig, plateau_data
from l2relu.training import engine, polish


def _width_network(networks, width: int, bias: bool) -> engine.BatchedMLP | None:
    """A width's saved network (arrays width{w}_w1, _w2, ..., _b1, ...) as a one-network batch
    in float64, or None where every restart of that width diverged (nothing was saved)."""
    prefix = f"width{width}_"
    depth = sum(1 for k in networks if k.startswith(f"{prefix}w"))
    if not depth:
        return None

    def stacked(kind):
        return [
            torch.as_tensor(networks[f"{prefix}{kind}{i + 1}"])[None].double() for i in range(depth)
        ]

    return engine.BatchedMLP.from_weights(stacked("w"), stacked("b") if bias else (), bias=bias)


def _nothing_polished(width: int) -> pd.DataFrame:
    """A width with no network: certificate rows whose fall is unknown (NaN), so that no
    certificate bar holds there and its seed is not read as certified."""
    row = {"objective": np.nan, "fall_last_half": np.nan, "stalled": False, "width": width}
    return pd.DataFrame([row | {"network": "schedule"}, row | {"network": "polished"}])


def polish_plateau(cfg: PlateauConfig, networks, losses: pd.DataFrame, iterations: int):
    """Every width's saved network polished alone, on the CPU (networks of a few neurons: a GPU
    only adds latency). Returns the plateau's table as training wrote it (`losses`, one row per
    width) with each objective the polished network's, the polished networks (arrays named as
    `networks`), and the certificate of both networks of each width (column `network`: schedule
    or polished; column `width`). Progress goes to the engine's log (stderr)."""
    x, y, bias = plateau_data(cfg)
    x, y = torch.tensor(x), torch.tensor(y)
    settings = polish.PolishConfig(
        iterations, "mse", log_every=max(1, iterations // 4), device="cpu"
    )
    objectives, certificates, arrays = [], [], {}
    for width in losses.width:
        model = _width_network(networks, int(width), bias)
        if model is None:  # every restart diverged: nothing to polish, nothing certified
            objectives.append(np.nan)
            certificates.append(_nothing_polished(int(width)))
            continue
        polished, after, both = polish.polish_and_certify(model, x, y, cfg.lam, settings)
        objectives.append(float(after.objective.iloc[0]))
        certificates.append(both.assign(width=int(width)))
        saved = engine.stacked_arrays(polished)
        arrays |= {f"width{width}_{k}": v[0] for k, v in saved.items()}
    table = losses.assign(objective=objectives, device="cpu", dtype="float64")
    return table, arrays, pd.concat(certificates, ignore_index=True)
