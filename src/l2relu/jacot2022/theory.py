"""Numerical checks of jacot2022's propositions: the constructions of Prop. 13 and Remark 23,
the plateau of shallow networks (Props. 14, 15), Prop. 1's reformulation, Prop. 19's minimum."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022 import forces
from l2relu.jacot2022.data import bipartite_incidence
from l2relu.jacot2022.plateau import plateau_onset, with_running_best
from l2relu.training import engine
from l2relu.training.seeding import derive_seed, rng_for

# One plateau curve per data set.
CURVE = ["setting", "N"]


def triangles(adjacency: np.ndarray) -> int:
    """Number of 3-cliques of a simple graph: trace(A^3) / 6."""
    return int(round(np.trace(np.linalg.matrix_power(adjacency, 3)) / 6))


def prop13_table(ns) -> pd.DataFrame:
    """Prop. 13 on the complete bipartite graph: edges, cliques, and B_N = E^T E's block form."""
    rows = []
    for n in ns:
        e = bipartite_incidence(n)
        b = e.T @ e
        half = n // 2
        block = np.block(
            [
                [half * np.eye(half), np.ones((half, half))],
                [np.ones((half, half)), half * np.eye(half)],
            ]
        )
        adjacency = b - np.diag(np.diag(b))
        rows.append(
            {
                "N": n,
                "edges": len(e),
                "triangles": triangles(adjacency),
                "block_form_error": float(np.abs(b - block).max()),
            }
        )
    return pd.DataFrame(rows)


def graph_incidence(name: str) -> np.ndarray:
    """Edge-vertex matrix of a named graph: bipartite-N (K_{N/2,N/2}), cycle-N, complete-N or
    petersen."""
    if name == "petersen":
        outer = [(i, (i + 1) % 5) for i in range(5)]
        spokes = [(i, i + 5) for i in range(5)]
        inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
        edges, n = outer + spokes + inner, 10
    else:
        family, n = name.rsplit("-", 1)
        n = int(n)
        if family == "bipartite":
            return bipartite_incidence(n)
        edges = {
            "cycle": [(i, (i + 1) % n) for i in range(n)],
            "complete": [(a, b) for a in range(n) for b in range(a + 1, n)],
        }[family]
    e = np.zeros((len(edges), n))
    for row, (a, b) in enumerate(edges):
        e[row, [a, b]] = 1.0
    return e


@dataclass(frozen=True)
class CpSearchConfig:
    graphs: tuple  # graph_incidence names
    restarts: int  # random starts, all optimized together
    steps: int  # Adam steps, step size annealed from lr to 0
    lr: float
    seed: int


