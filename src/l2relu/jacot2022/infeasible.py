"""App. B.1: the term ||Z~_{l+1} (Z~^sigma_l)^+||_F^2 of L^r_lambda near a point Z where the
constraint Im Z_{l+1}^T in Im (Z^sigma_l)^T fails, against the paper's bound
(||Z_{l+1} v||^2 - eps) / eps for every Z~ with ||Z~ - Z|| <= eps.

A point is a pair (Z_l, Z_{l+1}) of a ReLU network with Z^sigma_l = (relu(Z_l); beta 1^T): a unit
v supported on a few inputs S, with 1^T v = 0, is orthogonal to every row of relu(Z_l) (rows
constant on S), and Z_{l+1} = A Z^sigma_l + b v^T, so that Z_{l+1} v = b != 0. One neuron is
dead at 0 on S, and one row is constant on S and negative elsewhere: activating the dead neuron
along v + c 1_S puts v in the row space of Z~^sigma_l, so feasible points lie within any eps.
"""

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022.forces import with_bias_row
from l2relu.jacot2022.prop1 import BETA
from l2relu.training.seeding import rng_for

# Inputs N, the next layer's width n_{l+1}, the size of v's support S.
N_POINTS = 6
NEXT_WIDTH = 3
SUPPORT = 3
# Hidden widths n_l below and above N.
WIDTHS = (4, 9)
# Random points per width, and radii eps of the neighbourhoods.
POINTS = 4
EPSILONS = (1e-1, 1e-2, 1e-3)
# Perturbations of each random kind per point and eps (besides Z~ = Z).
PER_KIND = 50
KINDS = ("gaussian", "kernel", "activating")
# Singular values of Z~^sigma_l below this share of the largest are read as 0 in the
# pseudo-inverse: relu(Z~_l) v = 0 holds exactly for the kinds that keep it, but 1^T v = 0 only
# to rounding (1e-16 of the largest), while the genuine ones here exceed 1e-7 of it.
RTOL = 1e-10
# Rounding room of the test ||Z~ - Z|| <= eps after the projection.
BALL_ROOM = 1e-9


def infeasible_point(width: int, rng) -> dict:
    """A random infeasible point (Z_l (width x N), Z_{l+1}) with its unit v in ker Z^sigma_l and
    Z_{l+1} v = b, ||b|| in [0.7, 1.5]; row 0 of Z_l is dead at 0 on S, row 1 is c 1_S there."""
    support = rng.choice(N_POINTS, SUPPORT, replace=False)
    off = np.setdiff1d(np.arange(N_POINTS), support)
    v = np.zeros(N_POINTS)
    w = rng.standard_normal(SUPPORT)
    v[support] = w - w.mean()
    v /= np.linalg.norm(v)
    z = np.empty((width, N_POINTS))
    z[:, support] = rng.uniform(0.5, 1.5, (width, 1))  # constant on S: orthogonal to v
    z[:, off] = rng.standard_normal((width, off.size))
    z[0, support] = 0.0  # the dead neuron
    z[:2, off] = -rng.uniform(0.5, 1.5, (2, off.size))
    zl = torch.as_tensor(z)
    a = rng.standard_normal((NEXT_WIDTH, width + 1)) / np.sqrt(width + 1)
    b = rng.standard_normal(NEXT_WIDTH)
    b *= rng.uniform(0.7, 1.5) / np.linalg.norm(b)
    sigma = with_bias_row(torch.relu(zl), BETA)
    z_next = torch.as_tensor(a) @ sigma + torch.as_tensor(np.outer(b, v))
    return {"zl": zl, "z_next": z_next, "v": torch.as_tensor(v), "support": support}


def _joint(dl: torch.Tensor, dn: torch.Tensor, radius: float):
    """(dl, dn) scaled together to Frobenius norm `radius`."""
    scale = radius / float(torch.sqrt((dl**2).sum() + (dn**2).sum()))
    return dl * scale, dn * scale


def _row_scaling(zl: torch.Tensor, rng) -> torch.Tensor:
    """diag(s) Z_l, s Gaussian: moves every neuron along itself, so relu(Z_l) v = 0 is kept."""
    return torch.as_tensor(rng.standard_normal((zl.shape[0], 1))) * zl


