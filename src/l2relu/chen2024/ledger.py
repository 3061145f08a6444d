"""chen2024's measurements, each for an entry of the claims registry
(workflow/claims/chen2024.yaml): the constructed networks against the paper's statements."""

import numpy as np
import pandas as pd

from l2relu.chen2024 import lemmas, theory
from l2relu.chen2024.truncation import orthant_aperture
from l2relu.ledger.claims import measured

# The registry's name of each construction.
NAME = {"prop4.1": "prop41", "cor4.2": "cor42", "thm5.2": "thm52"}


def theory_claims(networks: pd.DataFrame):
    """Per construction: on how many grid points (M, Q, N) it could not be built although the
    data meet its assumptions (the same architecture serves every N), and its largest cost."""
    ms = []
    for name, built in networks.groupby("construction", sort=False):
        ok = built.built.astype(bool)
        ms.append(
            measured(
                f"chen2024.theory.{NAME[name]}_built_every_n",
                int((~ok).sum()),
                detail=f"of {len(built)} (M, Q, N)",
            )
        )
        costs = built.cost[ok]
        ms.append(
            measured(
                f"chen2024.theory.{NAME[name]}_zero_cost",
                costs.max() if len(costs) else np.nan,
                detail=f"largest of {len(costs)}",
            )
        )
        if "family_cost" in built and built.family_cost[ok].notna().any():
            ms += _family_claims(NAME[name], built[ok])
    return ms + _count_claims(networks)


ABSTRACT_COUNT = "chen2024.theory.abstract_parameter_count"


def abstract_count_claims(networks: pd.DataFrame, readings):
    """The Abstract's Q(M + 2), per (M, Q), under each reading of what describes a minimizer:
    the free numbers of Thm 5.2's construction (eq. 3), counted where the network is rebuilt
    from them, the data and the class order; or the entries of the smallest constructed
    minimizer (Cor. 4.2's width-Q network), its weights alone or with its biases. One count
    for every N, or not measured."""
    ms = []
    built = networks[networks.built.astype(bool)]
    for (m, q), group in networks.groupby(["M", "Q"], sort=False):
        have = built[(built.M == m) & (built.Q == q)]
        thm, cor = have[have.construction == "thm5.2"], have[have.construction == "cor4.2"]
        every_n = group.N.nunique()

        def one(series, every_n=every_n):
            return (
                float(series.iloc[0])
                if len(series) == every_n and series.nunique() == 1
                else np.nan
            )

        rebuilt = thm.rebuilt_from_description.astype(bool).all() if len(thm) else False
        counts = {
            "description": one(thm.description_numbers) if rebuilt else np.nan,
            "weights": one(cor.weights),
            "parameters": one(cor.parameters),
        }
        detail = (
            f"Q(M + 2) = {q * (m + 2)}; Thm 5.2's description {one(thm.description_numbers):g}"
            f"{'' if rebuilt else ' (not rebuilt from it)'}; Cor. 4.2's network "
            f"{one(cor.weights):g} weights (Q(M + Q^2) = {q * (m + q * q)}), "
            f"{one(cor.parameters):g} with biases; Thm 5.2's {one(thm.weights):g} and "
            f"{one(thm.parameters):g}"
        )
        for r in readings:
            ms.append(
                measured(
                    ABSTRACT_COUNT,
                    counts[r.parameters["count"]],
                    f"M = {m}, Q = {q}, every N",
                    ref=q * (m + 2),
                    detail=detail,
                    reading=r.name,
                )
            )
    return ms


NARROWING_COST = "chen2024.theory.prop41_narrowing_zero_cost"
NARROWING_FREE = "chen2024.theory.prop41_narrowing_choice_free"