def nonnegative_factorization_residuals(a: np.ndarray, rows: int, cfg: CpSearchConfig, label: str):
    """Relative residuals ||B^T B - A||_F / ||A||_F of `rows` x N matrices B >= 0 found from
    cfg.restarts random starts (B = C * C, so B stays non-negative without projection)."""
    g = torch.Generator().manual_seed(derive_seed(cfg.seed, "cp", label, rows))
    target = torch.tensor(a)
    scale = np.sqrt(2 * np.sqrt(a.diagonal().mean() / rows))
    c = torch.rand((cfg.restarts, rows, len(a)), generator=g, dtype=torch.float64) * scale
    c.requires_grad_(True)
    opt = torch.optim.Adam([c], lr=cfg.lr)
    anneal = torch.optim.lr_scheduler.CosineAnnealingLR(opt, cfg.steps)
    for _ in range(cfg.steps):
        b = c * c
        loss = ((b.transpose(1, 2) @ b - target) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        anneal.step()
    b = c.detach() ** 2
    gap = (b.transpose(1, 2) @ b - target).flatten(1).norm(dim=1)
    return (gap / np.linalg.norm(a)).numpy()


def cp_rank_table(cfg: CpSearchConfig) -> pd.DataFrame:
    """Prop. 13 read on each graph: the best non-negative factorization A = B^T B of A = E^T E
    with k - 1 rows (k edges) against the best with k rows, which E itself fits exactly and
    which sets the search's resolution."""
    rows = []
    for name in cfg.graphs:
        e = graph_incidence(name)
        a, k = e.T @ e, len(e)
        below = nonnegative_factorization_residuals(a, k - 1, cfg, name).min()
        at_k = nonnegative_factorization_residuals(a, k, cfg, name).min()
        adjacency = a - np.diag(np.diag(a))
        rows.append(
            {
                "graph": name,
                "vertices": len(a),
                "edges": k,
                "triangles": triangles(adjacency),
                "rank": int(np.linalg.matrix_rank(a)),
                "best_residual_below_k": float(below),
                "best_residual_at_k": float(at_k),
            }
        )
    return pd.DataFrame(rows)


def remark23_table(ns) -> pd.DataFrame:
    """Remark 23: W1 = sqrt(N/2) I, W2 = sqrt(2/N) E^T E represents Y = B_N with ||W||^2 = N^2 + N;
    W1 = E, W2 = E^T (N^2/4 neurons) does it with ||W||^2 = N^2, the representation cost."""
    rows = []
    for n in ns:
        e = bipartite_incidence(n)
        b = e.T @ e
        width_n = shallow_representation(np.sqrt(n / 2) * np.eye(n), np.sqrt(2 / n) * b, b)
        edges = shallow_representation(e, e.T, b)
        rows.append(
            {"N": n}
            | {f"width_N_{k}": v for k, v in width_n.items()}
            | {f"edge_network_{k}": v for k, v in edges.items()}
        )
    return pd.DataFrame(rows)


def shallow_representation(w1: np.ndarray, w2: np.ndarray, y: np.ndarray) -> dict:
    """How well the shallow network x -> W2 relu(W1 x) represents y on X = I_N (its largest
    error) and at what cost (||W||^2)."""
    return {
        "error": float(np.abs(w2 @ np.maximum(w1, 0) - y).max()),
        "norm": float((w1**2).sum() + (w2**2).sum()),
    }


def prop1_table(trials: int, widths=(7, 9, 5), n_points: int = 6, beta: float = 1.0, lam=0.1):
    """Prop. 1: for random representations Z, L_lambda(Psi(Z)) = L^r_lambda(Z). Hidden widths
    exceed N so that every Z is feasible; C is the MSE to a random target."""
    rows = []
    for t in range(trials):
        rng = rng_for("jacot2022", "prop1", t)
        x = torch.tensor(rng.standard_normal((widths[0], n_points)))
        zs = [torch.tensor(rng.standard_normal((w, n_points))) for w in widths[1:]]
        y = torch.tensor(rng.standard_normal(zs[-1].shape))
        weights = forces.psi(zs, x, beta)
        # L^r's penalty sum_l ||Z_l (Z^sigma_{l-1})^+||^2 is ||Psi(Z)||^2 term by term, so the
        # identity holds iff the network with weights Psi(Z) reproduces Z_L.
        penalty = lam * float(sum((w**2).sum() for w in weights))
        ws, bs = [w[:, :-1] for w in weights], [w[:, -1] for w in weights]
        out = forces.representations(ws, bs, x, beta)[-1]
        direct = float(((out - y) ** 2).sum(0).mean()) + penalty
        reformulated = float(((zs[-1] - y) ** 2).sum(0).mean()) + penalty
        rows.append(
            {
                "trial": t,
                "direct": direct,
                "reformulated": reformulated,
                "relative_gap": abs(direct - reformulated) / abs(reformulated),
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Prop19Config:
    lam: float  # regularization, < 1
    angle: float  # a = sqrt(1 - lam) (cos angle, sin angle): any a1, a2 > 0 on that circle
    radius: float  # size of the sampled neighbourhood
    samples: int  # random perturbations tried
    outputs: tuple[float, float]  # Y: (1, 1) in the proof, (1, -1) in the statement
    reduction: str  # "sum": the proof's ||.||^2; "mean": the statement's (1/N)||.||^2
    endpoint_eps: tuple[float, ...] = (1e-1, 1e-2, 1e-3)  # the proof's W^eps, eps -> 0


# Prop. 19's second half: Y as the statement writes it, (1, -1), or as the proof does, (1, 1);
# the proof's W^eps as printed (W_2^eps = (sqrt(1 - lambda), -eps)) or with eps's sign flipped.
PROP19_OUTPUTS = {"statement": (1.0, -1.0), "proof": (1.0, 1.0)}
PROP19_SIGNS = {"printed": -1.0, "flipped": 1.0}


def prop19_covariances(w1, w2, x):
    """(K_1, K_1^sigma, Z_2) of the widths-(1, 2, 1) network W_1 (2,), W_2 (2,) on inputs x (N,)."""
    z1 = np.outer(w1, x)
    s1 = np.maximum(z1, 0.0)
    return z1.T @ z1, s1.T @ s1, w2 @ s1


def reformulated_loss(k1, k1s, z2, x, y, lam) -> float:
    """L^k of Prop. 3 / 17 for L = 2, no bias, the sum-of-squares cost: ||Z_2 - Y||^2 +
    lambda (Tr[K_1 (X^T X)^+] + Tr[Z_2^T Z_2 (K_1^sigma)^+]), from the covariances alone."""
    gram = np.outer(x, x)
    penalty = np.trace(k1 @ np.linalg.pinv(gram)) + np.trace(np.outer(z2, z2) @ np.linalg.pinv(k1s))
    return float(((z2 - y) ** 2).sum() + lam * penalty)


def prop19_endpoint(cfg: Prop19Config, outputs: str, sign: str) -> tuple[float, float]:
    """The proof of Prop. 19's second half: L^k at the covariances of the proof's W^eps
    (approaching the arc's end a = (sqrt(1 - lambda), 0)) minus L^k at the covariances of the
    local minimum W(angle) (the same all along the arc); the largest over cfg.endpoint_eps
    (negative: lower values arbitrarily close, so not a local minimum of L^k), and the distance
    between the two covariance triples at the smallest eps."""
    x, y = np.array([1.0, -1.0]), np.asarray(PROP19_OUTPUTS[outputs])
    r = np.sqrt(1 - cfg.lam)
    a = r * np.array([np.cos(cfg.angle), np.sin(cfg.angle)])
    base = prop19_covariances(a, a, x)
    lk = reformulated_loss(*base, x, y, cfg.lam)
    drops = []
    for eps in sorted(cfg.endpoint_eps, reverse=True):
        near = prop19_covariances(np.array([r, -eps]), np.array([r, PROP19_SIGNS[sign] * eps]), x)
        drops.append(reformulated_loss(*near, x, y, cfg.lam) - lk)
    far = max(float(np.abs(u - v).max()) for u, v in zip(near, base, strict=True))
    return max(drops), far


def prop19_table(cfg: Prop19Config) -> pd.DataFrame:
    """Prop. 19: W1 = (a1, a2)^T, W2 = (a1, a2) with a1^2 + a2^2 = 1 - lambda is a local minimum
    of L_lambda on X = (1, -1): no sampled nearby point has a lower loss."""
    x = np.array([1.0, -1.0])
    y = np.asarray(cfg.outputs, dtype=float)
    scale = 1.0 if cfg.reduction == "sum" else 0.5

    def loss(p):  # p: (..., 4) = a1, a2, b1, b2
        a, b = p[..., :2], p[..., 2:]
        out = (np.maximum(a[..., :, None] * x, 0.0) * b[..., :, None]).sum(-2)
        return scale * ((out - y) ** 2).sum(-1) + cfg.lam * (p**2).sum(-1)

    r = np.sqrt(1 - cfg.lam)
    a = r * np.array([np.cos(cfg.angle), np.sin(cfg.angle)])
    point = np.concatenate([a, a])
    rng = rng_for("jacot2022", "prop19", cfg.samples)
    steps = rng.standard_normal((cfg.samples, 4))
    steps *= (
        cfg.radius
        * rng.uniform(size=(cfg.samples, 1))
        / np.linalg.norm(steps, axis=1, keepdims=True)
    )
    nearby = loss(point + steps)
    row = {
        "loss_at_point": float(loss(point)),
        "lowest_nearby": float(nearby.min()),
        "samples": cfg.samples,
        "radius": cfg.radius,
    }
    for outputs in PROP19_OUTPUTS:
        for sign in PROP19_SIGNS:
            row[f"endpoint_{outputs}_{sign}"], far = prop19_endpoint(cfg, outputs, sign)
    row["endpoint_distance"] = far  # eps^2 at the smallest eps, whatever the outputs and sign
    return pd.DataFrame([row])


@dataclass(frozen=True)
class PlateauConfig:
    setting: str  # "bipartite" (X = I, Y = B_N), "onehot" (X = I, one-hot Y), "oned" (1-D)
    n: int  # data points N
    classes: int  # number of classes (onehot only)
    widths: tuple[int, ...]  # hidden widths tried
    lam: float  # L2 coefficient of (1/N)||Y_hat - Y||^2 + lam ||W||^2
    restarts: int  # initializations per width; the lowest objective is the estimate
    steps: int  # steps of each of the three phases (Adam 1e-2, Adam 1e-3, GD)
    seed: int
    depth: int = 2  # layers; every hidden layer of the width tried (shallow: Props. 14-15)


def plateau_data(cfg: PlateauConfig) -> tuple[np.ndarray, np.ndarray, bool]:
    """Inputs, outputs, and whether the network has a bias, for each setting of Props. 14-15."""
    if cfg.setting == "bipartite":
        e = bipartite_incidence(cfg.n)
        return np.eye(cfg.n), e.T @ e, False
    if cfg.setting == "onehot":
        labels = np.arange(cfg.n) % cfg.classes
        return np.eye(cfg.n), np.eye(cfg.classes)[:, labels], False
    if cfg.setting == "oned":
        rng = rng_for("jacot2022", "oned", cfg.n, cfg.seed)
        x = np.sort(rng.uniform(-1, 1, cfg.n))[None, :]
        return x, rng.standard_normal((1, cfg.n)), True
    raise ValueError(f"unknown setting {cfg.setting!r}")


def expected_onset(setting: str, n: int, classes: int) -> int:
    """What the paper predicts: N^2/4 (Prop. 14 with B_N), the number of classes (Prop. 14,
    one-hot), and at most 4N (Prop. 15)."""
    return {"bipartite": n**2 // 4, "onehot": classes, "oned": 4 * n}[setting]


def plateau_phases(steps: int) -> tuple:
    """Adam at 1e-2, then at 1e-3, then GD, `steps` each."""
    return (
        engine.Phase("adam", 1e-2, steps),
        engine.Phase("adam", 1e-3, steps),
        engine.Phase("gd", 0.05, steps),
    )


def plateau_losses(cfg: PlateauConfig, log=None) -> pd.DataFrame:
    return train_plateau(cfg, log)[0]


def train_plateau(cfg: PlateauConfig, log=None) -> tuple[pd.DataFrame, dict]:
    """Lowest regularized loss found at every width, and the network that found it (arrays
    width{n}_w1, _w2 and, with a bias, _b1, _b2): every width's restarts trained together in
    one batch, the narrower networks padded with zero neurons (see BatchedMLP.padded)."""
    x, y, bias = plateau_data(cfg)
    xt, yt = torch.tensor(x), torch.tensor(y)
    phases = plateau_phases(cfg.steps)
    models = []
    for width in cfg.widths:
        # deeper networks draw other seeds; shallow ones keep the draws they always had
        deeper = (cfg.depth,) if cfg.depth != 2 else ()
        seeds = [
            derive_seed("jacot2022", cfg.setting, cfg.n, width, cfg.seed, r, *deeper)
            for r in range(cfg.restarts)
        ]
        hidden = (width,) * (cfg.depth - 1)
        model = engine.BatchedMLP(
            engine.NetworkConfig((x.shape[0], *hidden, y.shape[0]), bias=bias),
            seeds,
            torch.device("cpu"),
            torch.float64,
        )
        if bias:  # 1-D data: start every neuron's kink at a random point of the data's range
            rng = rng_for("jacot2022", "kinks", cfg.n, width, cfg.seed)
            kinks = torch.tensor(rng.uniform(x.min(), x.max(), (cfg.restarts, width)))
            with torch.no_grad():
                model.biases[0].copy_(-model.weights[0][:, :, 0] * kinks)
        models.append(model)
    batch = engine.BatchedMLP.padded(models)
    result = engine.train(
        batch,
        xt,
        yt,
        cfg.lam,
        # progress about four times a phase, so that a long job shows it is alive
        engine.TrainConfig("mse", phases, log_every=max(1, cfg.steps // 4)),
        **({"log": log} if log else {}),
    )
    rows, networks = [], {}
    for i, width in enumerate(cfg.widths):
        mine = slice(i * cfg.restarts, (i + 1) * cfg.restarts)
        ok = ~result.diverged[mine]
        if ok.any():
            best = i * cfg.restarts + int(np.argmin(np.where(ok, result.objective[mine], np.inf)))
            networks |= _best_network(batch, best, width, f"width{width}")
        rows.append(
            {
                "setting": cfg.setting,
                "N": cfg.n,
                "width": width,
                "objective": float(result.objective[mine][ok].min()) if ok.any() else np.nan,
                "diverged": int((~ok).sum()),
                "device": result.device,
                "dtype": result.dtype,
            }
        )
        if log:
            log(f"[width {width}] lowest objective {rows[-1]['objective']:.6g}")
    return pd.DataFrame(rows), networks


def _best_network(batch, index: int, width: int, name: str) -> dict:
    """Network `index` of a padded batch, every hidden layer cut to its own width: arrays
    {name}_w1, _w2, ... and, with a bias, _b1, _b2, ..."""
    last = len(batch.weights) - 1
    cut = {
        f"w{i + 1}": w[index, : width if i < last else None, : width if i > 0 else None]
        for i, w in enumerate(batch.weights)
    }
    cut |= {
        f"b{i + 1}": b[index, : width if i < last else None] for i, b in enumerate(batch.biases)
    }
    return {f"{name}_{k}": v.detach().cpu().numpy() for k, v in cut.items()}


def seeds_spread(losses: pd.DataFrame, floor: float) -> dict:
    """Per (setting, N): how far apart the seeds' lowest losses are (largest over smallest,
    minus 1), at least `floor` (so that seeds that agree to the last bit do not make every later
    rounding step an onset): the optimizer's own reproducibility, the finest difference in loss
    the runs resolve."""
    levels = losses.groupby([*CURVE, "seed"]).objective.min().groupby(CURVE)
    spread = levels.max() / levels.min() - 1
    return {key: max(float(v), floor) for key, v in spread.items()}


def onsets(losses: pd.DataFrame, rel_tol: float | str, floor: float | None = None) -> pd.DataFrame:
    """Plateau onset of every (setting, N, seed), on the running best of `with_running_best`:
    the smallest width from which the loss stays within `rel_tol` of the curve's lowest, or
    within the seeds' spread (seeds_spread, at least `floor`) where `rel_tol` is "seeds"."""
    if rel_tol == "seeds":
        tolerance = seeds_spread(losses, floor)
    elif isinstance(rel_tol, str):
        raise ValueError(f"rel_tol {rel_tol!r} is a number or 'seeds'")
    rows = []
    curve = [*CURVE, "seed"]
    for (setting, n, seed), r in with_running_best(losses, curve).groupby(curve, sort=True):
        tol = tolerance[(setting, n)] if rel_tol == "seeds" else rel_tol
        rows.append(
            {
                "setting": setting,
                "N": n,
                "seed": seed,
                "rel_tol": tol,
                "onset": plateau_onset(r.width, r.best, tol),
                "level": r.best.min(),
                "widest": int(r.width.max()),
            }
        )
    return pd.DataFrame(rows)


def onehot_square_root(sizes) -> pd.DataFrame:
    """App. D.1: one-hot outputs Y with classes of the given sizes m_i (ordered by class);
    (Y^T Y)^(1/2) by eigendecomposition, and per class the largest distance of its diagonal
    block's entries from the paper's 1/m_i, beside the block's own value."""
    labels = np.repeat(np.arange(len(sizes)), sizes)
    y = np.eye(len(sizes))[:, labels]
    vals, vecs = np.linalg.eigh(y.T @ y)
    root = (vecs * np.sqrt(np.clip(vals, 0, None))) @ vecs.T
    rows, start = [], 0
    for m in sizes:
        block = root[start : start + m, start : start + m]
        rows.append(
            {"m": m, "value": float(block.mean()), "off": float(np.abs(block - 1 / m).max())}
        )
        start += m
    return pd.DataFrame(rows)


def compressed_width(net: dict, x: np.ndarray, y: np.ndarray, lam: float, tol: float) -> dict:
    """Remark 11's compression of a shallow network {w1, w2[, b1, b2]} on data (x, y), columns:
    neurons carrying at most tol ||Z_L|| dropped; the others grouped greedily (largest first)
    where their pre-activations over the data have cosine >= 1 - tol with the group's first,
    each group one neuron (Sec. 3.1's merge): the first's incoming weights times s and the
    members' outgoing columns, each times its factor alpha_j, summed over s, with s^2 the sum
    of the alpha_j^2, which keeps K_1, K_1^sigma and Z_L where the alignment is exact. Returns
    the groups, the relative change of Z_L, the merged network's objective
    (1/N)||Z_L - Y||^2 + lam ||W||^2, and a lower bound on Rank_sigma of the first layer,
    max(Rank K_1, Rank K_1^sigma) (numerical ranks at tol)."""
    w1, w2 = net["w1"], net["w2"]
    b1, b2 = net.get("b1", np.zeros(len(w1))), net.get("b2", np.zeros(len(w2)))
    pre = w1 @ x + b1[:, None]
    z = np.maximum(pre, 0.0)
    out = w2 @ z + b2[:, None]
    share = np.linalg.norm(w2, axis=0) * np.linalg.norm(z, axis=1)
    live = np.flatnonzero(share > tol * np.linalg.norm(out))
    live = live[np.argsort(-np.linalg.norm(pre[live], axis=1), kind="stable")]
    groups = []  # (first neuron, [(member, alpha)])
    for i in live:
        for first, members in groups:
            if pre[i] @ pre[first] >= (1 - tol) * np.linalg.norm(pre[i]) * np.linalg.norm(
                pre[first]
            ):
                members.append((i, pre[i] @ pre[first] / (pre[first] @ pre[first])))
                break
        else:
            groups.append((i, [(i, 1.0)]))
    firsts = [first for first, _ in groups]
    scale = np.array([np.sqrt(sum(a * a for _, a in m)) for _, m in groups])
    columns = np.array([sum(a * w2[:, j] for j, a in m) for _, m in groups]).reshape(-1, len(w2))
    columns = columns / scale[:, None]
    merged = columns.T @ (scale[:, None] * z[firsts]) + b2[:, None]
    norm = (scale**2 * ((w1[firsts] ** 2).sum(axis=1) + b1[firsts] ** 2)).sum()
    norm += (columns**2).sum() + (b2**2).sum()
    fit = ((merged - y) ** 2).sum() / y.shape[1]
    return {
        "groups": len(groups),
        "change": float(np.linalg.norm(merged - out) / np.linalg.norm(out)),
        "merged_objective": float(fit + lam * norm),
        "rank_bound": max(_rank(pre.T @ pre, tol), _rank(z.T @ z, tol)),
    }


def _rank(gram: np.ndarray, tol: float) -> int:
    values = np.linalg.eigvalsh(gram)
    return int((values > tol * values.max()).sum()) if values.max() > 0 else 0


def plateau_networks(tables, arrays) -> dict:
    """{(setting, N, seed): the job's saved networks}, from each plateau job's losses table and
    networks file, in the same order."""
    jobs = (pd.read_csv(t).iloc[0] for t in tables)
    # plain ints: a run's seeds derive from repr() of its description (seeding.derive_seed)
    return {
        (j.setting, int(j.N), int(j.seed)): np.load(a) for j, a in zip(jobs, arrays, strict=True)
    }


def compression_table(
    networks, losses: pd.DataFrame, classes: int, lam: float, tols
) -> pd.DataFrame:
    """Per plateau job (networks: {(setting, N, seed): npz arrays}): compressed_width of its
    widest network at each tolerance, and the merged network's objective over the lowest its
    data set reached at any width (and seed, where the seeds share the data: not 1-D data, which
    each seed draws anew)."""
    rows = []
    for (setting, n, seed), arrays in networks.items():
        mine = losses[(losses.setting == setting) & (losses.N == n)]
        own = mine[mine.seed == seed]
        lowest = (own if setting == "oned" else mine).objective.min()
        widest = int(mine.width.max())
        prefix = f"width{widest}_"
        net = {k.removeprefix(prefix): arrays[k] for k in arrays.files if k.startswith(prefix)}
        x, y, _ = plateau_data(PlateauConfig(setting, n, classes, (), lam, 1, 1, seed))
        for tol in tols:
            c = compressed_width(net, x, y, lam, tol)
            rows.append(
                {"setting": setting, "N": n, "seed": seed, "width": widest, "tol": tol}
                | c
                | {"over_lowest": c["merged_objective"] / lowest}
            )
    return pd.DataFrame(rows)
