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
    # eq. (61) at narrowing widths: this many choices of the R_l's a data set, each fitted to
    # keep eq. (21) from a seeded start; at most narrowing_tries starts are drawn
    narrowing_members: int = 0
    narrowing_tries: int = 0


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


def rebuilds_from_description(net: construction.ConstructedNetwork, x, labels, y) -> bool:
    """Whether Thm 5.2's network is rebuilt, to rounding, from its description alone (eq. 3:
    per hidden layer the aperture theta_l, the normal nu_l and the position mu_l of the base
    point on the segment from its class mean to the barycenter), the data and the class order."""
    q = y.shape[0]
    means = construction.class_means(x, labels, q)
    center = means.mean(axis=1)
    steps = net.notes["plan"]
    cuts = [
        (
            s.collapsed_class,
            means[:, s.collapsed_class] + s.segment_t * (center - means[:, s.collapsed_class]),
            layer.axis,
            layer.aperture,
            None,
        )
        for s, layer in zip(steps, net.hidden, strict=True)
    ]
    again = construction._build(
        x, labels, y, q, lambda layer, *_: cuts[layer - 1], (x.shape[0],) * q, net.order, {}
    )
    scale = max(np.abs(p).max() for p in net.weights + net.biases)
    return all(
        np.abs(a - b).max() <= 1e-12 * scale
        for a, b in zip(again.weights + again.biases, net.weights + net.biases, strict=True)
    )


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
        # Thm 5.2's network from its description alone (eq. 3), the data and the class order
        "rebuilt_from_description": (
            rebuilds_from_description(net, x, labels, y) if name == "thm5.2" else np.nan
        ),
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


# Eq. (61)'s strictly narrowing widths M > d_1 >= ... >= d_Q >= Q, at M > Q.
NARROWING = {
    "widths Q, ..., Q": lambda m, q: (q,) * q,  # Cor. 4.2's: the first layer narrows to Q
    "widths M - 1, M - 2, ... down to Q": lambda m, q: tuple(
        max(q, m - k) for k in range(1, q + 1)
    ),
}
ROTATIONS = {
    "fitted": construction.fitted_rotations,
    "householder": construction.householder_rotations,
}


def _outputs(net, x):
    return net.representations(x)[-1]


# how far apart (largest weight entry) two choices of R_l must be to count as two
CHOICES_APART = 1e-6
# The fits of R_l end at rounding-level different points from one build to the next (the
# solutions form a manifold), so the table keeps the cost and the output gap at resolutions
# four and two orders below their bars (1e-16, 1e-12), rounded up so that no value reads lower,
# and whether the choices are apart rather than by how much.
COST_RESOLUTION = 1e-20
GAP_RESOLUTION = 1e-14


def _resolved(value: float, step: float) -> float:
    return float(np.ceil(value / step) * step)


def narrowing_row(widths_name, m, q, per_class, x, labels, y, rotations, members, tries, seed):
    """Eq. (61) at one of NARROWING's widths with R_l from ROTATIONS[rotations]: 'fitted'
    draws seeded starts until `members` choices keep eq. (21) (at most `tries`), 'householder'
    is the one choice of cone_layer. The largest cost (14) through the engine, the largest
    entry gap between two choices' outputs on the data, and the smallest largest-entry
    distance between two choices' weights and biases (they must differ for the gap to say
    anything)."""
    widths = NARROWING[widths_name](m, q)
    row = {
        "widths": widths_name,
        "d": "-".join(map(str, widths)),
        "M": m,
        "Q": q,
        "N": len(labels),
        "per_class": per_class,
        "rotations": rotations,
    }
    nets, failures, residuals = [], [], []
    draws = range(tries) if rotations == "fitted" else range(1)
    for draw in draws:
        rng = np.random.default_rng(derive_seed("chen2024", "eq61", m, q, len(labels), seed, draw))
        try:
            nets.append(construction.eq61_network(x, labels, y, widths, ROTATIONS[rotations], rng))
        except construction.AssumptionError as err:
            failures.append(err.condition)
            residuals.append(np.nan if err.value is None else err.value)
        if len(nets) == (members if rotations == "fitted" else 1):
            break
    row |= {
        "tried": len(nets) + len(failures),
        "built": len(nets),
        "failed_condition": ",".join(sorted(set(failures))),
        "residual_21": max(residuals) if residuals else 0.0,
    }
    if not nets:
        return row | {"cost": np.nan, "output_gap": np.nan, "apart": False}
    outs = [_outputs(n, x) for n in nets]
    params = [np.concatenate([a.ravel() for a in n.weights + n.biases]) for n in nets]
    pairs = [(i, k) for i in range(len(nets)) for k in range(i + 1, len(nets))]
    gap = max((float(np.abs(outs[i] - outs[k]).max()) for i, k in pairs), default=np.nan)
    apart = min((float(np.abs(params[i] - params[k]).max()) for i, k in pairs), default=np.nan)
    return row | {
        "cost": _resolved(max(engine_cost(n, x, labels, y) for n in nets), COST_RESOLUTION),
        "output_gap": _resolved(gap, GAP_RESOLUTION),
        "apart": bool(apart >= CHOICES_APART),
    }


def narrowing(cfg: TheoryConfig) -> pd.DataFrame:
    """Eq. (61) at strictly narrowing widths on every data set of the grid with M > Q, with
    fitted and with Householder R_l's."""
    rows = []
    for m, q in cfg.dims:
        if m == q:
            continue
        for per_class in cfg.per_class:
            x, labels = data.clustered(m, q, per_class, cfg.spread, cfg.seed)
            for name in NARROWING:
                for rotations in ROTATIONS:
                    rows.append(
                        narrowing_row(
                            name,
                            m,
                            q,
                            per_class,
                            x,
                            labels,
                            np.eye(q),
                            rotations,
                            cfg.narrowing_members,
                            cfg.narrowing_tries,
                            cfg.seed,
                        )
                    )
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
