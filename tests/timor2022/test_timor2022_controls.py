"""Controls of timor2022 (low-rank bias of ReLU networks): every measure behind an empirical or
exact ledger row, on a known negative case: the measure computed by the pipeline's own code, judged
by the registry's criterion, fails. A measure that passed here would hold for every output and prove
nothing."""

import numpy as np
import pandas as pd
import pytest
from conftest import claim_status, controls, judged, readings_of

from l2relu.ledger.claims import measured
from l2relu.timor2022.data import two_points
from l2relu.training import measures


@controls("timor2022.fig1.converged_share", "timor2022.fig1.stable_rank_bounded_away_from_1")
def test_timor2022_rank_measures_fail_on_rank_one_weights():
    from l2relu.timor2022 import ledger

    rank_one = np.outer([1.0, 2.0], [0.5, -1.0])
    assert measures.stable_rank(rank_one) == pytest.approx(1.0)
    runs = pd.DataFrame(
        {
            "variant": "paper_text",
            "claim_seed": 0,
            "seed": range(288),
            "loss": 0.0,
            "diverged": False,
            "diverged_step": -1,
            "converged": True,  # every run converged: 288/288 is far from 79/288
            "stable_rank_w1": 1.0,
            "stable_rank_w2": 1.0,
        }
    )
    ms = ledger.fig1(runs)[1]
    assert claim_status(ms, "timor2022.fig1.converged_share") == ["fail"]
    assert claim_status(ms, "timor2022.fig1.stable_rank_bounded_away_from_1") == ["fail", "fail"]


@controls("timor2022.fig2.opening_angle_s", "timor2022.fig3.f_angle_lower")
def test_timor2022_region_measures_fail_on_a_wrong_labelling():
    from l2relu.timor2022 import ledger

    side = np.linspace(-1, 1, 41)
    w1, w2 = np.meshgrid(side, side)
    table = pd.DataFrame({"w_1": w1.ravel(), "w_2": w2.ravel(), "region": "S"})
    ms = ledger.fig2(table, [1.0, 0.99], [-1.0, 0.99], extent=1.0, grid_size=41)
    assert claim_status(ms, "timor2022.fig2.opening_angle_s") == ["fail"]  # 2 pi, not pi - theta
    # F1 and F2 on one ray: the smallest angle between them is 0, below pi - theta
    f = pd.DataFrame({"w_1": [1.0, 2.0], "w_2": [0.0, 0.0], "F1": [True, False]})
    ms = ledger.fig3(f.assign(F2=~f.F1), [1.0, 0.99], [-1.0, 0.99], w0_norm=0.3)
    assert claim_status(ms, "timor2022.fig3.f_angle_lower") == ["fail"]


@controls("timor2022.theory.thm1_zero_loss")
def test_timor2022_theorem1_loss_is_not_zero_for_a_perturbed_network():
    from l2relu.timor2022 import theory

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    w, v = theory.theorem1_network(x, y)
    assert theory.half_square_loss(w, v, x, y) < 1e-20
    loss = theory.half_square_loss(w * 1.01, v, x, y)
    ms = [measured("timor2022.theory.thm1_zero_loss", loss)]
    assert claim_status(ms, "timor2022.theory.thm1_zero_loss") == ["fail"]


