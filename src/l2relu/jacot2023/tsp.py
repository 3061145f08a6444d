"""Thm. 2's rate: the growth of TSP(y) / diam(x) with the number of points N, for y = f*(x) with
f* of Jacobian rank k, which Beardwood et al. put at N^(1 - 1/k). The TSP is the proof's
"shortest path passing through every point", solved exactly at small N; the minimum spanning
tree, within a factor 2 of it, reads the same exponent at large N."""

from itertools import combinations

import numpy as np
import pandas as pd
from scipy.spatial.distance import pdist, squareform

from l2relu.jacot2023 import interpolation
from l2relu.jacot2023.constructions import forward, random_layers
from l2relu.training.seeding import rng_for

# Each reading's sizes N: the exact path's are bounded by its 2^N subsets
READING_SIZES = {"exact TSP": (4, 5, 6, 8, 10, 13), "spanning tree": (200, 400, 800, 1600, 3200)}
# Data sets drawn per instance and size: the exact path at small N is the noisier
READING_DRAWS = {"exact TSP": 8, "spanning tree": 1}
RANKS = (1, 2, 3)
INSTANCES = 4


def shortest_path_length(y: np.ndarray) -> float:
    """Length of the shortest open path through every column of y (Held-Karp): best[S, j] is the
    shortest path through the points of S ending at j, filled by subsets of growing size."""
    n = y.shape[1]
    d = squareform(pdist(y.T))
    best = np.full((1 << n, n), np.inf)
    best[1 << np.arange(n), np.arange(n)] = 0.0
    for size in range(2, n + 1):
        masks = np.array([sum(1 << i for i in c) for c in combinations(range(n), size)])
        for j in range(n):
            ending = masks[(masks >> j) & 1 == 1]
            before = best[ending ^ (1 << j)]
            best[ending, j] = (before + d[:, j]).min(axis=1)
    return float(best[-1].min())


def path_length(y: np.ndarray, reading: str) -> float:
    if reading == "exact TSP":
        return shortest_path_length(y)
    return interpolation.spanning_length(y)


def rate_exponent(sizes, log_ratios) -> float:
    """Least-squares slope of the mean log ratio against log N (log_ratios: a list per size)."""
    means = [np.mean(v) for v in log_ratios]
    return float(np.polyfit(np.log(sizes), means, 1)[0])


def true_function(k: int, instance: int):
    """f* = h o g with g: R^6 -> R^k, h: R^k -> R^5 random ReLU networks (Jacobian rank k)."""
    rng = rng_for("jacot2023", "thm2_rate", k, instance)
    g, h = random_layers((6, 12, k), rng), random_layers((k, 12, 5), rng)
    return lambda x: forward(h, forward(g, x)), rng


def rate_distance(k: int, reading: str) -> float:
    """|exponent - (1 - 1/k)| of TSP(y) / diam(x) against N on the reading's sizes, x uniform on
    [-1, 1]^6, over INSTANCES functions of rank k and the reading's draws."""
    sizes = READING_SIZES[reading]
    log_ratios = [[] for _ in sizes]
    for instance in range(INSTANCES):
        f, rng = true_function(k, instance)
        for i, n in enumerate(sizes):
            for _ in range(READING_DRAWS[reading]):
                x = rng.uniform(-1, 1, size=(6, n))
                ratio = path_length(f(x), reading) / interpolation.diameter(x)
                log_ratios[i].append(np.log(ratio))
    return abs(rate_exponent(sizes, log_ratios) - (1 - 1 / k))


def rate_table() -> pd.DataFrame:
    """A row per rank k and reading (constructions.constructions_table's columns): the value
    thm2_tsp_rate reads."""
    rows = [
        {"check": "thm2_tsp_rate", "reading": r, "case": f"k = {k}", "value": rate_distance(k, r)}
        for r in READING_SIZES
        for k in RANKS
    ]
    return pd.DataFrame(rows)
