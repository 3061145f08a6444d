"""Prop. 1 (App. B, Prop. 16) read on trained networks: the L2-regularized loss L_lambda over the
weights W against the first reformulation L^r_lambda over the hidden representations
Z = (Z_1, ..., Z_L), at a network and around it.

With Z^sigma_0 = (X; beta 1^T) and Z^sigma_l = (sigma(Z_l); beta 1^T), a weight matrix W_l acts
on Z^sigma_{l-1} (its last column is the bias), Phi(W) = (Z_l(X; W))_l and
Psi(Z) = (Z_l (Z^sigma_{l-1})^+)_l; L_lambda(W) = C(Z_L) + lambda ||W||^2 (biases included, as
the Fig. 1 networks are trained) and L^r_lambda(Z) = C(Z_L) + lambda sum_l
||Z_l (Z^sigma_{l-1})^+||_F^2, C the mean cross-entropy over the N inputs.

Around a point, the probes are lines W + t V (and their images Phi(W + t V) in Z): random
directions, the steepest descent of L_lambda and its direction of least curvature, each scaled
so that ||V|| = ||W||, at relative steps t in STEPS and both signs. Two readings:
  fall: the largest (L(0) - L(+-t)) / L(0), the relative fall below the point;
  curvature: the least (L(t) + L(-t) - 2 L(0)) / (2 lambda t^2 ||V||^2), the second difference
    in units of the weight decay's own along the line: below 0 where the data's curvature
    outweighs the decay's (a saddle), 1 where the data term is flat along the line.
"""

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from scipy.sparse.linalg import LinearOperator, eigsh

from l2relu.jacot2022.forces import with_bias_row
from l2relu.training.seeding import rng_for

# The bias input of Z^sigma: 1 in the paper, and what the engine's biases are.
BETA = 1.0
# Relative step sizes t (||t V|| = t ||W||): at most 1% of the weights, so that the probe stays
# near the point (a local statement), and from 0.1%, where first-order terms dominate.
STEPS = (1e-3, 1e-2)
# Random directions per point, besides the steepest descent and the least curvature.
RANDOM_DIRECTIONS = 8
# Lanczos (scipy eigsh) for the least eigenvalue of the Hessian of L_lambda.
LANCZOS_TOL = 1e-6
LANCZOS_MAXITER = 400


def augmented(arrays: dict) -> list[torch.Tensor]:
    """[W_l | b_l] (n_l x (n_{l-1} + 1)) of a network stored as {w1, b1, ...}, in float64."""
    depth = sum(k.startswith("w") for k in arrays)
    return [
        torch.cat(
            [torch.as_tensor(arrays[f"w{i}"]), torch.as_tensor(arrays[f"b{i}"])[:, None]], dim=1
        ).double()
        for i in range(1, depth + 1)
    ]


def phi(ws, x: torch.Tensor) -> list[torch.Tensor]:
    """Phi(W): the pre-activations Z_1, ..., Z_L of the network [W_l | b_l] on inputs x."""
    zs, h = [], x
    for w in ws:
        zs.append(w @ with_bias_row(h, BETA))
        h = torch.relu(zs[-1])
    return zs


def psi(zs, x: torch.Tensor) -> list[torch.Tensor]:
    """Psi(Z): the weights W_l = Z_l (Z^sigma_{l-1})^+, bias column last."""
    ws, h = [], x
    for z in zs:
        ws.append(z @ torch.linalg.pinv(with_bias_row(h, BETA)))
        h = torch.relu(z)
    return ws