@controls(
    "timor2022.theory.lemma6_angle_interval",
    "timor2022.theory.lemma6_in_f",
    "timor2022.theory.lemma6_norm_interval",
    "timor2022.theory.thm2_rank_two",
    "timor2022.theory.thm3_event_share",
    "timor2022.theory.thm4_ratio_bound",
    "timor2022.theory.thm5_ratio_bound",
)
def test_timor2022_theory_rows_fail_on_antiparallel_neurons_far_outside_f_and_flat_layers():
    """The ledger's own theory measures on constructed runs where the statements are false:
    every converged W(1) has antiparallel rows of norm 100 (rank 1; the neurons in int S1 and
    int S2, as Lemma 6 asks, but far outside F_i; the angle pi outside Theorem 3's event), and
    the deep networks' layers are orthogonal (||W||_sigma / ||W||_F = 1/sqrt(12), below
    Theorems 4 and 5's bounds at every depth)."""
    from l2relu.timor2022 import ledger, regions, theory

    x1, x2 = [1.0, 0.99], [-1.0, 0.99]
    runs = pd.DataFrame(
        [
            {"variant": "paper_text", "claim_seed": s, "seed": r, "converged": True}
            | {"w1_1": 100.0, "w1_2": 0.0, "w2_1": -100.0, "w2_2": 0.0}
            | {f"{k}{i}_init_norm": 1e-4 for k in ("w", "v") for i in (1, 2)}
            for s in range(3)
            for r in range(10)
        ]
    )
    assert list(regions.region_of(np.array([[100.0, 0], [-100, 0]]), x1, x2)) == ["S1", "S2"]
    ratio = measures.spectral_frobenius_ratio(np.eye(12))
    assert ratio == pytest.approx(1 / np.sqrt(12))
    bounds = {4: theory.theorem4_bound, 5: theory.theorem5_bound}
    deep = pd.DataFrame(
        [
            {"theorem": t, "depth": depth, "claim_seed": s, "objective": 1.0, "diverged": False}
            | {"diverged_step": -1, "mean_ratio": np.mean([ratio] * depth), "fit": 0.5}
            | {"bound": float(bounds[t](2.0, 2, depth))}
            for t in (4, 5)
            for depth in (3, 6)
            for s in range(3)
        ]
    )
    theorem1 = pd.DataFrame({"loss": [0.0], "sv_ratio": [0.0]})
    readings = readings_of("timor2022.theory.thm2_rank_two")
    ms = ledger.theory_claims(theorem1, ledger.mark_best(deep), runs, x1, x2, readings)
    for claim_id in (
        "timor2022.theory.thm2_rank_two",  # rank 1 in every run
        "timor2022.theory.lemma6_in_f",  # norm 100, far outside F_i
        "timor2022.theory.lemma6_norm_interval",  # norm 100 > U_i = 1.258
        "timor2022.theory.lemma6_angle_interval",  # the angle is pi
        "timor2022.theory.thm3_event_share",  # the angle is pi
    ):
        assert claim_status(ms, claim_id) == ["fail"], claim_id
    for t in (4, 5):
        assert claim_status(ms, f"timor2022.theory.thm{t}_ratio_bound") == ["fail", "fail"]
    # a W(1) all but rank 1 (sigma_2/sigma_1 = 0.01): rank 2 as a float, not by the 0.1 reading
    nearly = runs.assign(w1_1=100.0, w1_2=0.0, w2_1=0.0, w2_2=1.0)
    ms = ledger.theory_claims(theorem1, ledger.mark_best(deep), nearly, x1, x2, readings)
    rows = judged(ms, every_entry=False)
    rows = rows[rows.claim_id == "timor2022.theory.thm2_rank_two"].set_index("reading")
    assert rows.status.to_dict() == {
        "sigma_2/sigma_1 above 1e-6": "pass",
        "sigma_2/sigma_1 above 0.1": "fail",
    }


@controls("timor2022.theory.lemma9_balance")
def test_lemma9_balance_fails_when_a_neuron_ends_unbalanced():
    """Runs that start balanced (||w_i(0)|| = ||v_i(0)||) and end with ||w_i|| = 1 = ||v_i|| hold;
    ending with v_i = 0 (a drift of 1, the quantity's own size) fails; a diverged run is not
    read."""
    from l2relu.timor2022 import ledger

    def runs(v_end, diverged=False):
        return pd.DataFrame(
            [
                {"variant": "paper_text", "claim_seed": s, "seed": s, "diverged": diverged}
                | {"w1_1": 1.0, "w1_2": 0.0, "w2_1": 0.0, "w2_2": 1.0}
                | {"v1_1": v_end, "v1_2": 0.0, "v2_1": 0.0, "v2_2": v_end}
                | {f"{k}{i}_init_norm": 1e-4 for k in ("w", "v") for i in (1, 2)}
                for s in range(3)
            ]
        )

    x1, x2 = [1.0, 0.99], [-1.0, 0.99]
    claim_id = "timor2022.theory.lemma9_balance"
    assert claim_status(ledger.balance_claims(runs(1.0), x1, x2, 1e-4), claim_id) == ["pass"]
    assert claim_status(ledger.balance_claims(runs(0.0), x1, x2, 1e-4), claim_id) == ["fail"]
    unread = pd.concat([runs(1.0), runs(0.0, diverged=True)])
    assert claim_status(ledger.balance_claims(unread, x1, x2, 1e-4), claim_id) == ["pass"]
    # a seed with no run left is not measured, not held
    assert claim_status(ledger.balance_claims(runs(1.0, True), x1, x2, 1e-4), claim_id) == [
        "inconclusive"
    ]
    # unbalanced in one neuron only, through V's column (not its row): v_2 = (0, 0)
    one = runs(1.0).assign(v2_2=0.0)
    assert claim_status(ledger.balance_claims(one, x1, x2, 1e-4), claim_id) == ["fail"]


