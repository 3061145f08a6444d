"""Controls of timor2022 entries that had none: each entry's measure, computed by the
pipeline's own code on a known negative case, judged by the registry, fails."""

import numpy as np
import pandas as pd
from conftest import claim_status, controls, judged


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


# ---- Secs. 4-5: "the result does not depend on the width" (thm4_width_free, thm5_width_free)
# Theorems 4-5's data and teacher at the config's sizes (8 points in R^4, teacher width 6)
TEACHER_SIZES = {"n_points": 8, "input_dim": 4, "width": 6, "seed": 0}
WIDTH_FREE = {4: "timor2022.theory.thm4_width_free", 5: "timor2022.theory.thm5_width_free"}


def _padded(layers, width):
    """A bias-free network's layers (out, in), every hidden layer filled up to `width` with zero
    neurons: the same function, and each layer's ||W||_sigma and ||W||_F unchanged."""
    out = []
    for i, w in enumerate(layers):
        rows = 1 if i == len(layers) - 1 else width
        cols = w.shape[1] if i == 0 else width
        padded = np.zeros((rows, cols))
        padded[: w.shape[0], : w.shape[1]] = w
        out.append(padded)
    return out


def _through_identities(teacher_layers, width, depth):
    """The depth-2 teacher made `depth` deep through identity layers of `width`: the same
    function (a nonnegative vector passes ReLU unchanged), each middle layer's ratio
    ||W||_sigma / ||W||_F = 1/sqrt(width), far below Theorems 4-5's bounds."""
    first, last = _padded(teacher_layers, width)
    return [first, *[np.eye(width)] * (depth - 2), last]


def _deepened(theorem, teacher_layers, depth):
    """App. D's (Theorem 4) or App. E's (Theorem 5) N' of the teacher at `depth`."""
    from l2relu.timor2022 import constructions

    build = (
        constructions.deepened_for_theorem4 if theorem == 4 else constructions.deepened_for_theorem5
    )
    return build(teacher_layers, depth)[0]


def _width_rows(theorem, networks, seeds=3):
    """The deep networks' table the ledger reads (deep._metrics, the pipeline's own measures):
    per (width, depth), `networks[(width, depth)]` (its layers) as every seed's one restart,
    certified stationary."""
    import torch

    from l2relu.timor2022 import deep, theory
    from l2relu.timor2022.data import TeacherConfig, teacher
    from l2relu.training import engine

    teacher_cfg = TeacherConfig(theorem=theorem, **TEACHER_SIZES)
    x, target, teacher_layers = teacher(teacher_cfg)
    b = theory.balanced_frobenius(teacher_layers)
    xt = torch.as_tensor(x)
    tables = []
    for (width, depth), layers in networks.items():
        stacked = [torch.as_tensor(np.stack([w] * seeds)) for w in layers]
        model = engine.BatchedMLP.from_weights(stacked)
        cfg = deep.DeepConfig(depth, width, 1e-4, 0, seeds, 0, 1e-3, 0, 1e-3, 0)
        tables.append(deep._metrics(model, xt, target, teacher_cfg, cfg, b))
    rows = pd.concat(tables, ignore_index=True).assign(
        objective=1.0, diverged=False, fall_last_half=0.0, stalled=False
    )
    return rows.assign(claim_seed=rows.seed)


def _teacher_layers(theorem):
    from l2relu.timor2022.data import TeacherConfig, teacher

    return teacher(TeacherConfig(theorem=theorem, **TEACHER_SIZES))[2]


@controls("timor2022.theory.thm4_width_free", "timor2022.theory.thm5_width_free")
def test_width_free_rows_fail_at_a_width_where_the_layers_are_isotropic():
    """At m' = 6 the deep network is App. D's or E's N' (the proofs' own network, which meets
    the bound), at m' = 24 the same teacher carried through identity layers (ratio 1/sqrt(24) =
    0.20 in each of the 10 middle layers): the m' = 24 row must fail, the m' = 6 row pass, on
    the schedule's reading and on the polished one."""
    from l2relu.timor2022 import ledger

    for thm, claim_id in WIDTH_FREE.items():
        layers = _teacher_layers(thm)
        rows = _width_rows(
            thm,
            {
                (6, 12): _padded(_deepened(thm, layers, 12), 6),
                (24, 12): _through_identities(layers, 24, 12),
            },
        )
        isotropic = rows[rows.width == 24]
        assert np.allclose(isotropic.mean_ratio, (10 / np.sqrt(24) + 2) / 12, atol=0.1)
        assert (isotropic.mean_ratio < isotropic.bound).all()
        for bar in (None, 1e-3):
            ms = ledger.width_free_claims(ledger.mark_best(rows), bar)
            assert claim_status(ms, claim_id, "m' = 24, L = 12") == ["fail"]
            assert claim_status(ms, claim_id, "m' = 6, L = 12") == ["pass"]


def test_width_free_rows_pass_on_the_proofs_networks_at_every_width():
    """Apps. D and E's N' (feasible networks of the norm the proofs bound the optimum's by; App.
    D's balanced, each layer of norm B^(k/k'), so Eq. (3)'s own argument holds for it) meet
    Eqs. (3) and (7) here (mean ratio 0.94 and 0.99 against 0.69 and 0.91 at k' = 3 and 12;
    0.93 and 0.76 against 0.37 and 0.60). Padded with zero neurons to m' = 6, 12 and 24 they are
    the same network, read the same ratio at every width, and pass at every width and depth."""
    from l2relu.timor2022 import ledger

    for thm, claim_id in WIDTH_FREE.items():
        layers = _teacher_layers(thm)
        networks = {
            (width, depth): _padded(_deepened(thm, layers, depth), width)
            for width in (6, 12, 24)
            for depth in (3, 12)
        }
        rows = _width_rows(thm, networks)
        spread = rows.groupby("depth").mean_ratio.agg(np.ptp)
        assert (spread < 1e-12).all()
        ms = ledger.width_free_claims(ledger.mark_best(rows), 1e-3)
        assert claim_status(ms, claim_id) == ["pass"] * 6


def test_thm5_width_free_leaves_out_a_stand_in_that_is_zero_on_a_class():
    """App. E's N' with its output layer's -1 set to 0 computes relu(N(x)): 0 on every point
    labelled -1, so no scaling makes it feasible for Problem 6 (precondition fits); every seed
    is left out and the row reads inconclusive, whatever its ratio."""
    from l2relu.timor2022 import ledger

    layers = _deepened(5, _teacher_layers(5), 12)
    layers[-1] = layers[-1] * np.array([[1.0, 0.0]])
    rows = _width_rows(5, {(24, 12): _padded(layers, 24)})
    assert (rows.fit <= 0).all()
    ms = ledger.width_free_claims(ledger.mark_best(rows), 1e-3)
    assert claim_status(ms, WIDTH_FREE[5]) == ["inconclusive"]
    assert "3 misfit" in judged(ms, every_entry=False).reproduced_value.iloc[0]
