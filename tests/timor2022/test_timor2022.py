"""timor2022: initialization variants, regions from their definitions, the theorem checks."""

import numpy as np
import pandas as pd
import pytest
from conftest import controls, judged

from l2relu.timor2022 import fig1, ledger, regions, theory
from l2relu.timor2022.data import TeacherConfig, teacher, two_points
from l2relu.training.seeding import derive_seed


def cfg(variant, n=64):
    return fig1.Fig1Config(variant, 0, n, 10, 1e-4, 1e-4, 1e-4, (1.0, 0.99), (-1.0, 0.99))


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed("a", 1) == derive_seed("a", 1)
    assert len({derive_seed("timor2022", "fig1", s) for s in range(1000)}) == 1000


def test_paper_text_init_puts_rows_of_w1_and_columns_of_w2_on_the_sphere():
    w, v = fig1.initial_weights(cfg("paper_text"))
    np.testing.assert_allclose(np.linalg.norm(w, axis=2), 1e-4)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1e-4)  # columns
    assert not np.allclose(np.linalg.norm(v, axis=2), 1e-4)


def test_author_code_init_fills_rows_inside_the_disk():
    w, v = fig1.initial_weights(cfg("author_code", n=256))
    for norms in (np.linalg.norm(w, axis=2), np.linalg.norm(v, axis=2)):  # rows
        assert (norms <= 1e-4).all() and norms.min() < 0.5e-4


def test_initialization_is_reproducible_and_independent_of_the_batch():
    w_all, _ = fig1.initial_weights(cfg("paper_text", n=10))
    w_few, _ = fig1.initial_weights(cfg("paper_text", n=3))
    np.testing.assert_array_equal(w_all[:3], w_few)


def test_experiment_data_are_unit_inputs_just_past_a_right_angle():
    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    np.testing.assert_allclose(np.linalg.norm(x, axis=0), 1.0)
    assert np.pi / 2 < theory.input_angle(x) < np.pi / 2 + 0.02
    np.testing.assert_array_equal(y, np.eye(2))


def test_diverged_runs_are_flagged_not_measured():
    c = cfg("paper_text", n=4)
    w0, v0 = fig1.initial_weights(c)
    w, v = w0.copy(), v0.copy()
    w[1, 0, 0] = np.nan
    loss = np.array([0.0, np.nan, 0.5, 1e-6])
    table = fig1.runs_table(c, w0, v0, w, v, loss, np.array([-1, 17, -1, -1]))
    assert table.diverged.tolist() == [False, True, False, False]
    assert table.diverged_step.tolist() == [-1, 17, -1, -1]
    assert table.converged.tolist() == [True, False, False, True]
    assert np.isnan(table.stable_rank_w1[1])


# --- regions, on data where the boundaries are exact in floating point
XI, XJ = np.array([0.0, 1.0]), np.array([-0.6, -0.8])  # angle > pi/2; n = (1, 0), u = (-.8, .6)


def test_region_labels_follow_the_definitions():
    x1, x2 = np.array([1.0, 1.0]) / np.sqrt(2), np.array([-1.0, 1.0]) / np.sqrt(2)
    pts = np.array([[0, 1], [0, -1], [1, 0], [-1, 0], [1, -1]], dtype=float)
    assert regions.region_of(pts, x1, x2).tolist() == ["S", "D", "S1", "S2", "D"]


def test_boundary_directions():
    u, n = regions.boundary_directions(1, XI, XJ)
    np.testing.assert_allclose(u, [-0.8, 0.6])
    np.testing.assert_allclose(n, [1.0, 0.0])


# r0 = 0.25 and the points below are exact in binary, so boundary points are decided exactly.
@pytest.mark.parametrize(
    "point, inside",
    [
        ([0.1, 0.5], True),  # inside the half-strip 0 < s < r0 along x_i
        ([0.24, 0.5], True),
        ([0.25, 0.5], False),  # the strip's far edge s = r0 is open
        ([0.26, 0.5], False),
        ([0.1, 0.0], False),  # the strip's base on the D boundary is open
        ([-0.4, 0.5], True),  # in the cone between U_i's ray and x_i
        ([-1.6, 1.3], True),  # just inside U_i's ray
        ([-1.6, 1.1], False),  # just outside it, in S
        ([0.0, 0.0], False),
    ],
)
def test_A_membership_from_the_definition(point, inside):
    assert bool(regions.in_A(np.array(point), 1, XI, XJ, 0.25)) is inside