@controls("timor2022.theory.lemma7_gradient_along_x")
def test_lemma7_fails_for_a_neuron_active_on_both_inputs():
    """A neuron in S_1 moves along x_1; one active on both inputs (outside the hypothesis) does
    not, and the row's measure on it fails."""
    from l2relu.timor2022 import theory

    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    claim_id = "timor2022.theory.lemma7_gradient_along_x"
    own = theory.lemma7_sines(x, y, 50, ("test", "own")).max()
    both = theory.lemma7_sines(x, y, 50, ("test", "both"), region="both").max()
    assert claim_status([measured(claim_id, own)], claim_id) == ["pass"]
    assert claim_status([measured(claim_id, both)], claim_id) == ["fail"]


@controls(
    "timor2022.theory.assumption1_independent_targets",
    "timor2022.theory.assumption1_unit_targets",
    "timor2022.theory.assumption2_angle",
    "timor2022.theory.assumption2_probability",
    "timor2022.theory.assumption2_unit_inputs",
)
def test_timor2022_assumption_rows_fail_on_data_that_break_them():
    """Inputs before their normalization, inputs 0.01 rad inside pi/2 instead of outside,
    parallel targets, and a draw of the inputs that is not centrally symmetric."""
    from l2relu.timor2022 import ledger, theory

    x, y = np.array([[1.0, -1.0], [0.99, 0.99]]), np.eye(2)
    m = theory.assumption_margins(x, y)
    narrow = theory.assumption_margins(np.array([[1.0, -1.0], [1.01, 1.01]]) / np.hypot(1, 1.01), y)
    parallel = theory.assumption_margins(x, np.array([[1.0, 1.0], [0.0, 0.0]]))
    rows = {
        "timor2022.theory.assumption2_unit_inputs": m["input_norm"],
        "timor2022.theory.assumption2_angle": narrow["angle_margin"],
        "timor2022.theory.assumption1_independent_targets": parallel["target_det"],
        "timor2022.theory.assumption1_unit_targets": theory.assumption_margins(x, 1.01 * y)[
            "target_norm"
        ],
    }
    for claim_id, value in rows.items():
        assert claim_status([measured(claim_id, value)], claim_id) == ["fail"], claim_id

    def shifted(rng, n):
        g = rng.standard_normal((n, 2)) + [1.0, 0.0]
        return g / np.linalg.norm(g, axis=1, keepdims=True)

    share = theory.wide_angle_share(100_000, ("test", "shifted"), draw=shifted)
    assert share == pytest.approx(0.30, abs=0.01)
    claim_id = "timor2022.theory.assumption2_probability"
    assert claim_status([measured(claim_id, share)], claim_id) == ["fail"]
    # and the pipeline's own rows on Fig. 1's data hold
    rows = judged(ledger.assumption_claims([1.0, 0.99], [-1.0, 0.99], 1_000_000), False)
    assert set(rows.status) == {"pass"} and len(rows) == 5


