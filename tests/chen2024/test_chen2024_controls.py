"""Controls of chen2024 (explicit global minima): every measure behind an empirical or exact ledger
row, on a known negative case: the measure computed by the pipeline's own code, judged by the
registry's criterion, fails. A measure that passed here would hold for every output and prove
nothing."""

from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from conftest import claim_status, controls, judged, readings_of

from l2relu.ledger.claims import measured
from l2relu.timor2022.data import two_points


@controls("chen2024.fig1.cut_class_collapsed")
def test_chen2024_first_layer_rows_fail_for_a_map_that_truncates_nothing():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig1Config, fig1_tables

    points, _, notes = fig1_tables(Fig1Config(per_class=10, spread=0.1, seed=1))
    # the identity map: the cut class stays where it was, far from the base point
    untouched = points.assign(to_base=np.where(points.label == 0, 1.0, points.to_base), moved=0.0)
    ms = ledger.fig1_claims(untouched, notes)
    assert claim_status(ms, "chen2024.fig1.cut_class_collapsed") == ["fail"]
    assert claim_status(ms, "chen2024.fig1.other_classes_untouched") == ["pass"]


@controls("chen2024.fig2.eq72_ball_in_cone")
def test_eq72_fails_with_the_apex_too_close():
    from l2relu.chen2024 import lemmas

    cfg = lemmas.AnyDimensionConfig((3, 5), 100, 0)
    claim_id = "chen2024.fig2.eq72_ball_in_cone"
    assert lemmas.eq72_angle(cfg) == pytest.approx(np.pi / 6, abs=1e-3)
    assert claim_status([measured(claim_id, lemmas.eq72_angle(cfg))], claim_id) == ["pass"]
    close = lemmas.eq72_angle(cfg, apex=1.2)
    assert claim_status([measured(claim_id, close)], claim_id) == ["fail"]


@controls(
    "chen2024.fig2.remark21_class_average",
    "timor2022.theory.lemma3_rank_one_needs_opposite_rows",
)
def test_lemma3_fails_for_opposite_rows_and_remark21_for_the_unsquared_norm():
    """Lemma 3's row on rank-1 layers whose rows are opposite (the conclusion's own form, which
    reaches zero loss) fails; Remark 2.1's row fails under the reading whose form is off by a
    square, and holds under the two identities."""
    from l2relu.chen2024 import ledger as chen
    from l2relu.chen2024 import lemmas
    from l2relu.timor2022 import theory

    x, y = two_points((1.0, 0.99), (-1.0, 0.99))
    claim_id = "timor2022.theory.lemma3_rank_one_needs_opposite_rows"
    same_sign = theory.lemma3_losses(x, y, 40, ("test", "same"))
    opposite = theory.lemma3_losses(x, y, 40, ("test", "opposite"), sign=-1.0)
    assert same_sign.min() == pytest.approx(0.5)
    assert claim_status([measured(claim_id, same_sign.min())], claim_id) == ["pass"]
    assert claim_status([measured(claim_id, opposite.min())], claim_id) == ["fail"]
    readings = readings_of("chen2024.fig2.remark21_class_average")
    cfg = lemmas.AnyDimensionConfig((3, 4), 10, 0)
    rows = judged(chen._remark21_claims(cfg, readings), False).set_index("reading").status
    assert rows.to_dict() == {
        "the variance decomposition": "pass",
        "(16)'s norm, squared": "pass",
        "(16)'s norm as printed": "fail",
    }


@controls(
    "chen2024.fig1.other_classes_untouched",
    "chen2024.fig2.between_cones_onto_edges",
    "chen2024.fig2.forward_cone_identity",
)
def test_chen2024_untouched_and_identity_rows_fail_for_a_map_that_moves_everything():
    """The maps that pass these rows trivially (the identity) are the other controls; here the
    claim is false: a map sending every point to the base point moves the other classes (Fig. 1)
    and the forward cone (Fig. 2)."""
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig1Config, Fig2Config, fig1_tables, fig2_grid

    points, _, notes = fig1_tables(Fig1Config(per_class=10, spread=0.1, seed=1))
    # to the base point: to_base 0 for every point; the other classes, untouched by the right
    # map (to_base their distance to the base point), move by that distance
    moved = points.moved.where(points.label == 0, points.to_base)
    to_base = points.assign(to_base=0.0, moved=moved)
    assert claim_status(
        ledger.fig1_claims(to_base, notes), "chen2024.fig1.other_classes_untouched"
    ) == ["fail"]
    grid, layer = fig2_grid(Fig2Config((0.5, 0.3), 30.0, 120.0, 2.0, 21))
    p = layer["p"]
    collapsed = grid.assign(tau1=p[0], tau2=p[1])
    ms = ledger.fig2_claims(collapsed, p, layer["h"], layer["theta"])
    assert claim_status(ms, "chen2024.fig2.forward_cone_identity") == ["fail"]


