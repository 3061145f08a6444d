"""Thm. 2's rate: the exact path and the spanning tree against brute force and scipy, and the
rate row's control (the exponent of rank-1 data read as rank 2 or 3 fails)."""

from itertools import permutations

import numpy as np
from conftest import controls, judged
from scipy.sparse.csgraph import minimum_spanning_tree
from scipy.spatial.distance import pdist, squareform

from l2relu.ledger.claims import measured

RATE = "jacot2023.theory.thm2_tsp_rate"
PROP10 = "jacot2023.theory.prop10_norm_bound"


def _brute_force_path(y):
    d = squareform(pdist(y.T))
    n = y.shape[1]
    return min(sum(d[p[i], p[i + 1]] for i in range(n - 1)) for p in permutations(range(n)))


def test_shortest_path_is_the_brute_force_minimum():
    from l2relu.jacot2023 import tsp

    rng = np.random.default_rng(0)
    for n in (2, 3, 5, 7):
        y = rng.normal(size=(3, n))
        assert np.isclose(tsp.shortest_path_length(y), _brute_force_path(y), rtol=1e-12)


def test_spanning_tree_matches_scipy_and_counts_repeated_points_as_zero():
    """On distinct points Prim's tree is scipy's; a repeated point joins at length 0, where a
    dense graph handed to scipy loses the zero edge and lengthens the tree."""
    from l2relu.jacot2023 import interpolation

    rng = np.random.default_rng(1)
    y = rng.normal(size=(4, 60))
    scipy_length = minimum_spanning_tree(squareform(pdist(y.T))).sum()
    assert np.isclose(interpolation.spanning_length(y), scipy_length, rtol=1e-12)
    repeated = np.concatenate([y, y[:, :1]], axis=1)
    assert np.isclose(interpolation.spanning_length(repeated), scipy_length, rtol=1e-12)
    # the path visits every point: no shorter than the tree, no longer than twice it
    small = y[:, :9]
    path = _brute_force_path(small)
    tree = interpolation.spanning_length(small)
    assert tree <= path <= 2 * tree


def test_the_spanning_tree_rows_pass_and_the_exact_path_at_k_1_does_not():
    """The rows as the build computes them: at sizes 200-3200 every rank's exponent is within the
    bar; at 4-13 points the exact path's k = 1 exponent carries the finite-size bias its reading
    names ((N - 1)/(N + 1) on a segment)."""
    from l2relu.jacot2023 import ledger as j23
    from l2relu.jacot2023 import tsp

    rows = judged(j23.construction_claims(tsp.rate_table()), False)
    status = {(r.reading, r.claim.rsplit(", ", 1)[-1]): r.status for r in rows.itertuples()}
    assert {s for (reading, _), s in status.items() if reading == "spanning tree"} == {"pass"}
    assert status[("exact TSP", "k = 1")] == "fail"


def _exponent(points, reading):
    from l2relu.jacot2023 import interpolation, tsp

    rng = np.random.default_rng(2)
    sizes = tsp.READING_SIZES[reading]
    logs = []
    for n in sizes:
        x = rng.uniform(-1, 1, size=(6, n))
        y = points(x)
        logs.append([np.log(tsp.path_length(y, reading) / interpolation.diameter(x))])
    return tsp.rate_exponent(sizes, logs)


@controls("jacot2023.theory.thm2_tsp_rate")
def test_rate_fails_on_points_of_the_wrong_dimension():
    """Points on a segment (rank 1) read as rank 2 and 3, and points filling a cube (rank 3) read
    as rank 1: the exponents (near 0 and 2/3) stand further than the bar from 1/2 or 2/3 and 0."""
    from l2relu.jacot2023 import tsp

    on_a_segment = lambda x: np.outer(np.ones(5), x[0])  # noqa: E731
    filling_a_cube = lambda x: x[:3]  # noqa: E731
    ms = []
    for reading in tsp.READING_SIZES:
        flat = _exponent(on_a_segment, reading)
        full = _exponent(filling_a_cube, reading)
        ms += [
            measured(RATE, abs(flat - 1 / 2), "k = 2", reading=reading),
            measured(RATE, abs(flat - 2 / 3), "k = 3", reading=reading),
            measured(RATE, abs(full - 0), "k = 1", reading=reading),
        ]
    rows = judged(ms, False)
    assert set(rows.status) == {"fail"}, rows[["claim", "value", "status"]]


@controls("jacot2023.theory.prop10_norm_bound")
def test_prop10_ratio_fails_for_a_network_of_other_outputs_and_passes_for_the_interpolator():
    """Prop. 2's interpolator of y clears Prop. 10's bound; a random network of the same depth
    with small weights, read against y's path (it does not fit y), costs too little and fails."""
    from l2relu.jacot2023 import interpolation
    from l2relu.jacot2023.constructions import forward, random_layers

    rng = np.random.default_rng(3)
    g, h = random_layers((6, 12, 2), rng), random_layers((2, 12, 5), rng)
    x = rng.uniform(-1, 1, size=(6, 200))
    y = forward(h, forward(g, x))
    u = rng.normal(size=6)
    u /= np.linalg.norm(u)
    depth = 12
    fits = interpolation.rank_one_interpolator(x, y, depth, u)
    small = [(0.3 * w, 0.3 * b) for w, b in random_layers((6, *[8] * (depth - 1), 5), rng)]
    values = {
        "fits": interpolation.prop10_ratio(fits, x, y, depth),
        "other": interpolation.prop10_ratio(small, x, y, depth),
    }
    rows = {k: judged([measured(PROP10, v)], False).status.iloc[0] for k, v in values.items()}
    assert rows == {"fits": "pass", "other": "fail"}, values