def narrowing_claims(table: pd.DataFrame, readings):
    """Eq. (61) at narrowing widths, per widths over every (M > Q, N): under each reading of
    which R_l the paper means, the largest cost (14), NaN when a data set's network could not be
    built; with the fitted R_l's, the largest gap between two choices' outputs, NaN when a data
    set has fewer than two choices or its choices are not apart."""
    ms = []
    for widths, group in table.groupby("widths", sort=False):
        grid = f"{len(group.groupby(['M', 'Q', 'N']))} (M, Q, N), M > Q"
        for r in readings:
            rows = group[group.rotations == r.parameters["rotations"]]
            ok = rows.built > 0
            detail = f"{grid}; built {int(rows.built.sum())} of {int(rows.tried.sum())} choices"
            if (~ok).any():
                detail += (
                    f"; not built on {int((~ok).sum())}: "
                    f"{', '.join(sorted(set(rows.failed_condition[~ok])))}"
                    f", relative residual of (21) {rows.residual_21[~ok].min():.2f}-"
                    f"{rows.residual_21[~ok].max():.2f}"
                )
            ms.append(
                measured(
                    NARROWING_COST,
                    rows.cost.max() if ok.all() else np.nan,
                    widths,
                    detail=detail,
                    reading=r.name,
                )
            )
        fitted = group[group.rotations == "fitted"]
        # two choices that reached the same R_l would say nothing about the choice
        two = (fitted.built >= 2) & fitted.apart.astype(bool)
        ms.append(
            measured(
                NARROWING_FREE,
                fitted.output_gap.max() if two.all() else np.nan,
                widths,
                detail=f"{grid}; {int(fitted.built.min())}-{int(fitted.built.max())} choices a "
                f"data set, every two apart by >= {theory.CHOICES_APART:g} in their largest entry",
            )
        )
    return ms


def prop32_claims(gap: float, networks: int):
    """Prop. 3.2: the largest gap of eqs. (20), (23), (24) over random networks."""
    return [
        measured("chen2024.theory.prop32_truncation_identities", gap, detail=f"{networks} networks")
    ]


def _family_claims(name, built: pd.DataFrame):
    """The degenerate minimum: the largest cost over every grid point's family of networks, and
    the smallest distance between two members of one family."""
    members = f"over {len(built)} (M, Q, N)"
    return [
        measured(
            f"chen2024.theory.{name}_family_zero_cost", built.family_cost.max(), detail=members
        ),
        measured(
            f"chen2024.theory.{name}_family_distinct", built.family_apart.min(), detail=members
        ),
    ]


def _count_claims(networks: pd.DataFrame):
    """The parameter counts of the built networks against the paper's two formulas, per (M, Q):
    one count for every N, or not measured."""
    ms = []
    built = networks[networks.built.astype(bool)]
    formulas = [
        ("cor4.2", "weights", "chen2024.theory.cor42_weight_count", lambda m, q: q * (m + q**2)),
        (
            "thm5.2",
            "description_numbers",
            "chen2024.theory.thm52_description_count",
            lambda m, q: q * (m + 2),
        ),
    ]
    for name, column, claim_id, formula in formulas:
        for (m, q), group in networks[networks.construction == name].groupby(["M", "Q"]):
            counts = built[(built.construction == name) & (built.M == m) & (built.Q == q)][column]
            ok = len(counts) == len(group) and counts.nunique() == 1
            ms.append(
                measured(
                    claim_id,
                    float(counts.iloc[0]) if ok else np.nan,
                    f"M = {m}, Q = {q}, every N",
                    ref=formula(m, q),
                )
            )
    return ms


def fig2_claims(grid: pd.DataFrame, p, h, theta):
    """Lemma 3.4 on the drawn grid: tau is the identity on the forward cone and sends the
    backward cone to the base point p; and what the figure shows between the cones: tau sends
    those points onto the forward cone's edges (in 2-D one unit is cut there)."""
    forward = grid[grid.region == "forward"]
    backward = grid[grid.region == "backward"]
    moved = np.hypot(forward.tau1 - forward.x1, forward.tau2 - forward.x2).max()
    off = np.hypot(backward.tau1 - p[0], backward.tau2 - p[1]).max()
    sides = grid[grid.region == "neither"]
    d = np.vstack([sides.tau1 - p[0], sides.tau2 - p[1]])
    angle = np.degrees(np.arccos(np.clip(h @ d / np.linalg.norm(d, axis=0), -1, 1)))
    off_edge = np.abs(angle - np.degrees(theta) / 2).max()
    return [
        measured("chen2024.fig2.between_cones_onto_edges", off_edge, detail=f"{len(sides)} points"),
        measured("chen2024.fig2.forward_cone_identity", moved, detail=f"{len(forward)} points"),
        measured("chen2024.fig2.backward_cone_to_base", off, detail=f"{len(backward)} points"),
    ]