def test_lemma6_intervals_fail_on_a_rescaled_network_and_hold_on_its_original():
    """(c W, V / c) keeps the function and the regions; c = 1.5 and 0.8 take ||w_i|| out of
    (sqrt(3)/2, U_i), the angle unchanged."""
    from l2relu.timor2022 import theory

    x, _ = two_points((1.0, 0.99), (-1.0, 0.99))
    w = x.T[None].copy()  # w_i = x_i: unit norms, angle theta
    r0 = np.full((1, 2), 1e-4)
    for c, norm_ok in ((1.0, True), (1.5, False), (0.8, False)):
        applies, norms, angle = theory.lemma6_intervals(c * w, r0, *x.T)
        assert applies.all() and norms.all() == norm_ok and angle.all(), c
    # each neuron turned away from the other by t: the angle theta + 2t against the right end
    # theta + 2 arcsin(2e-4 / sqrt(3)) = theta + 2.31e-4 (the left end, pi - theta, is reached
    # only on the boundary of S_i, outside the lemma's hypothesis)
    rot = lambda a: np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])  # noqa: E731
    for t, ok in ((1.0e-4, True), (1.2e-4, False), (0.3, False)):
        pair = np.stack([rot(-t) @ x[:, 0], rot(t) @ x[:, 1]])
        applies, _, angle = theory.lemma6_intervals(pair[None], r0, *x.T)
        assert applies.all() and angle.all() == ok, t


@controls("timor2022.fig3.f_angle_upper")
def test_f_angle_upper_fails_when_f1_and_f2_lie_opposite():
    from l2relu.timor2022 import ledger

    # F1 and F2 on opposite rays: the largest angle between them is pi, above theta + ...
    f = pd.DataFrame({"w_1": [1.0, -1.0], "w_2": [0.0, 0.0], "F1": [True, False]})
    ms = ledger.fig3(f.assign(F2=~f.F1), [1.0, 0.99], [-1.0, 0.99], w0_norm=0.3)
    assert claim_status(ms, "timor2022.fig3.f_angle_upper") == ["fail"]


@controls("timor2022.fig2.opening_angle_s")
def test_the_opening_of_s_tells_pi_minus_theta_from_theta():
    """A labelling that swaps S and S1 gives S the opening theta, only 0.0201 from pi - theta
    for this data set: the row must fail it, and pass the right labelling on the same grid."""
    from l2relu.timor2022 import ledger, regions

    x1, x2 = [1.0, 0.99], [-1.0, 0.99]
    g = regions.grid(1.6, 201)
    labels = regions.region_of(g, x1, x2)
    right = pd.DataFrame({"w_1": g[:, 0], "w_2": g[:, 1], "region": labels})
    swapped = right.assign(region=right.region.replace({"S": "S1", "S1": "S"}))
    status = {
        name: claim_status(ledger.fig2(t, x1, x2, 1.6, 201), "timor2022.fig2.opening_angle_s")
        for name, t in (("right", right), ("swapped", swapped))
    }
    assert status == {"right": ["pass"], "swapped": ["fail"]}


@controls(
    "timor2022.theory.lemma2_exclusive_rows_fit",
    "timor2022.theory.lemma4_no_dead_row",
    "timor2022.theory.lemma5_dead_row_stays",
    "timor2022.theory.lemma8_norm_bound",
)
def test_timor2022_lemma_2_4_5_8_rows_fail_where_their_hypotheses_are_broken():
    """Lemma 2 without exclusive rows, Lemma 5 from networks with both rows alive (they fit),
    Lemma 8 off zero loss and Lemma 4 with a converged run whose row sits in D all fail."""
    from l2relu.timor2022 import ledger, theory

    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    for claim_id in ("lemma2_exclusive_rows_fit", "lemma5_dead_row_stays", "lemma8_norm_bound"):
        ms = ledger.lemma_2_5_8_claims((1.0, 0.99), (-1.0, 0.99), 40)
        assert claim_status(ms, f"timor2022.theory.{claim_id}") == ["pass"]
    residual = theory.lemma2_residuals(40, ("test", "l2"), exclusive=False).max()
    assert claim_status(
        [measured("timor2022.theory.lemma2_exclusive_rows_fit", residual)],
        "timor2022.theory.lemma2_exclusive_rows_fit",
    ) == ["fail"]
    loss, kept = theory.dead_row_descent(x, y, 40, ("test", "l5"), start="S")
    assert not kept.any()
    claim_id = "timor2022.theory.lemma5_dead_row_stays"
    assert claim_status([measured(claim_id, (loss / 0.5).min())], claim_id) == ["fail"]
    slacks = theory.lemma8_slacks(x, y, 40, ("test", "l8"), v_scale=0.5)
    claim_id = "timor2022.theory.lemma8_norm_bound"
    assert claim_status([measured(claim_id, slacks.min())], claim_id) == ["fail"]
    # Lemma 4: one of two converged runs with its first row -(x_1 + x_2), inside D
    w = np.stack([np.eye(2), np.stack([-(x[:, 0] + x[:, 1]), np.ones(2)])])
    share = theory.no_dead_row(w, x).mean()
    claim_id = "timor2022.theory.lemma4_no_dead_row"
    assert share == 0.5
    assert claim_status([measured(claim_id, [share, share, share])], claim_id) == ["fail"]
    assert claim_status([measured(claim_id, [1.0, share, 1.0])], claim_id) == ["mixed"]
    assert claim_status([measured(claim_id, [1.0, 1.0, 1.0])], claim_id) == ["pass"]