def data_cost(out: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """C(Z_L): the mean cross-entropy of outputs (n_L, N) against class indices (N,)."""
    return F.cross_entropy(out.T, labels)


def network_objective(ws, x, labels, lam: float) -> torch.Tensor:
    """L_lambda(W) = C(Z_L(X; W)) + lambda ||W||^2."""
    return data_cost(phi(ws, x)[-1], labels) + lam * sum((w**2).sum() for w in ws)


def reformulated_objective(zs, x, labels, lam: float) -> torch.Tensor:
    """L^r_lambda(Z) = C(Z_L) + lambda sum_l ||Z_l (Z^sigma_{l-1})^+||_F^2 from Z alone, with the
    exact Moore-Penrose pseudo-inverse (torch's cut of singular values). Where a Z^sigma_l has
    tiny singular values its rounding is amplified by their inverse (Sec. 3.3): at
    representations of known weights, reformulated_at is the stable form."""
    return data_cost(zs[-1], labels) + lam * sum((w**2).sum() for w in psi(zs, x))


def _column_space(a: torch.Tensor) -> torch.Tensor:
    """An orthonormal basis of the column space of a, singular values cut as torch's pinv cuts
    them (max(m, n) eps s_max)."""
    u, s, _ = torch.linalg.svd(a, full_matrices=False)
    cut = max(a.shape) * torch.finfo(a.dtype).eps * s.max()
    return u[:, : int((s > cut).sum())]


def reformulated_at(ws, x, labels, lam: float, input_basis=None) -> torch.Tensor:
    """L^r_lambda(Phi(W)): with Z = Phi(W), Z_l (Z^sigma_{l-1})^+ = W_l P_l, P_l the orthogonal
    projection on the column space of Z^sigma_{l-1}, so the penalty is sum_l ||W_l U_l||_F^2 with
    U_l an orthonormal basis of that space: no inverse of a small singular value enters. It is
    L_lambda(W) less lambda times the residual weights' squared norm (App. B: L^r(Phi(W)) <=
    L_lambda(W)). `input_basis`: U_1, which depends on the inputs alone, when known."""
    zs, h, penalty = [], x, 0.0
    for layer, w in enumerate(ws):
        s = with_bias_row(h, BETA)
        basis = input_basis if layer == 0 and input_basis is not None else _column_space(s)
        penalty = penalty + ((w @ basis) ** 2).sum()
        zs.append(w @ s)
        h = torch.relu(zs[-1])
    return data_cost(zs[-1], labels) + lam * penalty


def _unit_like(ws, rng) -> list[torch.Tensor]:
    """A Gaussian direction shaped as the weights."""
    return [torch.as_tensor(rng.standard_normal(tuple(w.shape))) for w in ws]


def _norm(v) -> float:
    return float(torch.sqrt(sum((d**2).sum() for d in v)))


def _scaled(v, norm: float) -> list[torch.Tensor]:
    """v rescaled to the given norm (v != 0)."""
    return [d * (norm / _norm(v)) for d in v]


def _flat(ws) -> torch.Tensor:
    return torch.cat([w.reshape(-1) for w in ws])


def _unflat(vector, like) -> list[torch.Tensor]:
    out, start = [], 0
    for w in like:
        out.append(torch.as_tensor(vector[start : start + w.numel()]).reshape(w.shape).double())
        start += w.numel()
    return out


def least_curvature(ws, x, labels, lam: float) -> list[torch.Tensor]:
    """The unit eigenvector of the least eigenvalue of the Hessian of L_lambda at W (autograd's,
    ReLU' = 1 on positive pre-activations, 0 elsewhere), by Lanczos; the start vector is fixed
    so that the direction repeats."""
    params = [w.detach().clone().requires_grad_() for w in ws]
    grads = torch.autograd.grad(
        network_objective(params, x, labels, lam), params, create_graph=True
    )

    def hvp(v):
        dirs = _unflat(np.asarray(v).ravel(), ws)
        dot = sum((g * d).sum() for g, d in zip(grads, dirs, strict=True))
        return _flat(torch.autograd.grad(dot, params, retain_graph=True)).numpy()

    n = sum(w.numel() for w in ws)
    op = LinearOperator((n, n), matvec=hvp, dtype=np.float64)
    start = rng_for("jacot2022", "prop1", "lanczos start").standard_normal(n)
    _, vectors = eigsh(op, k=1, which="SA", tol=LANCZOS_TOL, maxiter=LANCZOS_MAXITER, v0=start)
    return _scaled(_unflat(vectors[:, 0], ws), 1.0)


def directions(ws, x, labels, lam: float, stream) -> dict[str, list[torch.Tensor]]:
    """The probe directions at W (W != 0), each of norm ||W||: RANDOM_DIRECTIONS Gaussian ones
    (seeded by `stream`), the steepest descent of L_lambda (none where the gradient is exactly
    0) and its least-curvature direction."""
    params = [w.detach().clone().requires_grad_() for w in ws]
    grads = list(torch.autograd.grad(network_objective(params, x, labels, lam), params))
    rng = rng_for("jacot2022", "prop1", *stream)
    out = {f"random {k}": _unit_like(ws, rng) for k in range(RANDOM_DIRECTIONS)}
    if _norm(grads) > 0:
        out["steepest descent"] = [-g for g in grads]
    out["least curvature"] = least_curvature(ws, x, labels, lam)
    return {name: _scaled(v, _norm(ws)) for name, v in out.items()}


@dataclass(frozen=True)
class Probe:
    """The readings of one point: the largest relative fall and the least normalized second
    difference over every direction and step, and where each was found."""

    fall: float
    curvature: float
    fall_at: str
    curvature_at: str


def probe(value_at, center: float, reference: float, dirs: dict, ws, lam: float) -> Probe:
    """Reads a function of the weights, value_at(W) (L_lambda, or L^r_lambda of Phi(W)), along
    the lines W +- t V: each fall below `reference`, relative to it, and each second difference
    about `center`, its value at W, in units of the weight decay's 2 lambda t^2 ||V||^2."""
    fall, curvature = -np.inf, np.inf
    fall_at = curvature_at = ""
    for name, v in dirs.items():
        squared = float(sum((d**2).sum() for d in v))
        for t in STEPS:
            up, down = (
                float(value_at([w + s * t * d for w, d in zip(ws, v, strict=True)]))
                for s in (1.0, -1.0)
            )
            lowest = (reference - min(up, down)) / reference
            if lowest > fall:
                fall, fall_at = lowest, f"{name}, t = {t:g}"
            second = (up + down - 2 * center) / (2 * lam * t**2 * squared)
            if second < curvature:
                curvature, curvature_at = second, f"{name}, t = {t:g}"
    return Probe(float(fall), float(curvature), fall_at, curvature_at)


def hidden_ranks(zs) -> list[int]:
    """The ranks of Z^sigma_1, ..., Z^sigma_(L-1) (torch's cut of singular values)."""
    return [int(torch.linalg.matrix_rank(with_bias_row(torch.relu(z), BETA))) for z in zs[:-1]]


def local_minimum_readings(arrays: dict, x: torch.Tensor, labels: torch.Tensor, lam: float, seed):
    """Prop. 1's two local-minimum directions read at one network ({w1, b1, ...}) on inputs x
    (n_0, N) with class indices `labels`:
      z_*: L^r_lambda along the feasible curves Phi(W +- t V) from Z* = Phi(W), against
        L^r(Z*) (prop1_z_local_minimum);
      psi_*: L_lambda along the lines W' +- t V about W' = Psi(Z*), rebuilt from Z* alone, against
        L^r(Z*); psi_fall includes the gap |L(W') - L^r(Z*)| (prop1_psi_local_minimum);
    each as fall, curvature and where they were found; with L(W), L^r(Z*), L(W') and the ranks
    of the hidden Z^sigma. `seed`: the network's seed, which seeds its random directions."""
    ws = augmented(arrays)
    zs = phi(ws, x)
    basis = _column_space(with_bias_row(x, BETA))
    reformulated = float(reformulated_at(ws, x, labels, lam, basis))
    rebuilt = [w.detach() for w in psi(zs, x)]
    at_psi = float(network_objective(rebuilt, x, labels, lam))

    def through_phi(weights):
        return reformulated_at(weights, x, labels, lam, basis)

    def loss(weights):
        return network_objective(weights, x, labels, lam)

    z = probe(
        through_phi,
        reformulated,
        reformulated,
        directions(ws, x, labels, lam, ("z", seed)),
        ws,
        lam,
    )
    rebuilt_dirs = directions(rebuilt, x, labels, lam, ("psi", seed))
    p = probe(loss, at_psi, reformulated, rebuilt_dirs, rebuilt, lam)
    gap = abs(at_psi - reformulated) / reformulated
    return {
        "objective": float(loss(ws)),
        "reformulated": reformulated,
        "psi_objective": at_psi,
        "psi_gap": gap,
        "z_fall": z.fall,
        "z_curvature": z.curvature,
        "z_fall_at": z.fall_at,
        "z_curvature_at": z.curvature_at,
        "psi_fall": max(p.fall, gap),
        "psi_curvature": p.curvature,
        "psi_fall_at": p.fall_at if p.fall >= gap else "|L(Psi(Z)) - L^r(Z)|",
        "psi_curvature_at": p.curvature_at,
        "ranks": " ".join(map(str, hidden_ranks(zs))),
    }


def network_readings(arrays: dict, data: dict, digits, lam: float, seed) -> dict:
    """local_minimum_readings of a Fig. 1 network ({w1, b1, ...}) on its data set (x_train (N,
    n_0), y_train the digits), as trained: lambda `lam`, classes `digits`."""
    x = torch.as_tensor(np.asarray(data["x_train"]).T).double()
    labels = torch.as_tensor(np.searchsorted(np.asarray(digits), np.asarray(data["y_train"])))
    return local_minimum_readings(arrays, x, labels, lam, seed)
