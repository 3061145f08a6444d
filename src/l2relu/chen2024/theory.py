"""chen2024's constructions over a grid of (M, Q, N): the cost of each constructed network
through the training engine, its parameter counts next to the paper's formulas, and, beyond
the paper, how often gradient descent from a random start reaches zero cost on the same data
and architecture."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.chen2024 import construction, data
from l2relu.training import engine
from l2relu.training.seeding import derive_seed

# The three networks built on every data set: widths of the Q hidden layers.
ARCHITECTURES = {
    "prop4.1": lambda m, q: (m,) * q,  # Prop. 4.1 at constant width M
    "cor4.2": lambda m, q: (q,) * q,  # Cor. 4.2: the first layer narrows to Q at once
    "thm5.2": lambda m, q: (m,) * q,  # Thm 5.2: width M
}


@dataclass(frozen=True)
class TheoryConfig:
    dims: tuple[tuple[int, int], ...]  # the (M, Q) pairs
    per_class: tuple[int, ...]  # points per class: N = Q * per_class
    spread: float  # cluster radius / smallest center-barycenter distance (< 1/4 for (55))
    seed: int
    gd_restarts: int  # random initializations trained per (M, Q), at the smallest N
    gd_adam_steps: int
    gd_adam_lr: float
    gd_steps: int
    gd_lr: float
    zero_cost: float  # a trained network "reaches zero cost" below this cost (14)
    # more networks of Prop. 4.1 and Thm 5.2, their free parameters drawn (the constructions')
    family_members: int = 0
    # random networks on which Prop. 3.2's identities are checked
    prop32_networks: int = 0


def engine_cost(net: construction.ConstructedNetwork, x, labels, y) -> float:
    """Cost (14) of a constructed network run through the training engine's forward pass."""
    model = engine.BatchedMLP.from_weights(
        [torch.tensor(w)[None] for w in net.weights],
        [torch.tensor(b)[None] for b in net.biases],
        bias=True,
    )
    with torch.no_grad():
        out = model.forward(torch.tensor(x)).numpy()[0]
    return construction.cost(out, labels, y)


def _build(name, m, q, x, labels, y, share=0.5):
    """One construction; `share` places each layer's free parameter in its interval (one for
    all layers, or one per layer): mu_l in (2 delta, 3 delta) (Prop. 4.1, Cor. 4.2), theta_l in
    (theta_{l,min}, pi) (Thm 5.2)."""
    if name == "thm5.2":
        return construction.separable_network(x, labels, y, theta_margin=share)
    return construction.clustered_network(x, labels, y, ARCHITECTURES[name](m, q), share)


# The constructions whose minimum the paper calls degenerate, and the parameters its family moves.
FAMILIES = {"prop4.1": "biases", "thm5.2": "weights"}


def family(name, m, q, x, labels, y, members: int, seed: int) -> tuple[float, float]:
    """The degenerate minimum of Prop. 4.1 (mu_l) and Thm 5.2 (theta_l): `members` networks,
    each layer's parameter drawn in the middle 90% of its interval (seeded), beside the one
    built at the middle; their largest cost (14) through the engine, and the smallest distance
    between two of them (largest entry of the difference of the parameters the family moves)."""
    rng = np.random.default_rng(derive_seed("chen2024", "family", name, m, q, len(labels), seed))
    shares = [0.5, *(rng.uniform(0.05, 0.95, q) for _ in range(members))]
    nets = [_build(name, m, q, x, labels, y, share=share) for share in shares]
    moved = [np.concatenate([a.ravel() for a in getattr(n, FAMILIES[name])[:q]]) for n in nets]
    apart = min(float(np.abs(a - b).max()) for i, a in enumerate(moved) for b in moved[i + 1 :])
    return max(engine_cost(n, x, labels, y) for n in nets), apart


def build_row(name, m, q, per_class, x, labels, y, members=0, seed=0) -> dict:
    row = {"construction": name, "M": m, "Q": q, "N": len(labels), "per_class": per_class}
    try:
        net = _build(name, m, q, x, labels, y)
    except construction.AssumptionError as err:
        return row | {"built": False, "failed_condition": err.condition, "cost": np.nan}
    if name in FAMILIES and members:
        row["family_cost"], row["family_apart"] = family(name, m, q, x, labels, y, members, seed)
    return row | {
        "built": True,
        "failed_condition": "",
        "cost": engine_cost(net, x, labels, y),
        "weights": sum(w.size for w in net.weights),
        "parameters": net.parameter_count(),
        # what fixes the network beyond the data: per hidden layer an aperture, an axis in R^M
        # and where the base point sits (mu on (2 delta, 3 delta), or t on the segment)
        "description_numbers": sum(1 + layer.axis.size + 1 for layer in net.hidden),
        "order": "-".join(map(str, net.order)),
    }


def constructions(cfg: TheoryConfig) -> pd.DataFrame:
    rows = []
    for m, q in cfg.dims:
        y = np.eye(q)
        for per_class in cfg.per_class:
            x, labels = data.clustered(m, q, per_class, cfg.spread, cfg.seed)
            rows += [
                build_row(name, m, q, per_class, x, labels, y, cfg.family_members, cfg.seed)
                for name in ARCHITECTURES
            ]
    return pd.DataFrame(rows)


def gradient_descent(cfg: TheoryConfig, device="auto", log=None) -> pd.DataFrame:
    """Beyond the paper: Thm 5.2's architecture (Q hidden layers of width M, biases) trained on
    cost (14) from He-initialized starts, Adam then GD, no regularization."""
    rows = []
    dev = engine.pick_device(device)
    for m, q in cfg.dims:
        per_class = min(cfg.per_class)
        x, labels = data.clustered(m, q, per_class, cfg.spread, cfg.seed)
        seeds = [derive_seed("chen2024", "gd", m, q, cfg.seed, r) for r in range(cfg.gd_restarts)]
        model = engine.BatchedMLP(
            engine.NetworkConfig((m, *(m,) * q, q), bias=True), seeds, dev, torch.float64
        )
        target = torch.tensor(np.eye(q)[:, labels], device=dev)
        phases = engine.adam_then_gd(cfg.gd_adam_lr, cfg.gd_adam_steps, cfg.gd_lr, cfg.gd_steps)
        result = engine.train(
            model,
            torch.tensor(x, device=dev),
            target,
            0.0,
            # progress four times a data set, so that a long job shows it is alive
            engine.TrainConfig(
                "mse_half_sum", phases, log_every=max(1, (cfg.gd_adam_steps + cfg.gd_steps) // 4)
            ),
            **({"log": log} if log else {}),
        )
        for restart, loss in enumerate(result.loss):
            record = result.record(restart)
            rows.append(
                {
                    "M": m,
                    "Q": q,
                    "N": len(labels),
                    "restart": restart,
                    "cost": float(loss),
                    **record,
                    "zero_cost": bool(loss < cfg.zero_cost) and not record["diverged"],
                }
            )
    return pd.DataFrame(rows)