@controls(
    "chen2024.fig3.thm52_zero_cost",
    "chen2024.theory.cor42_built_every_n",
    "chen2024.theory.cor42_zero_cost",
    "chen2024.theory.prop41_built_every_n",
    "chen2024.theory.prop41_zero_cost",
    "chen2024.theory.thm52_built_every_n",
    "chen2024.theory.thm52_zero_cost",
)
def test_chen2024_zero_cost_rows_fail_for_a_network_off_by_a_bias_and_a_build_that_fails():
    """Every construction built, then its output bias moved by 0.1: the cost (14) the ledger
    reads through the training engine is no longer 0, and each zero-cost row fails (the
    theory's three, and Fig. 3's Thm 5.2 network); a grid point whose construction failed
    fails its built-every-N row."""
    from dataclasses import replace

    from l2relu.chen2024 import construction, data, ledger, theory

    rows = []
    for name in theory.ARCHITECTURES:
        x, labels = data.clustered(3, 3, 10, 0.1, seed=0)
        y = np.eye(3)
        if name == "thm5.2":
            net = construction.separable_network(x, labels, y)
        else:
            net = construction.clustered_network(x, labels, y, theory.ARCHITECTURES[name](3, 3))
        off = replace(net, out_bias=net.out_bias + 0.1)
        cost = theory.engine_cost(off, x, labels, y)
        assert cost > 1e-3
        row = theory.build_row(name, 3, 3, 10, x, labels, y)
        rows += [row | {"cost": cost}, row | {"N": 60, "built": False, "cost": np.nan}]
    ms = ledger.theory_claims(pd.DataFrame(rows))
    for key in ("prop41", "cor42", "thm52"):
        assert claim_status(ms, f"chen2024.theory.{key}_zero_cost") == ["fail"], key
        assert claim_status(ms, f"chen2024.theory.{key}_built_every_n") == ["fail"], key
    orderings = pd.DataFrame({"ordering": ["1-2-3"], "valid": [True]})
    ms = ledger.fig3_claims(orderings, {"clustered_condition": "(55)", "cost": cost})
    assert claim_status(ms, "chen2024.fig3.thm52_zero_cost") == ["fail"]


@controls(
    "chen2024.theory.cor42_zero_cost",
    "chen2024.theory.prop41_family_distinct",
    "chen2024.theory.prop41_family_zero_cost",
    "chen2024.theory.prop41_zero_cost",
    "chen2024.theory.thm52_family_distinct",
    "chen2024.theory.thm52_family_zero_cost",
    "chen2024.theory.thm52_zero_cost",
)
def test_chen2024_family_rows_fail_for_a_family_that_does_not_move_or_leaves_zero_cost(
    monkeypatch,
):
    """The degenerate minima's families: a construction that ignores the free parameter (every
    member the same network) fails the distinct rows; a member off by a bias fails the zero-cost
    rows; the real families pass both."""
    from dataclasses import replace

    from l2relu.chen2024 import data, ledger, theory

    x, labels = data.clustered(3, 3, 10, 0.1, seed=0)
    y = np.eye(3)

    def rows(**extra):
        return pd.DataFrame(
            [
                theory.build_row(name, 3, 3, 10, x, labels, y, members=3) | extra
                for name in theory.ARCHITECTURES
            ]
        )

    ms = ledger.theory_claims(rows())
    for key in ("prop41", "thm52"):
        assert claim_status(ms, f"chen2024.theory.{key}_family_zero_cost") == ["pass"], key
        assert claim_status(ms, f"chen2024.theory.{key}_family_distinct") == ["pass"], key
    build = theory._build
    monkeypatch.setattr(theory, "_build", lambda *a, share=0.5: build(*a))  # share ignored
    ms = ledger.theory_claims(rows())
    for key in ("prop41", "thm52"):
        assert claim_status(ms, f"chen2024.theory.{key}_family_distinct") == ["fail"], key
    monkeypatch.setattr(
        theory,
        "_build",
        lambda *a, share=0.5: replace(net := build(*a, share=share), out_bias=net.out_bias + 0.1),
    )
    ms = ledger.theory_claims(rows())
    for key in ("prop41", "thm52"):
        assert claim_status(ms, f"chen2024.theory.{key}_family_zero_cost") == ["fail"], key