@controls("timor2022.theory.lemma14_rescaling")
def test_timor2022_standin_and_rescaling_rows_fail_on_unbalanced_or_changed_networks():
    """The stand-in check reads 0 for equal layer norms and fails with one layer doubled and the
    next halved (the same function); Lemmas 14-15's rescaling keeps every function and lowers
    every unbalanced norm, while factors whose product is not 1 move the outputs and a rescaling
    towards imbalance raises the norm: both counted, and the rows fail."""
    from l2relu.timor2022 import ledger as t22

    rng = np.random.default_rng(0)
    layer = rng.normal(size=(2, 4, 4))
    layer /= np.linalg.norm(layer, axis=(1, 2), keepdims=True)
    balanced = {"W1": layer, "W2": layer[:, ::-1], "W3": layer[:, :1]}
    balanced["W3"] = balanced["W3"] / np.linalg.norm(balanced["W3"], axis=(1, 2), keepdims=True)
    rescaled = balanced | {"W1": 2 * layer, "W2": layer[:, ::-1] / 2}
    x = rng.normal(size=(4, 10))
    for arrays, expected in ((balanced, "pass"), (rescaled, "fail")):
        deep = pd.DataFrame(
            {"theorem": 4, "depth": 3, "claim_seed": [0, 1], "best": True}
            | {"norm_spread": t22.layer_norm_spread(arrays), "rescaling_violation": False}
        )
        rows = [m for m in t22.standin_claims(deep) if m.claim_id == t22.STANDINS]
        assert claim_status(rows, t22.STANDINS) == [expected]
    assert not t22.rescaling_violations(rescaled, x).any()
    weights = [rescaled[k] for k in ("W1", "W2", "W3")]
    product_not_one = [weights[0] * 2, *weights[1:]]
    towards_imbalance = [weights[0] * 2, weights[1] / 2, weights[2]]
    assert t22.rescaling_fails(weights, product_not_one, x).all()
    assert t22.rescaling_fails(weights, towards_imbalance, x).all()
    deep = pd.DataFrame({"theorem": 4, "depth": 3, "claim_seed": [0, 1], "best": True})
    deep = deep.assign(norm_spread=0.0, rescaling_violation=[True, False])
    rows = [m for m in t22.standin_claims(deep) if m.claim_id == t22.RESCALING_IDS[4]]
    assert claim_status(rows, t22.RESCALING_IDS[4]) == ["fail"]


