"""Controls of the jacot2023 rows written for statements the ledger had left out: Prop. 4 on the
depth sweep (the least s_2/s_1 of a hidden representation against L, and its proof's bound on
||W_(l+1)||_F^2), each measure the pipeline's own code, judged by the registry."""

import json

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, controls, judged

from l2relu.ledger.registry import load_registry, registry_files

DEPTHS = (2, 3, 4, 6, 9, 13)
# four inputs whose two rows are orthogonal and non-negative: s_1 = s_2, every unit active
INPUTS = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])


def _ratio_network(depth: int, ratio: float):
    """A depth-`depth` ReLU net R^2 -> R^2 without bias whose every hidden Z_l on INPUTS has
    s_2/s_1 = ratio: W_1 = diag(1, ratio), identities after."""
    return [np.diag([1.0, ratio])] + [np.eye(2)] * (depth - 1), [np.zeros(2)] * depth


def _sweep(network_of, certified=lambda n, d, s: True) -> pd.DataFrame:
    """regression.prop4_measures of network_of(depth) on INPUTS at every depth, N and seed, each
    network certified as `certified(n, depth, seed)` says."""
    from l2relu.jacot2023 import regression

    return pd.DataFrame(
        [
            {"n_train": n, "depth": d, "seed": s, "certified": certified(n, d, s)}
            | regression.prop4_measures(*network_of(d), INPUTS)
            for n in (100, 500)
            for d in DEPTHS
            for s in range(3)
        ]
    )


def _rows(table: pd.DataFrame, claim_id: str) -> pd.DataFrame:
    from l2relu.jacot2023 import ledger

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    rows = judged(ledger.prop4_claims(table, registry), every_entry=False)
    return rows[rows.claim_id == claim_id]


def test_the_ratio_is_read_on_the_hidden_layers_uncentred():
    """Z_l's columns are the activations as they are (a shift moves s_2/s_1: the uncentred
    ratio is read); the output layer is not a hidden one (its ratio, here 1e-3, is not read)."""
    from l2relu.jacot2023 import regression

    weights, biases = _ratio_network(4, 0.3)
    assert regression.hidden_ratios(weights, biases, INPUTS) == pytest.approx([0.3] * 3)
    squeezed = weights[:-1] + [np.diag([1.0, 1e-3])]
    assert regression.prop4_measures(squeezed, biases, INPUTS)["min_ratio"] == pytest.approx(0.3)
    shifted = regression.hidden_ratios(weights, [np.ones(2)] + biases[1:], INPUTS)
    assert not np.allclose(shifted, 0.3)


@controls("jacot2023.depth.prop4_ratio_slope")
def test_a_ratio_that_does_not_fall_with_depth_fails_prop4():
    """s_2/s_1 = 0.5 at every depth (slope 0) fails every row; 0.9 L^(-1/2) and L^(-1/4)
    themselves pass, under both readings."""
    from l2relu.jacot2023 import ledger

    flat = _rows(_sweep(lambda d: _ratio_network(d, 0.5)), ledger.PROP4_SLOPE)
    assert len(flat) == 4 and set(flat.status) == {"fail"}  # 2 N x 2 readings
    assert flat["values"].map(lambda v: max(abs(x) for x in json.loads(v))).max() < 1e-9
    for rate in (0.5, 0.25):
        falling = _sweep(lambda d, r=rate: _ratio_network(d, 0.9 * d**-r))
        rows = _rows(falling, ledger.PROP4_SLOPE)
        assert set(rows.status) == {"pass"}, rate


def test_a_slope_reads_a_seed_only_where_every_network_it_reads_is_certified():
    """Seed 0's L = 13 network at N = 100 still descends: that seed is left out of both of N =
    100's readings (too few seeds left: inconclusive), and of nothing at N = 500; an uncertified
    L = 2 network leaves its seed out of the every-depth reading only."""
    from l2relu.jacot2023 import ledger

    def falling(d):
        return _ratio_network(d, d**-0.5)

    deep = _rows(_sweep(falling, lambda n, d, s: (n, d, s) != (100, 13, 0)), ledger.PROP4_SLOPE)
    at_100 = deep[deep.claim.str.contains("N = 100")]
    assert set(at_100.n_excluded) == {1} and set(at_100.status) == {"inconclusive"}
    assert set(deep[deep.claim.str.contains("N = 500")].status) == {"pass"}
    shallow = _rows(_sweep(falling, lambda n, d, s: (n, d, s) != (100, 2, 0)), ledger.PROP4_SLOPE)
    at_100 = shallow[shallow.claim.str.contains("N = 100")].set_index("reading")
    assert at_100.status["every swept depth"] == "inconclusive"
    assert at_100.status["depths 4 and up"] == "pass"


def _balanced(depth: int, bias: float = 0.0):
    """A depth-`depth` net R^2 -> R^2 balanced as Prop. 12 says: W_l = c_l I, every hidden bias
    `bias` in each unit, c_l grown so that ||W_l||_F^2 + ||b_l||^2 = ||W_(l+1)||_F^2."""
    weights, biases, squared = [], [], 2.0
    for layer in range(depth):
        weights.append(np.sqrt(squared / 2) * np.eye(2))
        b = np.full(2, bias) if layer < depth - 1 else np.zeros(2)
        biases.append(b)
        squared += float((b**2).sum())
    return weights, biases


@controls("jacot2023.depth.prop4_layer_norm_bound")
def test_one_layer_scaled_up_and_the_next_down_breaks_the_layer_norm_bound():
    """Balanced networks hold the bound (without bias at 1 exactly, l = 0; with biases below it);
    W_1 doubled and W_2 halved computes the same function and breaks it at every depth."""
    from l2relu.jacot2023 import ledger, rank, regression

    weights, biases = _balanced(6)
    assert regression.layer_norm_bounds(weights, biases).max() == pytest.approx(1.0)
    assert regression.layer_norm_bounds(*_balanced(6, 0.3)).max() < 1
    for bias in (0.0, 0.3):
        rows = _rows(_sweep(lambda d, b=bias: _balanced(d, b)), ledger.PROP4_BOUND)
        # 2 N x 6 depths x 2 readings
        assert len(rows) == 24 and set(rows.status) == {"cannot_fail"}, bias

    def unbalanced(depth):
        w, b = _balanced(depth)
        return [2 * w[0], w[1] / 2, *w[2:]], b

    moved = unbalanced(6)
    same = rank.layers(*moved, INPUTS)[-1][1], rank.layers(weights, biases, INPUTS)[-1][1]
    assert np.allclose(*same)
    rows = _rows(_sweep(unbalanced), ledger.PROP4_BOUND)
    assert set(rows.status) == {"fail"}
    # a network not certified is left out: the others still read
    some = _sweep(unbalanced, lambda n, d, s: d == 2)
    rows = _rows(some, ledger.PROP4_BOUND)
    at_2 = rows.claim.str.contains("L = 2")
    assert set(rows[at_2].status) == {"fail"} and set(rows[at_2].n_excluded) == {0}
    assert set(rows[~at_2].status) == {"cannot_fail"}  # every seed left out