def test_F_is_A_outside_the_ball():
    assert regions.in_F(np.array([0.1, 1.2]), 1, XI, XJ, 0.3, eps0=0.0)
    assert not regions.in_F(np.array([0.1, 0.9]), 1, XI, XJ, 0.3, eps0=0.0)
    assert regions.in_F(np.array([0.1, 0.9]), 1, XI, XJ, 0.3, eps0=0.25)


def test_boundary_pieces_separate_members_from_non_members():
    r0 = 0.3
    b = regions.fig3_boundaries(XI, XJ, r0, 0.0, extent=1.0)
    edge = b[(b.region == "A1") & (b.piece == "strip edge")].sort_values("order")
    assert edge.open.all()
    mid = edge[["w_1", "w_2"]].to_numpy().mean(axis=0)
    assert regions.in_A(mid - [0.01, 0], 1, XI, XJ, r0)
    assert not regions.in_A(mid + [0.01, 0], 1, XI, XJ, r0)
    arc = b[(b.region == "F1") & (b.piece == "arc")][["w_1", "w_2"]].to_numpy()
    np.testing.assert_allclose(np.linalg.norm(arc, axis=1), 1.0)
    assert regions.in_A(arc[1:-1] * 0.999, 1, XI, XJ, r0).all()


def test_A_needs_assumption_2():
    with pytest.raises(ValueError):
        regions.in_A(np.array([1.0, 0.0]), 1, np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.1)


# --- theorems
def test_theorem1_network_has_zero_loss_and_rank_one():
    rng = np.random.default_rng(0)
    for _ in range(50):
        x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
        w, v = theory.theorem1_network(x, y)
        assert theory.half_square_loss(w, v, x, y) < 1e-20
        assert np.linalg.matrix_rank(w) == 1
        assert ((w @ x > 0).sum(axis=0) == 1).all()  # each input excites exactly one neuron


def test_theorem3_bound_and_event():
    assert theory.theorem3_bound(np.pi / 2) == pytest.approx(0.125)
    theta = np.pi / 2 + 0.1
    good = np.array([[1.0, 1.0], [-1.0, 1.0]]) / np.sqrt(2)  # right angle, unit norms
    collinear = np.array([[1.0, 0.0], [-1.0, 0.0]])
    small = good * 0.5
    event = theory.theorem3_event(
        np.stack([good, collinear, small, good]), np.array([True, True, True, False]), theta
    )
    assert event.tolist() == [True, False, False, False]


def test_theorem4_5_bounds():
    assert theory.theorem4_bound(1.0, 2, 10) == pytest.approx(1.0)
    assert theory.theorem4_bound(4.0, 2, 4) == pytest.approx(0.5)
    assert theory.theorem5_bound(np.sqrt(2), 2, 3) == pytest.approx(np.sqrt(3 / 4) / np.sqrt(2))


def _deep_config(**deep):
    base = {"depths": [3, 6, 12], "width": 12, "other_widths": [6, 24], "other_width_depths": [3]}
    return {"timor2022": {"theory": {"teacher": {"width": 6}, "deep": base | deep}}}


def test_other_widths_train_the_same_depths_and_are_checked_against_the_theorems():
    """Secs. 4-5's widths: each other width at each of its depths, both theorems, after the
    sweep; a width under the teacher's (m' < m), the sweep's own width, or a depth the sweep
    does not train stops the run naming the key."""
    from l2relu.timor2022.experiments import _theory_problem, deep_points

    points = deep_points(_deep_config())
    assert points[6:] == [(4, 3, 6), (4, 3, 24), (5, 3, 6), (5, 3, 24)]
    assert _theory_problem(_deep_config()) is None
    for bad in ({"other_widths": [4]}, {"other_widths": [6, 12]}):
        assert _theory_problem(_deep_config(**bad)).startswith(
            "config key timor2022.theory.deep.other_widths:"
        )
    problem = _theory_problem(_deep_config(other_width_depths=[4]))
    assert problem.startswith("config key timor2022.theory.deep.other_width_depths:")


@pytest.mark.parametrize("theorem", [4, 5])
def test_teacher_realizes_the_data_with_balanced_layers(theorem):
    tc = TeacherConfig(theorem=theorem, n_points=8, input_dim=4, width=6, seed=0)
    x, target, (w1, w2) = teacher(tc)
    out = (w2 @ np.maximum(w1 @ x, 0.0))[0]
    assert np.linalg.norm(w1) == pytest.approx(np.linalg.norm(w2))
    np.testing.assert_allclose(np.linalg.norm(x, axis=0), 1.0)
    if theorem == 4:
        np.testing.assert_allclose(out, target)
        assert target.max() == pytest.approx(1.0) and (target >= 0).all()
    else:
        assert (target * out).min() == pytest.approx(1.0)
        assert set(target.tolist()) == {-1.0, 1.0}