@controls("timor2022.theory.eq18_deepened_teacher")
def test_timor2022_deepened_teacher_row_fails_where_the_construction_does_not_hold():
    """App. D's N' from Theorem 4's teacher reproduces its outputs at the bound's norm at every
    depth; from Theorem 5's teacher (outputs of both signs, which the width-1 ReLU layers cut),
    or on targets the teacher does not fit, the row fails."""
    from l2relu.timor2022 import constructions
    from l2relu.timor2022 import ledger as t22
    from l2relu.timor2022.data import TeacherConfig, teacher

    def row(theorem, fits=True):
        x, y, weights = teacher(TeacherConfig(theorem, 20, 5, 4, 0))
        if theorem == 5:
            y = constructions.outputs(weights, x)[0]  # the teacher's own signed outputs
        if not fits:
            y = y + 0.1
        teachers = {depth: (x, y, weights) for depth in (3, 6, 12)}
        return claim_status(t22.construction_claims(teachers), t22.DEEPENED_TEACHER)

    assert row(4) == ["pass"] * 3
    assert row(5) == ["fail"] * 3
    assert row(4, fits=False) == ["fail"] * 3
    # alpha and beta split otherwise: N's first layer doubled, the first width-1 layer halved,
    # so the outputs are kept and only the norm can tell
    built = constructions.deepened_for_theorem4

    def split_otherwise(weights, depth):
        deeper, b = built(weights, depth)
        return [2 * deeper[0], *deeper[1:2], deeper[2] / 2, *deeper[3:]], b

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(constructions, "deepened_for_theorem4", split_otherwise)
        assert row(4) == ["fail"] * 3
    x, y, weights = teacher(TeacherConfig(4, 20, 5, 4, 0))
    deeper, b = constructions.deepened_for_theorem4(weights, 6)
    squared = sum(float((w**2).sum()) for w in deeper)
    assert squared == pytest.approx(6 * b ** (2 * 2 / 6), rel=1e-12)  # Eq. (18) with equality
    assert constructions.outputs(deeper, x)[0] == pytest.approx(y, rel=1e-12)


@controls("timor2022.theory.thm3_own_initialization")
def test_timor2022_theorem3_row_fails_where_the_runs_stop_short():
    """Theorem 3 under its own initialization: runs stopped after 10 steps end nowhere near
    zero loss, so no run is in E and every law fails; run to the end, every law holds."""
    from l2relu.timor2022 import ledger, theory

    x1, x2 = (1.0, 0.99), (-1.0, 0.99)
    short = ledger.theorem3_claims(x1, x2, 2, 1e-4, runs=200, steps=10, lr=0.05)
    full = ledger.theorem3_claims(x1, x2, 1, 1e-4, runs=200, steps=20000, lr=0.05)
    for law in theory.THEOREM3_LAWS:
        assert claim_status(short, ledger.THEOREM3, law) == ["fail"]
        assert claim_status(full, ledger.THEOREM3, law) == ["pass"]


@controls(
    "timor2022.theory.lemma10_point_losses_fall",
    "timor2022.theory.lemma11_first_steps",
    "timor2022.theory.lemma12_stays_in_g",
    "timor2022.theory.lemma13_converges_in_own_regions",
)
def test_timor2022_lemmas_10_to_13_fail_from_a_random_v_or_with_an_overshooting_step():
    """From v(0) = 0 at a small step every run keeps Lemmas 10-13; a Gaussian V(0) (outside the
    lemmas) breaks Lemmas 11-13, and a step of 1.0 (gradient descent no longer following the
    flow) breaks all four."""
    from l2relu.timor2022 import ledger, theory

    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    ids = ledger.ZERO_V_IDS | {"lemma13": "timor2022.theory.lemma13_converges_in_own_regions"}

    def statuses(**kwargs):
        table = theory.zero_v_descent(x, y, 30, ("test", "zv"), 20000, **kwargs)
        counts = ledger.zero_v_counts(table)
        return {k: claim_status([measured(ids[k], n)], ids[k])[0] for k, n in counts.items()}

    assert set(statuses(lr=0.05).values()) == {"pass"}
    random_v = statuses(lr=0.05, v_scale=1.0)
    assert [random_v[k] for k in ("lemma11", "lemma12", "lemma13")] == ["fail"] * 3
    assert set(statuses(lr=1.0).values()) == {"fail"}


