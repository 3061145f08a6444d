"""The first reformulation (Section 3.1): hidden representations, their attraction and
repulsion forces, and the map Psi from representations back to weights."""

import numpy as np
import torch


def with_bias_row(a: torch.Tensor, beta: float) -> torch.Tensor:
    """Z^sigma = (sigma(Z) ; beta 1^T): append the bias row."""
    return torch.cat([a, beta * torch.ones(1, a.shape[1], dtype=a.dtype)], dim=0)


def tikhonov_pinv(a: torch.Tensor, eps: float) -> torch.Tensor:
    """(A^T A + eps I)^{-1} A^T, the regularized Moore-Penrose pseudo-inverse (eps = 0: exact)."""
    if eps == 0:
        return torch.linalg.pinv(a)
    gram = a.T @ a
    return torch.linalg.solve(gram + eps * torch.eye(gram.shape[0], dtype=a.dtype), a.T)


def representations(weights, biases, x: torch.Tensor, beta: float = 1.0):
    """Pre-activations Z_1..Z_L of one network on inputs x (n_0, N)."""
    zs, h = [], x
    for layer, (w, b) in enumerate(zip(weights, biases, strict=True)):
        z = w @ h + beta * b[:, None]
        zs.append(z)
        if layer < len(weights) - 1:
            h = torch.relu(z)
    return zs


def forces(zs, x: torch.Tensor, beta: float, eps: float):
    """For every hidden layer l: (attraction, repulsion), the derivatives w.r.t. Z_l of
    ||Z_l (Z^sigma_{l-1})^+||_F^2 and ||Z_{l+1} (Z^sigma_l)^+||_F^2 (n_l x N each)."""
    out = []
    for layer in range(len(zs) - 1):
        z = zs[layer].detach().clone().requires_grad_()
        prev = with_bias_row(x if layer == 0 else torch.relu(zs[layer - 1]).detach(), beta)
        attraction_term = (z @ tikhonov_pinv(prev, eps)).pow(2).sum()
        nxt = zs[layer + 1].detach()
        repulsion_term = (nxt @ tikhonov_pinv(with_bias_row(torch.relu(z), beta), eps)).pow(2).sum()
        (attraction,) = torch.autograd.grad(attraction_term, z)
        (repulsion,) = torch.autograd.grad(repulsion_term, z)
        out.append((attraction.numpy(), repulsion.numpy()))
    return out


def _row_space(a: torch.Tensor, tol: float) -> torch.Tensor:
    """Orthonormal basis (N x r) of the row space of a, singular values <= tol counted as 0."""
    _, s, vt = torch.linalg.svd(a, full_matrices=False)
    return vt[: int((s > tol).sum())].T


def feasible_projection(zs, x: torch.Tensor, layer: int, beta: float, tol: float):
    """The projection onto the directions D in which Z_l can move, the other Z fixed, while the
    representations stay those of a network (Prop. 1's set: Im Z_l^T in Im (Z^sigma_{l-1})^T and
    Im Z_{l+1}^T in Im (Z^sigma_l)^T), to first order. At a critical point of L_lambda only the
    projected gradient of L^r_lambda vanishes: when neurons align along rays, Z^sigma_l loses
    rank and the raw forces need not cancel.

    Singular values <= tol count as zero (tol = sqrt(eps) matches a Tikhonov eps). Returns a
    function mapping an n_l x N force to its projection."""
    z = zs[layer].detach()
    prev = with_bias_row(x if layer == 0 else torch.relu(zs[layer - 1]).detach(), beta)
    q = _row_space(prev, tol)  # D = C q^T: rows of D in the row space of Z^sigma_{l-1}
    s = with_bias_row(torch.relu(z), beta)
    qs = _row_space(s, tol)
    outside = torch.eye(z.shape[1], dtype=z.dtype) - qs @ qs.T
    w_next = zs[layer + 1].detach() @ torch.linalg.pinv(s, atol=tol)
    active = (z > 0).to(z.dtype)
    # d/dt Z_{l+1} (I - P(Z^sigma_l + t D)) = -W_{l+1} (D * active) (I - P) must vanish:
    # a linear map of C, one block per neuron i, w_next[:, i] (x) (q^T diag(active_i) outside)^T.
    blocks = torch.einsum("ai,ikj->ajik", w_next[:, : z.shape[0]], q.T[None] * active[:, None])
    blocks = torch.einsum("ajik,jm->amik", blocks, outside)
    constraint = blocks.reshape(-1, z.shape[0] * q.shape[1])
    _, sv, vt = torch.linalg.svd(constraint, full_matrices=False)
    normal = vt[: int((sv > 1e-9 * sv.max()).sum())] if sv.numel() and sv.max() > 0 else vt[:0]

    def project(force):
        c = (torch.as_tensor(force, dtype=z.dtype) @ q).reshape(-1)
        c = c - normal.T @ (normal @ c)
        return (c.reshape(z.shape[0], -1) @ q.T).numpy()

    return project