def any_dimension_claims(cfg: lemmas.AnyDimensionConfig, remark21_readings=()):
    """Section 3's lemmas on random constructions in the dimensions of `cfg`, beyond Fig. 2's
    plane: each the largest error l2relu.chen2024.lemmas finds; for (36), the boundary of
    C_theta_n[u_n] touching the orthant (its smallest coordinate, the largest in size over n)."""
    dims = f"n = {', '.join(map(str, cfg.dims))}"
    layers = f"{dims}; m = n, n - 1, 1; {cfg.points} points a cone"
    touch = max((lemmas.orthant_touch(n, orthant_aperture(n)) for n in cfg.dims), key=abs)
    return [
        measured("chen2024.fig2.lemma33_projectors", lemmas.lemma33_error(cfg), detail=dims),
        measured("chen2024.fig2.lemma34_any_dimension", lemmas.lemma34_error(cfg), detail=layers),
        measured(
            "chen2024.fig2.kernel_invariance", lemmas.kernel_invariance_error(cfg), detail=layers
        ),
        measured("chen2024.fig2.remark35_polar", lemmas.polar_error(cfg), detail=dims),
        measured("chen2024.fig2.orthant_aperture", touch, detail=dims),
        measured("chen2024.fig2.eq72_ball_in_cone", lemmas.eq72_angle(cfg), detail=dims),
    ] + _remark21_claims(cfg, remark21_readings)


def _remark21_claims(cfg, readings):
    """Remark 2.1: each reading's form of C_N against its definition."""
    errors = lemmas.remark21_errors(cfg)
    detail = f"n = {', '.join(map(str, cfg.dims))} classes of 2-6 points"
    return [
        measured(
            "chen2024.fig2.remark21_class_average",
            errors[r.parameters["form"]],
            detail=detail,
            reading=r.name,
        )
        for r in readings
    ]


IN_CONES = "chen2024.fig1.classes_in_cones"


def fig1_claims(points: pd.DataFrame, notes: dict):
    """Prop. 4.1's first layer on the drawn data: its class collapsed to the cone's base point,
    the other classes untouched; the two conditions the data must meet; and the caption's left
    panel, the cut class in the backward cone and the others in the forward cone."""
    mine = points[points.label == 0]
    others = points[points.label != 0]
    cones = (
        ("class 1 in the backward cone", mine.in_backward_cone),
        ("other classes in the forward cone", others.in_forward_cone),
    )
    return [
        *(
            measured(
                IN_CONES, float(inside.mean()), case, detail=f"{int(inside.sum())} of {len(inside)}"
            )
            for case, inside in cones
        ),
        measured("chen2024.fig1.condition_55_c0", notes["c0_needed"]),
        measured("chen2024.fig1.condition_59_aperture", float(np.degrees(notes["widest_theta_j"]))),
        measured(
            "chen2024.fig1.cut_class_collapsed", mine.to_base.max(), detail=f"{len(mine)} points"
        ),
        measured(
            "chen2024.fig1.other_classes_untouched",
            others.moved.max(),
            detail=f"{len(others)} points",
        ),
    ]


def fig3_claims(orderings: pd.DataFrame, notes: dict):
    """Fig. 3's data: sequentially separable in exactly one ordering, not clustered, and Thm
    5.2's network on it at zero cost."""
    valid = orderings[orderings.valid]
    refused = notes["clustered_condition"]
    return [
        measured(
            "chen2024.fig3.unique_ordering",
            len(valid),
            detail=f"of {len(orderings)}: {', '.join(valid.ordering) or 'none'}",
        ),
        measured(
            "chen2024.fig3.not_clustered",
            1 if refused else 0,
            detail=f"condition {refused} fails" if refused else "Prop. 4.1's conditions hold",
        ),
        measured("chen2024.fig3.thm52_zero_cost", notes.get("cost", np.nan)),
    ]
