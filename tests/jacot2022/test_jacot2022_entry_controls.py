"""Controls of jacot2022 entries that had none: each entry's measure, computed by the
pipeline's own code on a known negative case, judged by the registry, fails."""

import pandas as pd
from conftest import claim_status, controls


@controls("jacot2022.theory.prop19_local_minimum")
def test_prop19_local_minimum_fails_under_the_statements_mean_squared_error():
    """Prop. 19's point a = sqrt(1 - lambda) (cos, sin) with the statement's (1/N) MSE and
    Y = (1, -1): the optimum moves to 1 - 2 lambda, so sampled neighbours lie lower than the
    point by far more than round-off and the row must fail; with the proof's sum of squares and
    Y = (1, 1) the point is a local minimum and the row passes."""
    from l2relu.jacot2022 import ledger, theory

    claim_id = "jacot2022.theory.prop19_local_minimum"
    empty = {
        "prop13": pd.DataFrame(columns=["N", "edges", "triangles"]),
        "remark23": pd.DataFrame(columns=["N", "width_N_norm", "width_N_error"]),
        "prop1": pd.DataFrame({"relative_gap": [0.0]}),
    }

    def status(outputs, reduction):
        cfg = theory.Prop19Config(0.1, 0.7, 1e-3, 2000, outputs, reduction)
        prop19 = theory.prop19_table(cfg)
        ms = ledger.theory_claims(*empty.values(), prop19, [], pd.DataFrame(columns=["N"]), 1e-3)
        return claim_status(ms, claim_id)

    assert status((1.0, -1.0), "mean") == ["fail"]
    assert status((1.0, 1.0), "sum") == ["pass"]
