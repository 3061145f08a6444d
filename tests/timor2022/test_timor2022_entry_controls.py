"""Controls of timor2022 entries that had none: each entry's measure, computed by the
pipeline's own code on a known negative case, judged by the registry, fails."""

import numpy as np
import pandas as pd
from conftest import claim_status, controls


@controls("timor2022.theory.lemma15_rescaling")
def test_lemma15_rescaling_row_fails_where_the_rescaling_changes_the_function_or_norm():
    """Theorem 5's (logistic) networks, unbalanced: Lemma 15's rescaling to the geometric mean
    keeps every function and lowers every norm (0 violations, in a row that cannot fail).
    Factors whose product is not 1 move the outputs, and factors that push the layers apart
    raise ||theta||^2: on such rescalings rescaling_fails counts every network, and the Thm. 5
    row must fail."""
    from l2relu.timor2022 import ledger as t22

    rng = np.random.default_rng(1)
    arrays = {f"W{i}": rng.normal(size=(3, 4, 4)) for i in (1, 2)} | {
        "W3": rng.normal(size=(3, 1, 4))
    }
    arrays["W1"] *= 3.0  # unbalanced: the first layer three times the others
    x = rng.normal(size=(4, 12))
    weights = [arrays[k] for k in ("W1", "W2", "W3")]
    product_not_one = [2 * weights[0], *weights[1:]]
    towards_imbalance = [2 * weights[0], weights[1] / 2, weights[2]]

    def row(violations):
        deep = pd.DataFrame({"theorem": 5, "depth": 3, "claim_seed": range(3), "best": True})
        deep = deep.assign(norm_spread=0.0, rescaling_violation=violations)
        rows = [m for m in t22.standin_claims(deep) if m.claim_id == t22.RESCALING_IDS[5]]
        return claim_status(rows, t22.RESCALING_IDS[5])

    assert not t22.rescaling_violations(arrays, x).any()
    assert row(t22.rescaling_violations(arrays, x)) == ["cannot_fail"]  # holds, as it must
    assert t22.rescaling_fails(weights, product_not_one, x).all()
    assert row(t22.rescaling_fails(weights, product_not_one, x)) == ["fail"]
    assert row(t22.rescaling_fails(weights, towards_imbalance, x)) == ["fail"]