def test_lemma12_set_g_flags_each_of_its_conditions_alone():
    """outside_g on crafted states of two runs (the second untouched): w_1 moved off x_1, moved
    back along -x_1, v off span{y}, a loss above L(t'), and v . phi > 0 each flag only the
    condition they break."""
    from l2relu.timor2022 import theory

    x, _ = two_points((1.0, 0.99), (-1.0, 0.99))
    w_start = np.stack([np.eye(2), np.eye(2)])
    loss_start = np.full((2, 2), 0.1)
    base = dict(off=np.zeros((2, 2), bool), push=np.full((2, 2), -0.01), loss=loss_start.copy())

    def flags(w=w_start, **changes):
        state = base | changes
        return theory.outside_g(
            w, w_start, state["off"], state["push"], state["loss"], loss_start, x
        ).tolist()

    assert flags() == [[False] * 4] * 2
    along = w_start.copy()
    along[0, 0] += 0.3 * x[:, 0]
    assert flags(along) == [[False] * 4] * 2  # c_1 = 0.3 >= 0: inside G
    across = w_start.copy()
    across[0, 0] += 0.3 * np.array([x[1, 0], -x[0, 0]])  # orthogonal to x_1
    back = w_start.copy()
    back[0, 0] -= 0.3 * x[:, 0]  # c_1 < 0
    off, loss, push = base["off"].copy(), base["loss"].copy(), base["push"].copy()
    off[0, 1], loss[0, 0], push[0, 1] = True, 0.2, 0.01
    for k, state in enumerate((dict(w=across), dict(off=off), dict(loss=loss), dict(push=push))):
        got = flags(**state)
        assert got[1] == [False] * 4 and [j for j, f in enumerate(got[0]) if f] == [k], (k, got)
    assert flags(back)[0] == [True, False, False, False]


@controls("timor2022.theory.eq20_deepened_teacher")
def test_timor2022_width_two_teacher_row_fails_where_the_construction_does_not_hold():
    """App. E's N' from Theorem 5's teacher reproduces its outputs of both signs on every input,
    at Eq. (20)'s norm with equality, at every depth (k' = 3 has no identity layer); with one
    neuron in layer k (the negative outputs cut), or alpha and beta split otherwise, it fails."""
    from l2relu.timor2022 import constructions
    from l2relu.timor2022 import ledger as t22
    from l2relu.timor2022.data import TeacherConfig, teacher

    drawn = teacher(TeacherConfig(5, 20, 5, 4, 0))
    assert (drawn[1] > 0).any() and (drawn[1] < 0).any()

    def row():
        teachers = {depth: drawn for depth in (3, 6, 12)}
        return claim_status(t22.theorem5_construction_claims(teachers), t22.WIDTH_TWO_TEACHER)

    assert row() == ["pass"] * 3
    built = constructions.deepened_for_theorem5

    def one_neuron(weights, depth):  # the second neuron of layer k (-N(x)) silenced
        deeper, b = built(weights, depth)
        return [*deeper[:1], deeper[1] * np.array([[1.0], [0.0]]), *deeper[2:]], b

    def split_otherwise(weights, depth):  # outputs kept, norm above the bound
        deeper, b = built(weights, depth)
        return [2 * deeper[0], deeper[1] / 2, *deeper[2:]], b

    for variant in (one_neuron, split_otherwise):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(constructions, "deepened_for_theorem5", variant)
            assert row() == ["fail"] * 3, variant.__name__
    x, _, weights = drawn
    deeper, b = built(weights, 6)
    squared = sum(float((w**2).sum()) for w in deeper)
    assert squared == pytest.approx(2 * (b**2 / 2) ** (2 / 6) * 7, rel=1e-12)  # Eq. (20)
    assert constructions.outputs(deeper, x)[0] == pytest.approx(
        constructions.outputs(weights, x)[0], rel=1e-12
    )


def _optimum_rows(theorem: int, networks: list, claim_id: str):
    """The statuses of `claim_id` on each network (a list of layers, one seed each) built on
    Theorem `theorem`'s teacher, read as its depth's stand-ins."""
    from l2relu.timor2022 import ledger as t22
    from l2relu.timor2022.data import TeacherConfig, teacher

    x, y, weights = teacher(TeacherConfig(theorem, 20, 5, 4, 0))
    built = [net(weights) for net in networks]
    arrays = {f"W{i + 1}": np.stack([n[i] for n in built]) for i in range(len(built[0]))}
    deep = t22.optimum_measures(arrays, x, y, weights, theorem).assign(
        theorem=theorem, depth=len(built[0]), claim_seed=range(len(built)), best=True
    )
    ms = [m for m in t22.optimum_claims(deep) if m.claim_id == claim_id]
    rows = judged(ms, every_entry=False)
    return rows, deep


