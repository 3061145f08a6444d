"""Theorems 1, 3, 4, 5 and Lemma 6 of timor2022, as computations."""

import numpy as np
import pandas as pd

from l2relu.timor2022 import regions
from l2relu.training import measures
from l2relu.training.seeding import rng_for


def theorem1_network(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Appendix A: a zero-loss network with rank(W) = 1 for two inputs (the columns of x).

    w_1 = x1/||x1|| - x2/||x2||, w_2 = -w_1 makes each neuron active on exactly one input;
    Lemma 2 then gives V = Y relu(W X)^+.
    """
    x1, x2 = x[:, 0], x[:, 1]
    w1 = x1 / np.linalg.norm(x1) - x2 / np.linalg.norm(x2)
    w = np.stack([w1, -w1])
    v = y @ np.linalg.pinv(np.maximum(w @ x, 0.0))
    return w, v


def theorem1_table(n_datasets: int, seed_parts=("timor2022", "theorem1")):
    """The construction on random 2-point data sets (Gaussian inputs and targets)."""
    rows = []
    for k in range(n_datasets):
        rng = rng_for(*seed_parts, k)
        x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
        w, v = theorem1_network(x, y)
        s = measures.singular_values(w)
        rows.append(
            {
                "dataset": k,
                "input_angle": input_angle(x),
                "loss": half_square_loss(w, v, x, y),
                "sv_ratio": s[1] / s[0],
            }
        )
    return pd.DataFrame(rows)


def half_square_loss(w, v, x, y) -> float:
    """timor2022 Eq. (1): (1/2)||V relu(W X) - Y||_F^2."""
    return 0.5 * float(((v @ np.maximum(w @ x, 0.0) - y) ** 2).sum())


def input_angle(x) -> float:
    return float(measures.angle(x[:, 0], x[:, 1]))


def theorem3_bound(theta: float) -> float:
    """Theorem 3: Pr[E] >= 2 (theta / 2 pi)^2, theta = angle(x1, x2)."""
    return 2 * (theta / (2 * np.pi)) ** 2


def theorem3_radius(theta: float) -> float:
    """Theorem 3's bound on ||w_i(0)||, (sqrt 3/2) min{sin((pi - theta)/4), sin(theta - pi/2)}."""
    return np.sqrt(3) / 2 * min(np.sin((np.pi - theta) / 4), np.sin(theta - np.pi / 2))


# Spherically symmetric laws of w_i(0) inside Theorem 3's radius r: the norm uniform on the disc
# of radius r, on the circle of radius r, or uniform on the disc of radius r / 100.
THEOREM3_LAWS = ("uniform on the disc", "on the circle", "disc of a hundredth the radius")


def theorem3_draw(runs: int, radius: float, law: str, rng) -> np.ndarray:
    """(runs, 2, 2) first layers, each row w_i(0) drawn independently from `law`."""
    angle = rng.uniform(0, 2 * np.pi, (runs, 2))
    if law == "on the circle":
        norm = np.full((runs, 2), radius)
    else:
        scale = radius / 100 if law == "disc of a hundredth the radius" else radius
        norm = scale * np.sqrt(rng.uniform(0, 1, (runs, 2)))  # uniform on the disc
    return norm[..., None] * np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def theorem3_descent(x, y, runs: int, law: str, seed_parts, steps: int, lr: float):
    """Theorem 3 under its own initialization, by gradient descent (the flow's stand-in): v_i(0)
    = 0 and w_i(0) from `law` inside the theorem's radius. Returns the final W (runs, 2, 2) and
    the final losses."""
    theta = input_angle(x)
    w = theorem3_draw(runs, theorem3_radius(theta), law, rng_for(*seed_parts, law))
    v = np.zeros((runs, 2, 2))
    for _ in range(steps):
        w, v = descent_step(w, v, x, y, lr)
    return w, batched_loss(w, v, x, y)


def theorem3_event(w: np.ndarray, converged: np.ndarray, theta: float) -> np.ndarray:
    """Event E of Theorem 3 for every run: zero loss, the angle between w_1, w_2 and their norms
    in the stated intervals. w: (R, 2, 2) final W(1), rows = neurons."""
    ang = measures.angle(w[:, 0], w[:, 1])
    excess = theta - np.pi / 2
    angle_ok = (ang >= np.pi / 2 - excess) & (ang <= 3 * np.pi / 4 + excess / 2)
    norms = np.linalg.norm(w, axis=2)
    top = np.sqrt(0.25 + 4 / (3 * np.sin(theta) ** 2))
    norms_ok = ((norms > np.sqrt(3) / 2) & (norms < top)).all(axis=1)
    return converged & angle_ok & norms_ok


# Relative slack on Lemma 6's norm bound for weights trained by GD rather than gradient flow.
GD_NORM_SLACK = 1e-6


def lemma6_applies(w, x1, x2) -> tuple[np.ndarray, np.ndarray]:
    """Lemma 6's hypothesis for final weights w (R, 2, 2): which runs have one neuron in S_1
    and the other in S_2, and which of those have them in the swapped order."""
    labels = regions.region_of(w, x1, x2)  # (R, 2)
    straight = (labels[:, 0] == "S1") & (labels[:, 1] == "S2")
    swapped = (labels[:, 0] == "S2") & (labels[:, 1] == "S1")
    return straight | swapped, swapped


def lemma6_membership(w, w0_norm, v0_norm, x1, x2) -> tuple[np.ndarray, np.ndarray]:
    """For final weights w (R, 2, 2) and initial norms (R, 2): which runs have their neurons in
    the interiors of S_1 and S_2 (in either order; Lemma 6's hypothesis), and, among those,
    whether w_i(inf) lies in F_i as the lemma concludes."""
    applies, swapped = lemma6_applies(w, x1, x2)
    order = np.where(swapped[:, None], [1, 0], [0, 1])
    in_f = np.ones(len(w), dtype=bool)
    for i in (1, 2):
        k = order[:, i - 1]
        neuron = w[np.arange(len(w)), k]
        r0 = w0_norm[np.arange(len(w)), k]
        eps0 = r0**2 - v0_norm[np.arange(len(w)), k] ** 2
        in_f &= np.array(
            [
                regions.in_F(p, i, x1, x2, r, e, GD_NORM_SLACK)
                for p, r, e in zip(neuron, r0, eps0, strict=True)
            ],
            dtype=bool,  # also when no run is given (none converged)
        )
    return applies, applies & in_f


def lemma6_intervals(w, w0_norm, x1, x2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lemma 6's two conclusions for final weights w (R, 2, 2) and initial norms (R, 2): which
    runs have their neurons in the interiors of S_1 and S_2 (either order), and, among those,
    whether sqrt(3)/2 < ||w_i|| < U_i (U_i from that neuron's own initial norm r_i) and
    pi - theta <= angle(w_1, w_2) < theta + 2 arcsin(2 max_i r_i / sqrt(3)), theta the inputs'
    angle; each end widened by GD_NORM_SLACK (relative) for weights trained by GD."""
    applies, _ = lemma6_applies(w, x1, x2)
    theta = float(measures.angle(np.asarray(x1, float), np.asarray(x2, float)))
    r = np.asarray(w0_norm, dtype=float)
    tilt = np.maximum(np.arcsin(np.minimum(2 * r / np.sqrt(3), 1.0)), theta - np.pi / 2)
    top = np.sqrt(0.25 + 4 / (3 * np.cos(tilt) ** 2))
    norms = np.linalg.norm(w, axis=2)
    low, high = 1 - GD_NORM_SLACK, 1 + GD_NORM_SLACK
    norms_ok = ((norms > np.sqrt(3) / 2 * low) & (norms < top * high)).all(axis=1)
    ang = measures.angle(w[:, 0], w[:, 1])
    right = theta + 2 * np.arcsin(np.minimum(2 * r.max(axis=1) / np.sqrt(3), 1.0))
    angle_ok = (ang >= (np.pi - theta) * low) & (ang < right * high)
    return applies, applies & norms_ok, applies & angle_ok


def balance_drift(runs: pd.DataFrame) -> np.ndarray:
    """Lemma 9 on Fig. 1's runs: per run, the largest over the two neurons of the change of
    ||w_i||^2 - ||v_i||^2 from its start to its end (0 under gradient flow)."""
    drift = []
    for i in (1, 2):
        w = runs[f"w{i}_1"] ** 2 + runs[f"w{i}_2"] ** 2
        v = runs[f"v{i}_1"] ** 2 + runs[f"v{i}_2"] ** 2
        start = runs[f"w{i}_init_norm"] ** 2 - runs[f"v{i}_init_norm"] ** 2
        drift.append((w - v - start).abs().to_numpy())
    return np.maximum(*drift)


def balance_drift_bound(lr: float, loss_scale: float, y: np.ndarray) -> float:
    """What gradient descent may move a quantity gradient flow conserves: a step changes
    ||w_i||^2 - ||v_i||^2 by at most lr^2 ||g||^2 while it lowers the loss by at least
    (lr / 2) ||g||^2 (lr below 1/smoothness), so a run moves it by at most 2 lr L(0), L(0) the
    loss at the (near-zero) start: loss_scale ||Y||_F^2."""
    return 2 * lr * loss_scale * float((np.asarray(y) ** 2).sum())


def batched_loss(w, v, x, y) -> np.ndarray:
    """Eq. (1) per network of stacked (R, 2, 2) first layers w and second layers v."""
    return 0.5 * ((v @ np.maximum(w @ x, 0.0) - y) ** 2).sum(axis=(1, 2))


def descent_step(w, v, x, y, lr: float):
    """One full-batch gradient-descent step on Eq. (1) (relu'(0) = 0) for stacked (R, 2, 2) w
    and v: the updated (w, v)."""
    pre = w @ x
    h = np.maximum(pre, 0.0)
    residual = v @ h - y
    grad_w = ((v.transpose(0, 2, 1) @ residual) * (pre > 0)) @ x.T
    return w - lr * grad_w, v - lr * residual @ h.transpose(0, 2, 1)


def half_square_grad_w(w, v, x, y) -> np.ndarray:
    """The gradient of Eq. (1), (1/2)||V relu(W X) - Y||_F^2, with respect to W (relu'(0) = 0)."""
    pre = w @ x
    residual = v @ np.maximum(pre, 0.0) - y
    return ((v.T @ residual) * (pre > 0)) @ x.T


def lemma7_sines(x, y, networks: int, seed_parts, region="S") -> np.ndarray:
    """Lemma 7 on random networks: for each, neuron 1 drawn in S_1 (`region` "S": the own region;
    "both": active on both inputs, outside the lemma's hypothesis), the other neuron and V
    Gaussian; |sin| of the angle between the gradient with respect to w_1 and x_1."""
    rng = rng_for(*seed_parts)
    x1, x2 = x[:, 0], x[:, 1]
    sines = []
    while len(sines) < networks:
        w, v = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
        active = (w[0] @ x1 > 0, w[0] @ x2 > 0)
        if active != ((True, False) if region == "S" else (True, True)):
            continue
        g = half_square_grad_w(w, v, x, y)[0]
        cross = g[0] * x1[1] - g[1] * x1[0]
        sines.append(abs(cross) / (np.linalg.norm(g) * np.linalg.norm(x1) + 1e-300))
    return np.array(sines)


def lemma3_losses(x, y, networks: int, seed_parts, sign: float = 1.0) -> np.ndarray:
    """Lemma 3's contrapositive: rank-1 first layers W = [w; alpha w] with sign(alpha) = `sign`
    (positive: outside the lemma's conclusion; negative: the conclusion's own form), and W with
    a zero row, each with its best V (least squares, V = Y relu(W X)^+): the loss of Eq. (1) each
    reaches."""
    rng = rng_for(*seed_parts)
    losses = []
    for k in range(networks):
        w = rng.standard_normal(2)
        second = sign * rng.uniform(0.1, 3.0) * w if k % 4 else np.zeros(2)
        h = np.maximum(np.stack([w, second]) @ x, 0.0)
        losses.append(half_square_loss(np.eye(2), y @ np.linalg.pinv(h), h, y))
    return np.array(losses)


def assumption_margins(x: np.ndarray, y: np.ndarray) -> dict:
    """Assumptions 1 and 2 on data (x, y) (columns the two points): the largest distance of a
    target's and of an input's norm from 1, |det[y_1 y_2]| (linear independence), and how far
    inside (pi/2, pi) the inputs' angle lies (its distance to the nearer end)."""
    theta = input_angle(x)
    return {
        "target_norm": float(np.abs(np.linalg.norm(y, axis=0) - 1).max()),
        "target_det": float(abs(np.linalg.det(y))),
        "input_norm": float(np.abs(np.linalg.norm(x, axis=0) - 1).max()),
        "angle_margin": float(min(theta - np.pi / 2, np.pi - theta)),
    }


def uniform_circle(rng, n: int) -> np.ndarray:
    """n points drawn uniformly on the unit circle, (n, 2)."""
    phi = rng.uniform(0, 2 * np.pi, n)
    return np.stack([np.cos(phi), np.sin(phi)], axis=1)


def wide_angle_share(pairs: int, seed_parts, draw=uniform_circle) -> float:
    """The share of `pairs` independent pairs x_1, x_2 (each drawn by `draw`) whose angle lies
    in (pi/2, pi): Assumption 2's angle condition."""
    rng = rng_for(*seed_parts)
    x1, x2 = draw(rng, pairs), draw(rng, pairs)
    ang = measures.angle(x1, x2)
    return float(((ang > np.pi / 2) & (ang < np.pi)).mean())


def balanced_frobenius(weights) -> float:
    """The B of Theorems 4-5 for a given network: rescale its layers (positive homogeneity keeps
    the function) so that all Frobenius norms are equal, their geometric mean."""
    norms = [np.linalg.norm(w) for w in weights]
    return float(np.exp(np.mean(np.log(norms))))


def theorem4_bound(b: float, k: int, k_prime) -> np.ndarray:
    """Eq. (3): mean_i ||W_i||_sigma / ||W_i||_F >= (1/B)^(k/k')."""
    return (1 / b) ** (k / np.asarray(k_prime, dtype=float))


def theorem5_bound(b: float, k: int, k_prime) -> np.ndarray:
    """Eq. (7): mean ratio >= (1/sqrt 2) (sqrt 2 / B)^(k/k') sqrt(k' / (k' + 1))."""
    kp = np.asarray(k_prime, dtype=float)
    return (1 / np.sqrt(2)) * (np.sqrt(2) / b) ** (k / kp) * np.sqrt(kp / (kp + 1))


def no_dead_row(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Per network (w: (R, 2, 2), rows = neurons), whether no row of W lies in D: no neuron
    with w . x_1 <= 0 and w . x_2 <= 0 (Lemma 4)."""
    return ~((w @ x) <= 0).all(axis=2).any(axis=1)


def lemma2_residuals(networks: int, seed_parts, exclusive: bool = True) -> np.ndarray:
    """Lemma 2 on random data sets (d_in 2-6, n <= d_in points, d_out 1-4): a first layer whose
    rows include, for every point, one active on it alone (the rows of X^+, w_j . x_l =
    delta_jl, among extra random rows; `exclusive` False drops them for rows active on every
    point), and the proof's V = [Y 0] [relu(WX)^+; 0] = Y relu(WX)^+. Per data set, the largest
    |V relu(WX) - Y| over max(1, max |Y|)."""
    rng = rng_for(*seed_parts)
    out = []
    for _ in range(networks):
        d_in = int(rng.integers(2, 7))
        n, d_out = int(rng.integers(1, d_in + 1)), int(rng.integers(1, 5))
        x, y = rng.standard_normal((d_in, n)), rng.standard_normal((d_out, n))
        extra = rng.standard_normal((int(rng.integers(0, 4)), d_in))
        own = np.linalg.pinv(x) if exclusive else np.tile(x.sum(axis=1), (n, 1))
        w = rng.permutation(np.vstack([own, extra]))
        h = np.maximum(w @ x, 0.0)
        out.append(np.abs(y @ np.linalg.pinv(h) @ h - y).max() / max(1.0, np.abs(y).max()))
    return np.array(out)


def dead_row_descent(x, y, networks: int, seed_parts, steps=2000, lr=0.1, start="D"):
    """Lemma 5 by gradient descent on Eq. (1) (relu'(0) = 0) from random networks whose first
    neuron starts inside D (`start` "D"; "S": both neurons active on both inputs, outside the
    lemma). Returns per network the final loss and whether w_1 ended where it started."""
    rng = rng_for(*seed_parts)
    w, v = rng.standard_normal((networks, 2, 2)), rng.standard_normal((networks, 2, 2))
    if start == "D":  # -(x_1 + x_2) has a negative product with both inputs (their angle < pi)
        w[:, 0] = -rng.uniform(0.2, 2.0, (networks, 1)) * (x[:, 0] + x[:, 1])
    else:
        w = np.abs(rng.standard_normal((networks, 2, 1))) * (x[:, 0] + x[:, 1]) / 2
        w += 0.1 * rng.standard_normal((networks, 2, 2))
    start_row = w[:, 0].copy()
    for _ in range(steps):
        w, v = descent_step(w, v, x, y, lr)
    return batched_loss(w, v, x, y), np.all(w[:, 0] == start_row, axis=1)


def lemma8_slacks(x, y, networks: int, seed_parts, v_scale: float = 1.0) -> np.ndarray:
    """Lemma 8 on zero-loss networks built on data (x, y): w_i drawn in S_i at random scales,
    v_i = y_i / (w_i . x_i) (so V relu(WX) = Y; `v_scale` != 1 breaks it). Per network and
    neuron with |eps_i| <= 1, min(||w_i||, ||v_i||) - sqrt(1 - |eps_i|)."""
    rng = rng_for(*seed_parts)
    slacks = []
    while len(slacks) < 2 * networks:
        w = rng.standard_normal((2, 2)) * rng.uniform(0.05, 3.0, (2, 1))
        pre = w @ x
        if not (pre[0, 0] > 0 >= pre[0, 1] and pre[1, 1] > 0 >= pre[1, 0]):
            continue
        v = v_scale * y / np.diag(pre)  # column i: y_i / (w_i . x_i)
        for i in range(2):
            eps = w[i] @ w[i] - v[:, i] @ v[:, i]
            if abs(eps) <= 1:
                bound = np.sqrt(1 - abs(eps))
                slacks.append(min(np.linalg.norm(w[i]), np.linalg.norm(v[:, i])) - bound)
    return np.array(slacks)


def _in_own_regions(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Per network (w: (R, 2, 2)): w_i in int S_i for both i (w_i . x_i > 0 > w_i . x_(3-i))."""
    pre = w @ x  # (R, neuron, point)
    return (pre[:, 0, 0] > 0) & (pre[:, 0, 1] < 0) & (pre[:, 1, 1] > 0) & (pre[:, 1, 0] < 0)


def _draw_in_own_regions(x, runs: int, rng) -> np.ndarray:
    """(runs, 2, 2) first layers with w_i in int S_i: Gaussian rows times a scale drawn in
    [0.05, 1] per network (row norms from about 0.02 to 2.6)."""
    w = np.empty((0, 2, 2))
    while len(w) < runs:
        draw = rng.standard_normal((4 * runs, 2, 2)) * rng.uniform(0.05, 1.0, (4 * runs, 1, 1))
        w = np.concatenate([w, draw[_in_own_regions(draw, x)]])[:runs]
    return w


# Rounding room: relative, and the float64 error of phi's entries (of order 1, a few ulps)
ROUNDING, PHI_ROUNDING = 1e-12, 1e-15


def _point_state(w, v, x, y):
    """Per run and point i: L^i = |phi_i|^2 / 2 with phi_i = (w_i . x_i) v_i - y_i, v_i . phi_i,
    and whether v_i is off span{y_i} (beyond ROUNDING of |v_i|, relative)."""
    own = np.stack([w[:, i] @ x[:, i] for i in range(2)], axis=1)  # (R, 2)
    phi = own[:, None, :] * v - y  # column i: phi_i
    units = y / np.linalg.norm(y, axis=0)
    along = (v * units).sum(axis=1)
    off = np.linalg.norm(v - along[:, None, :] * units, axis=1) > ROUNDING * (
        1e-12 + np.linalg.norm(v, axis=1)
    )
    return 0.5 * (phi**2).sum(axis=1), (v * phi).sum(axis=1), off


def rises(loss, before) -> np.ndarray:
    """Whether a per-point loss L = |phi|^2 / 2 rose beyond rounding: ROUNDING of the earlier
    value, plus what an error d = PHI_ROUNDING in phi moves L by, |phi| d + d^2."""
    room = ROUNDING * before + PHI_ROUNDING * np.sqrt(2 * before) + PHI_ROUNDING**2
    return loss - before > room


def outside_g(w, w_start, off, push, loss, loss_start, x) -> np.ndarray:
    """Per run, which of Lemma 12's conditions on theta fail (any point i): w_i - w_i(t') is not
    c_i x_i with c_i >= 0 (x_i unit vectors), v_i is off span{y_i}, L^i is above L^i(t'), or
    v_i . phi_i > 0. Returns a (runs, 4) boolean array in that order."""
    moved = w - w_start
    c = np.stack([moved[:, i] @ x[:, i] for i in range(2)], axis=1)
    along_x = np.stack([np.outer(c[:, i], x[:, i]) for i in range(2)], axis=1)
    scale = 1e-12 + np.abs(moved).max(axis=(1, 2))[:, None]  # per run
    not_cx = (np.abs(moved - along_x).max(axis=2) > ROUNDING * scale) | (c < -ROUNDING * scale)
    above = rises(loss, loss_start)
    pushing = push > ROUNDING * np.sqrt(loss_start)
    return np.stack([not_cx.any(1), off.any(1), above.any(1), pushing.any(1)], axis=1)


# Lemmas 10-13's runs: the steps at their end over which convergence is read
LATE_STEPS = 1000


def _flat(w, v) -> np.ndarray:
    """Every run's parameters (W, V) as one row."""
    return np.concatenate([w.reshape(len(w), -1), v.reshape(len(v), -1)], axis=1)


def zero_v_descent(x, y, runs: int, seed_parts, steps: int, lr: float, v_scale: float = 0.0):
    """Lemmas 10-13 by gradient descent on Eq. (1) (relu'(0) = 0), gradient flow's stand-in,
    from w_i(0) in int S_i and v_i(0) = 0 (`v_scale` > 0 draws V(0) Gaussian instead, outside
    the lemmas). Per run, the steps that break each lemma (rounding room only) and the end:
    lemma10, a rise of some L^i while both w_i stay in int S_i; lemma11, after one step (t'),
    w_i out of int S_i, v_i . phi_i >= 0, v_i off span{y_i} or L^i not below L^i(0); lemma12,
    from t' on, theta outside G (outside_g); the final loss, whether each w_i ends in int S_i,
    and the largest parameter change over the last LATE_STEPS steps (convergence; the whole
    run's change when it is no longer)."""
    assert np.allclose(np.linalg.norm(x, axis=0), 1.0)
    rng = rng_for(*seed_parts)
    w = _draw_in_own_regions(x, runs, rng)
    v = v_scale * rng.standard_normal((runs, 2, 2))
    broken = {k: np.zeros(runs, dtype=int) for k in ("lemma10", "lemma11", "lemma12")}
    loss0 = previous = _point_state(w, v, x, y)[0]
    inside = _in_own_regions(w, x)
    late_from = max(steps - LATE_STEPS, 0)
    late = _flat(w, v)
    for step in range(1, steps + 1):
        w, v = descent_step(w, v, x, y, lr)
        loss, push, off = _point_state(w, v, x, y)
        inside = inside & _in_own_regions(w, x)
        broken["lemma10"] += (inside[:, None] & rises(loss, previous)).any(axis=1)
        if step == 1:
            first = ~inside | (push >= 0).any(axis=1) | off.any(axis=1)
            broken["lemma11"] += first | (loss >= loss0).any(axis=1)
            w_start, loss_start = w.copy(), loss.copy()
        else:
            broken["lemma12"] += outside_g(w, w_start, off, push, loss, loss_start, x).any(axis=1)
        if step == late_from:
            late = _flat(w, v)
        previous = loss
    final = batched_loss(w, v, x, y)
    end = _flat(w, v)
    return pd.DataFrame(
        broken
        | {
            "final_loss": final,
            "ends_in_own_regions": _in_own_regions(w, x),
            "late_change": np.abs(end - late).max(axis=1),
        }
    )