@controls("chen2024.theory.prop32_truncation_identities")
def test_chen2024_prop32_fails_when_a_width_grows():
    """Prop. 3.2's identities fail once a layer widens (W_l W_l^+ != 1)."""
    from l2relu.chen2024 import ledger as chen
    from l2relu.chen2024 import truncation

    rng = np.random.default_rng(1)
    widths = (3, 5, 5, 2)
    layers = [(rng.normal(size=(n, m)), rng.normal(size=n)) for m, n in pairwise(widths)]
    claim_id = "chen2024.theory.prop32_truncation_identities"
    assert claim_status(chen.prop32_claims(truncation.prop32_error(5, 0), 5), claim_id) == ["pass"]
    widening = truncation.prop32_gap(layers, rng.normal(size=(3, 40)))
    assert claim_status(chen.prop32_claims(widening, 1), claim_id) == ["fail"]


@controls("chen2024.fig1.classes_in_cones")
def test_chen2024_cone_row_fails_with_the_cones_exchanged():
    """Fig. 1's left panel: each class read in the other cone (class 1 forward, the rest
    backward) fails; as the caption places them, both pass."""
    from l2relu.chen2024 import ledger as c24
    from l2relu.chen2024.figures import Fig1Config, fig1_tables

    points, _, notes = fig1_tables(Fig1Config(per_class=30, spread=0.1, seed=0))
    rows = [m for m in c24.fig1_claims(points, notes) if m.claim_id == c24.IN_CONES]
    assert [claim_status([m], c24.IN_CONES)[0] for m in rows] == ["pass", "pass"]
    swapped = points.assign(
        in_backward_cone=points.in_forward_cone, in_forward_cone=points.in_backward_cone
    )
    rows = [m for m in c24.fig1_claims(swapped, notes) if m.claim_id == c24.IN_CONES]
    assert [claim_status([m], c24.IN_CONES)[0] for m in rows] == ["fail", "fail"]


def _narrowing_table(m=5, q=3, per_class=5, members=2):
    from l2relu.chen2024 import data, theory

    x, labels = data.clustered(m, q, per_class, 0.1, seed=0)
    return pd.DataFrame(
        [
            theory.narrowing_row(name, m, q, per_class, x, labels, np.eye(q), rot, members, 6, 0)
            for name in theory.NARROWING
            for rot in theory.ROTATIONS
        ]
    )


def test_fitted_rotations_meet_eq78_and_keep_eq21():
    """Each fitted R_l is orthogonal with R_l f_l = u / |u| (eq. 78), and eq. (61)'s network
    built from them keeps eq. (21) and reaches zero cost; two seeds give two networks."""
    from l2relu.chen2024 import construction, data

    x, labels = data.clustered(5, 3, 5, 0.1, seed=0)
    nets = [
        construction.eq61_network(
            x, labels, np.eye(3), (3, 3, 3), construction.fitted_rotations, np.random.default_rng(s)
        )
        for s in (0, 1)
    ]
    means = construction.class_means(x, labels, 3)
    f = (means.mean(axis=1)[:, None] - means) / np.linalg.norm(
        means.mean(axis=1)[:, None] - means, axis=0
    )
    for net in nets:
        for j, r in enumerate(net.notes["rotations"]):
            np.testing.assert_allclose(r @ r.T, np.eye(5), atol=1e-12)
            np.testing.assert_allclose(r @ f[:, j], np.ones(5) / np.sqrt(5), atol=1e-12)
        out = net.representations(x)[-1]
        assert construction.cost(out, labels, np.eye(3)) < 1e-20
    assert np.abs(nets[0].weights[1] - nets[1].weights[1]).max() > 0.1
    with pytest.raises(construction.AssumptionError, match=r"\(21\)"):
        construction.eq61_network(x, labels, np.eye(3), (3, 3, 3))  # Householder