def perturbation(point: dict, kind: str, radius: float, rng):
    """A perturbation (dZ_l, dZ_{l+1}) of Frobenius norm `radius` of one kind:
    gaussian: both layers Gaussian;
    kernel: rows of Z_l rescaled (v stays in ker Z~^sigma_l), Z_{l+1} Gaussian;
    activating: the dead neuron set to t (v + c 1_S) on S with rows rescaled, and Z_{l+1} moved
      within the row space of Z~^sigma_l (which then holds v): Z~ feasible."""
    zl, z_next, v = point["zl"], point["z_next"], point["v"]
    if kind == "gaussian":
        dl = torch.as_tensor(rng.standard_normal(tuple(zl.shape)))
        return _joint(dl, torch.as_tensor(rng.standard_normal(tuple(z_next.shape))), radius)
    if kind == "kernel":
        dn = torch.as_tensor(rng.standard_normal(tuple(z_next.shape)))
        return _joint(_row_scaling(zl, rng), dn, radius)
    share = rng.uniform(0.1, 0.9)
    dl = 0.1 * _row_scaling(zl, rng)
    lift = torch.zeros_like(v)
    s = point["support"]
    lift[s] = v[s] + float(-v[s].min()) * rng.uniform(1.0, 2.0)
    dl[0] += lift
    dl *= radius * np.sqrt(share) / float(torch.linalg.norm(dl))
    sigma = with_bias_row(torch.relu(zl + dl), BETA)
    within = torch.as_tensor(rng.standard_normal((z_next.shape[0], sigma.shape[0]))) @ sigma
    dn = within + torch.as_tensor(np.outer(rng.standard_normal(z_next.shape[0]), v.numpy()))
    return dl, dn * (radius * np.sqrt(1 - share) / float(torch.linalg.norm(dn)))


def read(point: dict, dl: torch.Tensor, dn: torch.Tensor) -> dict:
    """At Z~ = Z + (dl, dn): the term ||Z~_{l+1} (Z~^sigma_l)^+||_F^2, and how far Z~ lies from
    Z once Z~_{l+1} is projected on the row space of Z~^sigma_l (Sec. 3.3's projection): the
    projection leaves the term as it is, since (Z~^sigma_l)^+ maps into that space."""
    sigma = with_bias_row(torch.relu(point["zl"] + dl), BETA)
    inverse = torch.linalg.pinv(sigma, rtol=RTOL)
    z_next = point["z_next"] + dn
    projected = z_next @ inverse @ sigma
    moved = (projected - point["z_next"]) ** 2
    return {
        "term": float(((z_next @ inverse) ** 2).sum()),
        "projected_distance": float(torch.sqrt((dl**2).sum() + moved.sum())),
    }


def appb1_table() -> pd.DataFrame:
    """One row per perturbation: width n_l, point, eps, kind, radius ||Z~ - Z||, the term, the
    paper's bound (||Z_{l+1} v||^2 - eps)/eps, their ratio, and whether the projected Z~ is
    feasible within eps (`feasible`)."""
    rows = []
    for width in WIDTHS:
        for k in range(POINTS):
            point = infeasible_point(width, rng_for("jacot2022", "appb1", width, k))
            gap = float(((point["z_next"] @ point["v"]) ** 2).sum())
            for eps in EPSILONS:
                rng = rng_for("jacot2022", "appb1", width, k, eps)
                draws = [("none", 0.0)] + [
                    (kind, eps * rng.uniform(0.1, 1.0)) for kind in KINDS for _ in range(PER_KIND)
                ]
                bound = (gap - eps) / eps
                for kind, radius in draws:
                    if radius:
                        dl, dn = perturbation(point, kind, radius, rng)
                    else:
                        dl, dn = torch.zeros_like(point["zl"]), torch.zeros_like(point["z_next"])
                    reading = read(point, dl, dn)
                    rows.append(
                        {
                            "width": width,
                            "point": k,
                            "eps": eps,
                            "kind": kind,
                            "radius": radius,
                            "term": reading["term"],
                            "bound": bound,
                            "ratio": reading["term"] / bound,
                            "feasible": reading["projected_distance"] <= eps * (1 + BALL_ROOM),
                        }
                    )
    return pd.DataFrame(rows)