def _unbalanced(layers):
    """The same function with the first layer doubled and the second halved."""
    return [2 * layers[0], layers[1] / 2, *layers[2:]]


def _negated(layers):
    """The output negated: every point misclassified."""
    return [*layers[:-1], -layers[-1]]


@controls("timor2022.theory.eq19_layer_norm", "timor2022.theory.eq19_mean_spectral")
def test_timor2022_eq19_rows_fail_on_an_unbalanced_or_unfitting_network():
    """App. D's N' (balanced, at Eq. (18)'s norm) scaled by 0.999 meets Eq. (19) and fits the
    witness point once scaled back; with a layer doubled and the next halved (the same function,
    an unbalanced optimum Lemma 14 excludes) Eq. (19) fails, and with the output negated (no
    positive c fits y_j >= 1) the mean spectral row fails."""
    from l2relu.timor2022 import constructions
    from l2relu.timor2022 import ledger as t22

    def n_prime(weights):
        return [0.999 * w for w in constructions.deepened_for_theorem4(weights, 4)[0]]

    def unbalanced(weights):
        return _unbalanced(n_prime(weights))

    def negated(weights):
        return _negated(n_prime(weights))

    norm_id, spectral_id = t22.OPTIMUM_IDS[4]
    rows, deep = _optimum_rows(4, [n_prime, n_prime], norm_id)
    assert rows.status.tolist() == ["pass"]
    assert deep.layer_norm_over_bound.to_numpy() == pytest.approx(0.999**2, rel=1e-12)
    assert _optimum_rows(4, [n_prime, unbalanced], norm_id)[0].status.tolist() == ["mixed"]
    rows, deep = _optimum_rows(4, [n_prime, n_prime], spectral_id)
    assert rows.status.tolist() == ["cannot_fail"]
    assert deep.constraint_scale.to_numpy() == pytest.approx(1 / 0.999, rel=1e-12)
    assert _optimum_rows(4, [negated, negated], spectral_id)[0].status.tolist() == ["fail"]


@controls("timor2022.theory.eq21_layer_norm", "timor2022.theory.eq21_mean_spectral")
def test_timor2022_eq21_rows_read_margin_one_and_fail_on_unbalanced_or_misclassifying_networks():
    """App. E's N' (margin 1, at Eq. (20)'s norm) balanced as Lemma 15 does (its layer k holds
    twice the others' squared norm) meets Eq. (21): each layer 2^(1/k') k'/(k'+1) of the bound,
    at any scale, since the row reads it scaled to margin 1; with a layer doubled and the next
    halved Eq. (21) fails, and with the output negated (every point misclassified, no c makes it
    feasible) the mean spectral row fails."""
    from l2relu.timor2022 import constructions
    from l2relu.timor2022 import ledger as t22

    def n_prime(weights):
        deeper = constructions.deepened_for_theorem5(weights, 4)[0]
        norms = np.array([np.linalg.norm(w) for w in deeper])
        mean = np.exp(np.log(norms).mean())
        return [w * mean / n for w, n in zip(deeper, norms, strict=True)]

    def tripled(weights):
        return [3 * w for w in n_prime(weights)]

    def unbalanced(weights):
        return _unbalanced(n_prime(weights))

    def negated(weights):
        return _negated(n_prime(weights))

    norm_id, spectral_id = t22.OPTIMUM_IDS[5]
    rows, deep = _optimum_rows(5, [n_prime, tripled], norm_id)
    assert rows.status.tolist() == ["pass"]
    assert deep.layer_norm_over_bound.to_numpy() == pytest.approx(2**0.25 * 4 / 5, rel=1e-9)
    assert deep.constraint_scale.to_numpy() == pytest.approx([1, 1 / 3], rel=1e-9)
    assert _optimum_rows(5, [unbalanced, unbalanced], norm_id)[0].status.tolist() == ["fail"]
    assert _optimum_rows(5, [n_prime, tripled], spectral_id)[0].status.tolist() == ["cannot_fail"]
    assert _optimum_rows(5, [negated, n_prime], spectral_id)[0].status.tolist() == ["mixed"]