@controls(
    "chen2024.theory.prop41_narrowing_zero_cost",
    "chen2024.theory.prop41_narrowing_choice_free",
)
def test_narrowing_rows_fail_for_householder_and_for_choices_that_move_the_outputs(monkeypatch):
    """Eq. (61) at narrowing widths: the fitted R_l's pass both rows; the Householder reading
    fails (no network: eq. 21 is left); a choice whose last bias is off by 0.1 fails the
    zero-cost and the choice-free rows."""
    from dataclasses import replace

    from l2relu.chen2024 import construction, theory
    from l2relu.chen2024 import ledger as c24

    readings = readings_of(c24.NARROWING_COST)
    rows = judged(c24.narrowing_claims(_narrowing_table(), readings), False)
    primary = rows[rows.primary]
    assert set(primary.status) == {"pass"}
    householder = rows[rows.reading == "Householder R_l"]
    assert set(householder.status) == {"fail"}
    build, calls = construction.eq61_network, []

    def shifted(*a, **k):
        net = build(*a, **k)
        calls.append(1)
        return replace(net, out_bias=net.out_bias + 0.1 * (len(calls) % 2))

    monkeypatch.setattr(theory.construction, "eq61_network", shifted)
    ms = c24.narrowing_claims(_narrowing_table(), readings)
    assert set(claim_status(ms, c24.NARROWING_COST)) == {"fail"}
    assert set(claim_status(ms, c24.NARROWING_FREE)) == {"fail"}


@controls("chen2024.theory.abstract_parameter_count")
def test_abstract_count_fails_for_network_entries_and_for_a_description_that_does_not_rebuild(
    monkeypatch,
):
    """The Abstract's Q(M + 2): the eq. (3) reading passes where Thm 5.2's network is rebuilt
    from its description; the network-entry readings (36 weights, 48 with biases at M = Q = 3)
    fail; a description that does not rebuild the network fails the primary."""
    from l2relu.chen2024 import data, theory
    from l2relu.chen2024 import ledger as c24

    x, labels = data.clustered(3, 3, 10, 0.1, seed=0)
    readings = readings_of(c24.ABSTRACT_COUNT)

    def table():
        return pd.DataFrame(
            [
                theory.build_row(name, 3, 3, 10, x, labels, np.eye(3))
                for name in theory.ARCHITECTURES
            ]
        )

    rows = judged(c24.abstract_count_claims(table(), readings), False).set_index("reading")
    assert rows.status.to_dict() == {
        "free numbers of the construction (eq. 3)": "pass",
        "entries of the weight matrices": "fail",
        "entries of the weights and biases": "fail",
    }
    assert [v.split()[0] for v in rows.reproduced_value.iloc[1:]] == ["36", "48"]
    monkeypatch.setattr(theory, "rebuilds_from_description", lambda *a: False)
    ms = c24.abstract_count_claims(table(), readings)
    assert claim_status(ms, c24.ABSTRACT_COUNT) == ["fail"]


def test_the_eq21_residual_kept_between_evaluations_is_the_residual_to_the_bit():
    """fitted_rotations' residual keeps each layer's R_l and each pair's gap by the bits of
    their parameters: along a finite-difference Jacobian's points and random points it returns
    the bits of the residual computed afresh, and the comparison sees a wrong kept value. (The
    fits themselves are not compared: scipy's Levenberg-Marquardt has been seen to take
    different steps, now and then, from the same sequence of residuals.)"""
    from l2relu.chen2024 import construction, data, theory

    m, q = 8, 4
    x, labels = data.clustered(m, q, 20, 0.1, seed=0)
    _, f, _, widest, _ = construction._clustered_geometry(x, labels, q)
    theta = max(np.pi / 2, widest + 0.5 * (np.pi - widest))
    widths = theory.NARROWING["widths M - 1, M - 2, ... down to Q"](m, q)
    rng = np.random.default_rng(0)
    start = [np.linalg.qr(rng.standard_normal((m - 1, m - 1)))[0] for _ in range(q)]
    afresh = construction.Eq21Residual(f, theta, widths, start, reuse=False)
    reusing = construction.Eq21Residual(f, theta, widths, start, reuse=True)
    z0 = 0.1 * rng.standard_normal(q * afresh.size)
    jacobian_points = [z0 + 1e-8 * e for e in np.eye(len(z0))]
    points = [z0, *jacobian_points, *rng.standard_normal((5, len(z0)))]
    for z in points + points:
        assert afresh(z).tobytes() == reusing(z).tobytes()
    # at each Jacobian point the q - 1 layers not moved were found
    assert reusing.reused >= len(jacobian_points) * (q - 1)
    assert afresh.reused == 0
    # a kept rotation under another value's key: the same comparison tells it apart
    z1 = z0.copy()
    z1[0] += 0.5
    reusing.kept[0][z1[: reusing.size].tobytes()] = reusing.rotation(0, z0[: reusing.size])
    assert afresh(z1).tobytes() != reusing(z1).tobytes()