def active_rows(z: np.ndarray, floor: float = 1e-6) -> np.ndarray:
    """The neurons (rows of Z) active on some input, above `floor` times the longest row: weight
    decay shrinks dead neurons towards 0 without reaching it."""
    norms = np.linalg.norm(z, axis=1)
    return np.linalg.norm(np.maximum(z, 0), axis=1) > floor * norms.max()


def radial_balance(z: np.ndarray, attraction: np.ndarray, repulsion: np.ndarray) -> float:
    """||a + r|| / ||a|| over the components of each active neuron's forces along its own row.

    Scaling one neuron's row keeps every constraint (ReLU is homogeneous: the row space of
    Z^sigma does not move), so at any critical point of L_lambda these components cancel
    exactly, whatever the rank; they equal 2 ||W_l[k]||^2 and -2 ||W_{l+1}[:, k]||^2 (eps = 0)."""
    active = active_rows(z)
    unit = z[active] / np.linalg.norm(z[active], axis=1, keepdims=True)
    along_a = (attraction[active] * unit).sum(axis=1)
    along_r = (repulsion[active] * unit).sum(axis=1)
    return float(np.linalg.norm(along_a + along_r) / np.linalg.norm(along_a))


# Sec. 3.1's directions read on a whole layer, on each active neuron (row) or on each input
# (column): the share of those units on which gradient descent (minus the force) moves Z_l
# towards the origin (attraction) or away from it (repulsion).
DIRECTION_READINGS = ("whole layer", "each active neuron", "each input")


def force_directions(z: np.ndarray, attraction: np.ndarray, repulsion: np.ndarray) -> dict:
    """{reading: (share inward under -attraction, share outward under -repulsion)}: a unit is
    inward where <attraction, Z> > 0 on it, outward where <repulsion, Z> < 0."""
    active = active_rows(z)
    units = (
        lambda f: np.array([(f * z).sum()]),
        lambda f: (f * z).sum(axis=1)[active],
        lambda f: (f * z).sum(axis=0),
    )
    return {
        r: (float((along(attraction) > 0).mean()), float((along(repulsion) < 0).mean()))
        for r, along in zip(DIRECTION_READINGS, units, strict=True)
    }


def pushed_apart(z: np.ndarray, repulsion: np.ndarray, labels: np.ndarray) -> float:
    """The share of inputs (columns) whose repulsive push, minus the force with its component
    along z_i removed (the outward push, which points away from any other point's centroid
    whatever the classes), has a positive component along z_i minus the centroid of the other
    classes' columns."""
    labels = np.asarray(labels)
    away = np.empty(z.shape[1])
    for i in range(z.shape[1]):
        push, zi = -repulsion[:, i], z[:, i]
        push = push - (push @ zi) / (zi @ zi) * zi
        away[i] = push @ (zi - z[:, labels != labels[i]].mean(axis=1))
    return float((away > 0).mean())


def psi(zs, x: torch.Tensor, beta: float):
    """Psi(Z): the weights W_l = Z_l (Z^sigma_{l-1})^+ (Prop. 1), as (n_l, n_{l-1} + 1)."""
    weights, h = [], x
    for z in zs:
        weights.append(z @ torch.linalg.pinv(with_bias_row(h, beta)))
        h = torch.relu(z)
    return weights


def pca_basis(m: np.ndarray, center: bool = False) -> np.ndarray:
    """The 2 leading principal directions of the rows of m; uncentered by default, so that the
    origin (and rays through it) keeps its meaning. Signs fixed for reproducible drawings."""
    _, _, vt = np.linalg.svd(m - m.mean(axis=0) if center else m, full_matrices=False)
    basis = vt[:2]
    return basis * np.sign(basis[np.arange(2), np.abs(basis).argmax(axis=1)])[:, None]
