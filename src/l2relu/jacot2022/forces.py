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


def psi(zs, x: torch.Tensor, beta: float):
    """Psi(Z): the weights W_l = Z_l (Z^sigma_{l-1})^+ (Prop. 1), as (n_l, n_{l-1} + 1)."""
    weights, h = [], x
    for z in zs:
        weights.append(z @ torch.linalg.pinv(with_bias_row(h, beta)))
        h = torch.relu(z)
    return weights


def pca_basis(m: np.ndarray) -> np.ndarray:
    """The 2 leading right-singular directions of the rows of m, uncentered so that the origin
    (and rays through it) keeps its meaning. Signs fixed for reproducible drawings."""
    _, _, vt = np.linalg.svd(m, full_matrices=False)
    basis = vt[:2]
    return basis * np.sign(basis[np.arange(2), np.abs(basis).argmax(axis=1)])[:, None]
