"""Sec. 3.1's aligned neurons, on random networks: two neurons with proportional
pre-activations have proportional attraction and repulsion forces, and a group of aligned
neurons can be replaced by a single neuron without changing Z_L."""

from itertools import pairwise

import numpy as np
import pandas as pd
import torch

from l2relu.jacot2022 import forces
from l2relu.training.seeding import rng_for

# The factor alpha of the copies: positive (aligned, as ReLU's homogeneity needs) and negative
# (the statement's alpha in R).
FACTORS = {"positive": (0.5, 2.0), "negative": (-0.5, -2.0)}
WIDTHS = (10, 12, 12, 4)  # input, two hidden layers, output
# Tikhonov eps of the pseudo-inverses: the identities hold at every eps; at 1e-8 the solve's
# conditioning (1/eps) leaves 5e-7 of rounding, at 1e-4 6e-11.
POINTS, BETA, EPS = 30, 1.0, 1e-4


def random_network(rng):
    weights = [rng.normal(size=(n, m)) / np.sqrt(m) for m, n in pairwise(WIDTHS)]
    biases = [0.1 * rng.normal(size=n) for n in WIDTHS[1:]]
    return weights, biases


def with_copy(weights, biases, layer: int, k: int, alpha: float):
    """Neuron k of hidden layer `layer` copied with its row and bias times alpha (so its
    pre-activations are alpha times k's), half of k's outgoing column moved to the copy divided
    by alpha: for alpha > 0, Z_L is unchanged."""
    weights, biases = list(weights), list(biases)
    w, b, out = weights[layer], biases[layer], weights[layer + 1].copy()
    weights[layer] = np.vstack([w, alpha * w[k]])
    biases[layer] = np.append(b, alpha * b[k])
    moved = out[:, k] / 2
    out[:, k] = moved
    weights[layer + 1] = np.hstack([out, (moved / alpha)[:, None]])
    return weights, biases


def merged(weights, biases, layer: int, k: int, copy: int, alpha: float):
    """The copy (pre-activations alpha times k's) removed, its outgoing column times alpha added
    to k's: one neuron in place of the aligned pair."""
    weights, biases = list(weights), list(biases)
    out = weights[layer + 1].copy()
    out[:, k] += alpha * out[:, copy]
    weights[layer] = np.delete(weights[layer], copy, axis=0)
    biases[layer] = np.delete(biases[layer], copy)
    weights[layer + 1] = np.delete(out, copy, axis=1)
    return weights, biases


def _representations(weights, biases, x):
    as_torch = [torch.tensor(a) for a in (*weights, *biases)]
    half = len(weights)
    return forces.representations(as_torch[:half], as_torch[half:], torch.tensor(x), BETA)


def force_gap(weights, biases, x, layer: int, k: int, copy: int, alpha: float) -> float:
    """max over the two forces of ||F[copy] - alpha F[k]|| / (|alpha| ||F[k]||) at `layer`."""
    zs = _representations(weights, biases, x)
    attraction, repulsion = forces.forces(zs, torch.tensor(x), BETA, EPS)[layer]
    return max(
        float(np.linalg.norm(f[copy] - alpha * f[k]) / (abs(alpha) * np.linalg.norm(f[k])))
        for f in (attraction, repulsion)
    )


def output_change(before, after, x) -> float:
    """||Z_L(after) - Z_L(before)|| / ||Z_L(before)||."""
    z_before = _representations(*before, x)[-1].numpy()
    z_after = _representations(*after, x)[-1].numpy()
    return float(np.linalg.norm(z_after - z_before) / np.linalg.norm(z_before))


def alignment_table(trials: int) -> pd.DataFrame:
    """Per sign of alpha: the largest force gap between a neuron and its copy, over random
    networks, both hidden layers and the sign's factors; and the largest change of Z_L when the
    copy is merged back (only for positive alpha, where the pair is aligned)."""
    rows = []
    for sign, factors in FACTORS.items():
        gap, change = 0.0, 0.0
        for t in range(trials):
            rng = rng_for("jacot2022", "alignment", t)
            weights, biases = random_network(rng)
            x = rng.normal(size=(WIDTHS[0], POINTS))
            for layer in range(len(WIDTHS) - 2):
                k = int(rng.integers(WIDTHS[layer + 1]))
                for alpha in factors:
                    copied = with_copy(weights, biases, layer, k, alpha)
                    gap = max(gap, force_gap(*copied, x, layer, k, WIDTHS[layer + 1], alpha))
                    back = merged(*copied, layer, k, WIDTHS[layer + 1], alpha)
                    change = max(change, output_change(copied, back, x))
        rows.append({"sign": sign, "force_gap": gap, "merge_change": change})
    return pd.DataFrame(rows)
