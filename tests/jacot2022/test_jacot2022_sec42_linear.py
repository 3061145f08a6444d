"""Controls of Sec. 4.2's rank bound and Sec. 3.1 item 2's linear-network covariances: each
entry's measure, computed by the pipeline's own code on a known negative case, fails."""

import numpy as np
import pandas as pd
from conftest import REPO, claim_status, controls

from l2relu.jacot2022 import ledger, linear
from l2relu.ledger.registry import load_registry

REGISTRY = load_registry([REPO / "workflow/claims/jacot2022.yaml"])


def _compression(groups, rank_bound, over_lowest=1.0):
    """A compression table of three B_N (N = 4) seeds at every merge tolerance."""
    rows = [
        {
            "setting": "bipartite",
            "N": 4,
            "seed": s,
            "width": 10,
            "tol": tol,
            "groups": groups,
            "change": 0.0,
            "merged_objective": 1.0,
            "rank_bound": rank_bound,
            "over_lowest": over_lowest,
        }
        for s in (0, 8, 16)
        for tol in ledger.merge_tolerances(REGISTRY)
    ]
    onsets = pd.DataFrame({"setting": "bipartite", "N": 4, "seed": [0, 8, 16], "rel_tol": 1e-3})
    return pd.DataFrame(rows), onsets


@controls("jacot2022.theory.sec42_rank_within_merged_count")
def test_sec42_rank_fails_where_the_ranks_exceed_the_merged_count():
    table, onsets = _compression(groups=3, rank_bound=4)
    ms = ledger.sec42_claims(table, onsets, REGISTRY, 3)
    assert claim_status(ms, ledger.SEC42_RANK) == ["fail"]
    table, onsets = _compression(groups=4, rank_bound=3)
    assert claim_status(ledger.sec42_claims(table, onsets, REGISTRY, 3), ledger.SEC42_RANK) == [
        "cannot_fail"
    ]


@controls("jacot2022.theory.sec42_merged_count_reaches_cp_rank")
def test_sec42_count_fails_below_the_cp_rank_and_leaves_out_networks_off_the_lowest():
    table, onsets = _compression(groups=3, rank_bound=3)  # N^2/4 = 4 at N = 4
    assert claim_status(ledger.sec42_claims(table, onsets, REGISTRY, 3), ledger.SEC42_CP) == [
        "fail"
    ]
    table, onsets = _compression(groups=3, rank_bound=3, over_lowest=1.01)
    ms = ledger.sec42_claims(table, onsets, REGISTRY, 3)
    assert claim_status(ms, ledger.SEC42_CP) == ["inconclusive"]
    table, onsets = _compression(groups=4, rank_bound=3)
    assert claim_status(ledger.sec42_claims(table, onsets, REGISTRY, 3), ledger.SEC42_CP) == [
        "pass"
    ]


def test_the_balanced_network_meets_the_formula_and_an_unbalanced_one_does_not():
    rng = np.random.default_rng(0)
    x, z_out = rng.standard_normal((4, 4)), rng.standard_normal((3, 4))
    for depth in (2, 3, 4):
        weights = linear.balanced_network(x, z_out, depth)
        assert np.allclose(np.linalg.multi_dot([*weights[::-1], x]), z_out)
        assert linear.covariance_gap(weights, x) < 1e-12
        weights[0], weights[1] = 2 * weights[0], weights[1] / 2  # same outputs, unbalanced
        assert linear.covariance_gap(weights, x) > 0.5


@controls("jacot2022.theory.linear_covariances_construction")
def test_linear_construction_fails_for_an_unbalanced_network():
    rng = np.random.default_rng(1)
    x, z_out = rng.standard_normal((4, 4)), rng.standard_normal((3, 4))
    weights = linear.balanced_network(x, z_out, 3)
    weights[0], weights[1] = 2 * weights[0], weights[1] / 2
    table = pd.DataFrame(
        [
            {
                "depth": 3,
                "trial": 0,
                "rank": 3,
                "output_error": 0.0,
                "gap": linear.covariance_gap(weights, x),
            }
        ]
    )
    assert claim_status(ledger.linear_construction_claims(table), ledger.LINEAR_BUILT) == ["fail"]


def _trained(gap, objective=1.0):
    return pd.DataFrame(
        [
            {
                "seed": s,
                "depth": 3,
                "restart": r,
                "network": "polished",
                "objective": objective[r] if isinstance(objective, list) else objective,
                "balanced_objective": 1.0,
                "fall_last_half": 0.0,
                "stalled": False,
                "gap": gap,
            }
            for s in range(3)
            for r in range(2)
        ]
    )


@controls("jacot2022.theory.linear_covariances_trained")
def test_linear_trained_fails_off_the_formula_and_leaves_out_networks_off_the_minimum():
    bar = 1e-3
    fails = ledger.linear_trained_claims(_trained(0.5), "polished", REGISTRY, bar)
    assert claim_status(fails, ledger.LINEAR_TRAINED) == ["fail"]
    # each data set read on its lowest restart: the second, 10% above, is not read
    ms = ledger.linear_trained_claims(_trained(1e-6, [1.0, 1.1]), "polished", REGISTRY, bar)
    assert claim_status(ms, ledger.LINEAR_TRAINED) == ["cannot_fail"]  # holds, as it must
    assert [m.meets["at_minimum"] for m in ms] == [[True] * 3]
    # every restart 10% above the balanced network built for its outputs: off the minimum
    ms = ledger.linear_trained_claims(_trained(1e-6, [1.1, 1.2]), "polished", REGISTRY, bar)
    assert [m.meets["at_minimum"] for m in ms] == [[False] * 3]