def least_ratios(table: pd.DataFrame, perturbations: str) -> pd.DataFrame:
    """Per width and eps, the least ratio over the perturbations a reading admits
    (`perturbations`: any, or feasible), with their number; only where the bound is positive."""
    kept = table[table.bound > 0]
    if perturbations == "feasible":
        kept = kept[kept.feasible]
    return kept.groupby(["width", "eps"]).ratio.agg(["min", "size"]).reset_index()


# The sentence after the bound: gradient descent with a small step (the flow's stand-in) on L^r
# from the representations of a random depth-2 network (feasible), without projection, to a
# fixed flow time, at two step sizes ten times apart; hidden widths below and above N.
FLOW_INPUT_DIM = 4
FLOW_OUTPUTS = 2
FLOW_WIDTHS = (3, 9)
FLOW_INSTANCES = 4
FLOW_LAMBDA = 0.1
FLOW_TIME = 0.1
FLOW_STEPS = (100, 1000)


def reformulated_mse(z1, z2, x, y, lam: float) -> torch.Tensor:
    """L^r of a depth-2 network with the mean squared cost: (1/N)||Z_2 - Y||_F^2 + lambda
    (||Z_1 (X^sigma)^+||_F^2 + ||Z_2 (Z_1^sigma)^+||_F^2), X^sigma and Z_1^sigma with their bias
    row, as the formula is written (no projection)."""
    inputs, hidden = with_bias_row(x, BETA), with_bias_row(torch.relu(z1), BETA)
    terms = [(z @ torch.linalg.pinv(a, rtol=RTOL)) ** 2 for z, a in ((z1, inputs), (z2, hidden))]
    return ((z2 - y) ** 2).sum() / x.shape[1] + lam * sum(t.sum() for t in terms)


def constraint_residual(z1, z2) -> float:
    """||Z_2 - Z_2 P||_F / ||Z_2||_F, P the projection on the row space of Z_1^sigma: 0 exactly
    where Im Z_2^T lies in Im (Z_1^sigma)^T."""
    hidden = with_bias_row(torch.relu(z1), BETA)
    projection = torch.linalg.pinv(hidden, rtol=RTOL) @ hidden
    return float(torch.linalg.norm(z2 - z2 @ projection) / torch.linalg.norm(z2))


def flow_run(width: int, instance: int, steps: int) -> dict:
    """Gradient descent on reformulated_mse for FLOW_TIME with `steps` steps, from Z = Phi(W) of
    a random network of hidden width `width`: the residual at the end and the loss at both
    ends."""
    rng = rng_for("jacot2022", "appb1_flow", width, instance)
    draw = lambda *shape: torch.as_tensor(rng.standard_normal(shape))  # noqa: E731
    x, y = draw(FLOW_INPUT_DIM, N_POINTS), draw(FLOW_OUTPUTS, N_POINTS)
    w1, w2 = draw(width, FLOW_INPUT_DIM + 1), draw(FLOW_OUTPUTS, width + 1) / width**0.5
    z1 = (w1 @ with_bias_row(x, BETA)).requires_grad_()
    z2 = (w2 @ with_bias_row(torch.relu(z1.detach()), BETA)).requires_grad_()
    lr, losses = FLOW_TIME / steps, []
    for _ in range(steps):
        loss = reformulated_mse(z1, z2, x, y, FLOW_LAMBDA)
        losses.append(float(loss.detach()))
        g1, g2 = torch.autograd.grad(loss, (z1, z2))
        with torch.no_grad():
            z1 -= lr * g1
            z2 -= lr * g2
    end = float(reformulated_mse(z1, z2, x, y, FLOW_LAMBDA))
    residual = constraint_residual(z1.detach(), z2.detach())
    return {"residual": residual, "loss_start": losses[0], "loss_end": end}


def flow_table() -> pd.DataFrame:
    """One row per hidden width, instance and step count: flow_run's values."""
    rows = [
        {"width": width, "instance": k, "steps": steps} | flow_run(width, k, steps)
        for width in FLOW_WIDTHS
        for k in range(FLOW_INSTANCES)
        for steps in FLOW_STEPS
    ]
    return pd.DataFrame(rows)
