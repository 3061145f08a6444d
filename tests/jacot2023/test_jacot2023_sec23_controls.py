"""Controls of the rows of Sec. 2's reduction of a homogeneous sigma to sigma_a and of Sec. 3's
R_inf(psi o A o phi) = Rank A: each measure, computed by the pipeline's own code on a known
negative case, judged by the registry, fails; the table's own rows pass (or, for the reading
expected to fail, fail)."""

import numpy as np
from conftest import claim_status, controls, judged

from l2relu.ledger.claims import measured

SLOPE = "jacot2023.theory.sec2_reduction_slope"
FITS = "jacot2023.theory.sec2_reduction_fits"
SAME = "jacot2023.theory.sec2_network_same_function"
SCALING = "jacot2023.theory.sec2_cost_scaling"
NET_FITS = "jacot2023.theory.sec3_bijection_network_fits"
COST = "jacot2023.theory.sec3_bijection_cost"
CLOSES = "jacot2023.theory.sec3_bijection_closes"


def _cfg():
    from l2relu.jacot2023 import constructions as c

    return c.ConstructionsConfig(trials=4, points=50, leaky_slopes=(0.5,), grid_size=51)


def test_sec23_rows_of_the_table_pass_but_one_factor_with_biases():
    from l2relu.jacot2023 import constructions as c
    from l2relu.jacot2023 import ledger as j23

    table = c.constructions_table(_cfg())
    rows = judged(j23.construction_claims(table[table.check.str.startswith("sec")]), False)
    status = {(r.claim_id, r.reading, r.claim): r.status for r in rows.itertuples()}
    for (claim_id, reading, claim), s in status.items():
        if claim_id == SCALING:
            expected = "fail" if reading == "one factor, biases included" else "cannot_fail"
        elif claim_id in (SLOPE, CLOSES):
            expected = "cannot_fail"
        else:
            expected = "pass"
        assert s == expected, (claim_id, reading, claim, s)
    cases = {r.claim for r in rows.itertuples() if r.claim_id == CLOSES}
    assert len(cases) == 3  # a = 0, 0.5, -0.5


@controls(
    "jacot2023.theory.sec2_cost_scaling",
    "jacot2023.theory.sec2_network_same_function",
    "jacot2023.theory.sec2_reduction_fits",
    "jacot2023.theory.sec2_reduction_slope",
)
def test_sec2_rows_fail_on_the_excluded_sigma_a_one_branch_solve_a_lost_sign_and_a_skewed_map():
    """The excluded sigma (|p| = |q|: identity, absolute value up to scale) give |a| = 1; the
    one-branch solve a = q / p fits but gives |a| > 1; a solve that drops c's sign misfits; a
    network map that forgets the c of the previous layer misfits; the direct map with its first
    two layers rescaled by 3 and 1/3 (the same function) leaves [min(1, b^2), max(1, b^2)]."""
    from l2relu.jacot2023 import constructions as c

    cfg = _cfg()
    excluded = [abs(c.reduction(p, q)[0]) for p, q in ((1.0, 1.0), (1.0, -1.0), (-2.0, 2.0))]
    assert excluded == [1.0, 1.0, 1.0]
    assert claim_status([measured(SLOPE, max(excluded))], SLOPE) == ["fail"]

    def one_branch(p, q):
        return (q / p, abs(p), float(np.sign(p))) if p else c.reduction(p, q)

    values = c.reduction_values(cfg, solve=one_branch)
    assert values["sec2_reduction_misfit"] < 1e-12  # it fits: only the slope row sees it
    assert claim_status([measured(SLOPE, values["sec2_slope"])], SLOPE) == ["fail"]

    def unsigned(p, q):
        a, b, _ = c.reduction(p, q)
        return a, b, 1.0

    misfit = c.reduction_values(cfg, solve=unsigned)["sec2_reduction_misfit"]
    assert claim_status([measured(FITS, misfit)], FITS) == ["fail"]

    def forgets_c(net, b, _c):
        return c.to_sigma_a(net, b, 1.0)

    misfit = c.sec2_network_values(cfg, mapping=forgets_c)["sec2_network_misfit"]
    assert claim_status([measured(SAME, misfit)], SAME) == ["fail"]

    def skewed(net, b, sign):
        (w1, b1), (w2, b2), *rest = c.to_sigma_a(net, b, sign)
        return [(3 * w1, 3 * b1), (w2 / 3, b2), *rest]

    values = c.sec2_network_values(cfg, mapping=skewed)
    assert values["sec2_network_misfit"] < 1e-9  # the same function
    gaps = [measured(SCALING, v, reading=r) for r, v in values["sec2_cost_scaling"].items()]
    assert claim_status(gaps, SCALING) == ["fail"]  # the primary, within b^2


@controls(
    "jacot2023.theory.sec3_bijection_closes",
    "jacot2023.theory.sec3_bijection_cost",
    "jacot2023.theory.sec3_bijection_network_fits",
)
def test_sec3_rows_fail_on_a_network_read_with_another_slope_costly_identities_and_a_short_depth():
    """The network built for sigma_1/2 read with ReLU misfits (alpha, beta are the slope's);
    its identity layers as 2I then I/2 (the same map) make C move with L; read at depth 10 the
    bounds stand far from Rank A."""
    from l2relu.jacot2023 import constructions as c

    instance = c.sec3_instance(1)
    rank = instance[0]
    x = np.random.default_rng(0).normal(size=(4, 50))
    target = c.sec3_function(instance, x)
    net = c.sec3_network(instance, x, 10, 0.5)
    assert np.abs(c.forward(net, x, 0.5) - target).max() < 1e-9 * np.abs(target).max()
    misfit = np.abs(c.forward(net, x, 0.0) - target).max() / np.abs(target).max()
    assert claim_status([measured(NET_FITS, misfit, "a = 0")], NET_FITS) == ["fail"]
    constants = []
    for depth in (10, 14):
        net = c.sec3_network(instance, x, depth, 0.0)
        middle = range(2, depth - 2)
        costly = [
            (w * (2.0 if (i - 2) % 2 == 0 else 0.5), b) if i in middle else (w, b)
            for i, (w, b) in enumerate(net)
        ]
        assert np.allclose(c.forward(costly, x), c.forward(net, x))
        constants.append(c.norm_minus_kl(costly, rank))
    spread = c.constant_spread(constants)
    assert claim_status([measured(COST, spread, "a = 0")], COST) == ["fail"]
    short = c.sec3_values(_cfg(), far=10, slopes=(0.0,))[0.0]["sec3_closes"]
    assert claim_status([measured(CLOSES, short, "a = 0")], CLOSES) == ["fail"]