def test_lemma6_on_an_exact_zero_loss_solution():
    """Neurons on the unit circle inside S_1 / S_2, near x_1 / x_2: Lemma 6 holds."""
    x, _ = two_points((1.0, 0.99), (-1.0, 0.99))
    w = x.T[None].copy()  # w_i = x_i
    applies, in_f = theory.lemma6_membership(w, np.full((1, 2), 1e-4), np.full((1, 2), 1e-4), *x.T)
    assert applies.all() and in_f.all()
    swapped = w[:, ::-1]
    assert theory.lemma6_membership(swapped, np.full((1, 2), 1e-4), np.full((1, 2), 1e-4), *x.T)[
        1
    ].all()
    dead = np.array([[[0.0, -1.0], [0.0, -1.0]]])  # both in D: the lemma does not apply
    assert not theory.lemma6_membership(dead, np.full((1, 2), 1e-4), np.full((1, 2), 1e-4), *x.T)[
        0
    ].any()


@controls("timor2022.fig1.converged_share", "timor2022.fig1.stable_rank_bounded_away_from_1")
def test_fig1_ledger_counts_per_seed_and_reads_nothing_without_converged_runs():
    runs = pd.DataFrame(
        {
            "variant": ["paper_text"] * 4,
            "claim_seed": [0, 0, 1, 1],
            "seed": range(4),
            "loss": [0.0, 0.0, 0.0, 0.5],
            "diverged": False,
            "diverged_step": -1,
            "converged": [True, True, True, False],
            "stable_rank_w1": [1.9, 1.5, 1.6, 1.0],
            "stable_rank_w2": [1.9, 1.05, 1.5, 1.0],
        }
    )
    _, measurements = ledger.fig1(runs)
    rows = judged(measurements)
    assert rows.status["timor2022.fig1.stable_rank_bounded_away_from_1|W(1), paper_text"] == "pass"
    # seed 0's smallest W(2) stable rank is 1.05, seed 1's is 1.5
    assert rows.status["timor2022.fig1.stable_rank_bounded_away_from_1|W(2), paper_text"] == "mixed"
    assert "per seed 2/2, 1/2" in rows.reproduced_value["timor2022.fig1.converged_share|paper_text"]
    runs["converged"] = False  # no converged run: no stable rank to read, no verdict
    rows = judged(ledger.fig1(runs)[1])
    assert (
        rows.status[rows.claim_id == "timor2022.fig1.stable_rank_bounded_away_from_1"]
        == "inconclusive"
    ).all()


def test_lemma6_with_no_run_converged_applies_to_none():
    """At the paper-shapes scale no run converges: the membership of no run is empty, not an
    error."""
    from l2relu.timor2022 import theory

    x = np.array([[1.0, 0.99], [-1.0, 0.99]]) / np.hypot(1, 0.99)
    empty = np.zeros((0, 2, 2))
    applies, in_f = theory.lemma6_membership(empty, np.zeros((0, 2)), np.zeros((0, 2)), *x.T)
    assert applies.shape == in_f.shape == (0,)


def test_a_zero_v_run_no_longer_than_its_late_window_reads_its_whole_change():
    """Lemma 13's convergence reads the change over the last theory.LATE_STEPS steps; a run of
    no more steps reads its whole run's change, and a longer run's window starts later."""
    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    seed = ("test", "late")
    short = theory.zero_v_descent(x, y, 5, seed, 20, lr=0.05)
    longer = theory.zero_v_descent(x, y, 5, seed, theory.LATE_STEPS + 20, lr=0.05)
    w0 = theory._draw_in_own_regions(x, 5, theory.rng_for(*seed))
    w, v = w0, np.zeros((5, 2, 2))
    for _ in range(20):
        w, v = theory.descent_step(w, v, x, y, 0.05)
    start, end = theory._flat(w0, np.zeros((5, 2, 2))), theory._flat(w, v)
    assert np.array_equal(short.late_change, np.abs(end - start).max(axis=1))
    # the longer run's window opens after its 20th step, where the short run ended
    for _ in range(theory.LATE_STEPS):
        w, v = theory.descent_step(w, v, x, y, 0.05)
    assert np.array_equal(longer.late_change, np.abs(theory._flat(w, v) - end).max(axis=1))
    assert not np.array_equal(longer.late_change, short.late_change)
