"""Controls of jacot2023 entries that had none: each entry's measure, computed by the
pipeline's own code on a known negative case, judged by the registry, fails."""

import numpy as np
import pandas as pd
from conftest import REPO, claim_status, controls, judged

from l2relu.ledger.registry import load_registry, registry_files


def _class_map(logits_of):
    """The class map (argmax of three logits) on the workflow's 200 x 200 grid."""
    from l2relu.jacot2023 import classes

    points = np.random.default_rng(0).uniform(-1, 1, size=(100, 2))
    xs, ys = classes.grid_points(points, 200)
    gx, gy = np.meshgrid(xs, ys)
    return logits_of(gx.ravel(), gy.ravel()).argmax(1).reshape(200, 200)


@controls("jacot2023.fig2.tripoints_deep")
def test_tripoints_deep_fails_when_the_deep_maps_have_a_tripoint():
    """Deep (L = 9) class maps whose three classes meet at the origin (logits at 120 degrees):
    the counter finds one tripoint in each, so 'absent in deeper networks' must fail; deep maps
    of parallel bands (no tripoint) pass, with and without L2."""
    from l2relu.jacot2023 import classes, ledger

    angles = np.radians([90, 210, 330])
    star = _class_map(lambda x, y: np.outer(x, np.cos(angles)) + np.outer(y, np.sin(angles)))
    bands = _class_map(lambda x, y: np.stack([x, 2 * x - 0.5, -x - 0.5], axis=1))
    counts = {"star": classes.count_tripoints(star), "bands": classes.count_tripoints(bands)}
    assert counts == {"star": 1, "bands": 0}

    def statuses(deep_map):
        summary = pd.DataFrame(
            {"seed": [0, 1] * 2, "depth": 9, "lam": [0, 0, 1e-3, 1e-3]}
            | {"tripoints": counts[deep_map], "train_accuracy": 1.0}
            | {"diverged": False, "diverged_step": -1}
        )
        ms = [m for m in ledger.fig2_claims(summary, 2, 9) if "tripoints" in m.claim_id]
        return claim_status(ms, "jacot2023.fig2.tripoints_deep")

    assert statuses("star") == ["fail", "fail"]
    assert statuses("bands") == ["pass", "pass"]


def _bottleneck(k, d=8, depth=7, scale=1.0):
    """A depth-`depth` ReLU net R^d -> R^d whose hidden layers hold the first k coordinates of
    x shifted by 2 (every unit active on [-1, 1]^d); the output layer undoes the shift."""
    project = np.diag((np.arange(d) < k).astype(float))
    shift = 2.0 * (np.arange(d) < k)
    weights = [scale * project] + [np.eye(d)] * (depth - 1)
    biases = [scale * shift] + [np.zeros(d)] * (depth - 2) + [-scale * shift]
    return weights, biases


def _rank_study_rows(networks, registry, claim_id):
    """The rank study's ledger rows of `claim_id` for one setting, a row per (network, norm)."""
    from l2relu.jacot2023 import ledger
    from l2relu.jacot2023.rank_study import jacobian_measures, middle_ranks

    x = np.random.default_rng(0).uniform(-1, 1, size=(8, 200))
    readings = {
        k: registry[f"jacot2023.rankstudy.{k}"].every_reading
        for k in ("middle_layers_rank", "jacobian_rank")
    }
    cells = pd.DataFrame(
        [
            {"scale": "he", "lam_factor": 1.0, "lam": 0.05, "depth": len(w), "selected": False}
            | {"seed": seed, "loss": 0.01, "output_variance": 10.0, "norm_drift": 0.0}
            | {"diverged": False, "diverged_step": -1, "norm_per_layer": norm}
            | jacobian_measures(w, b, x, readings["jacobian_rank"])
            | middle_ranks(w, b, x, readings["middle_layers_rank"], 4)
            for seed, ((w, b), norm) in enumerate(networks)
        ]
    )
    rows = judged(ledger.rank_study_claims(cells, 4, registry), every_entry=False)
    return rows[rows.claim_id == claim_id]


def _norm_per_layer(weights):
    return sum((w**2).sum() for w in weights) / len(weights)


@controls("jacot2023.rankstudy.middle_layers_rank")
def test_rankstudy_middle_rank_fails_on_a_rank_six_bottleneck_for_a_rank_four_task():
    """Networks built to hold the first 6 coordinates of x in every middle layer, on a task of
    k = 4: middle_ranks reads 6 under every reading (the shift lies in the span, so centred and
    uncentred agree), 2 off k, and each reading's row must fail; the same networks holding 4
    coordinates read 4 and pass."""
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    claim_id = "jacot2023.rankstudy.middle_layers_rank"

    def statuses(k):
        networks = [(_bottleneck(k), _norm_per_layer(_bottleneck(k)[0]))] * 3
        return set(_rank_study_rows(networks, registry, claim_id).status)

    assert statuses(6) == {"fail"}
    assert statuses(4) == {"pass"}


@controls("jacot2023.rankstudy.prop3_bound")
def test_rankstudy_prop3_bound_fails_on_a_jacobian_read_against_a_norm_not_its_own():
    """Prop. 3 holds for any weights against their own ||W||^2/L, so the row can fail only where
    a Jacobian is read against a norm that is not its network's (the pipeline's error the row
    guards against). A rank-4 bottleneck whose first layer is 16 times larger has floor
    4 * 16^(2/7) = 8.8; against its own norm (153) the row passes, against the norm of the
    unscaled network (52/7 = 7.4, as if recorded before the layer grew) it must fail."""
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    claim_id = "jacot2023.rankstudy.prop3_bound"
    grown = _bottleneck(4, scale=16.0)
    own, before = _norm_per_layer(grown[0]), _norm_per_layer(_bottleneck(4)[0])
    assert before < 4 * 16 ** (2 / 7) < own

    def status(norm):
        return _rank_study_rows([(grown, norm)] * 3, registry, claim_id).status.tolist()

    assert status(own) == ["pass"]
    assert status(before) == ["fail"]


def _first_twice(x):
    return np.stack([x[0], x[0]])


@controls("jacot2023.theory.example1_identity_on_cross", "jacot2023.theory.example1_rank_one")
def test_example1_rows_fail_for_a_map_off_the_cross_or_of_full_rank(monkeypatch):
    """Example 1's identity and rank rows measure the map they are given: the rank-1 map
    x -> (x0, x0) moves the branch x1 = -x0 of the x-cross, and the identity map has a rank-2
    Jacobian in every region; each fails only its own row."""
    from l2relu.jacot2023 import constructions as c
    from l2relu.jacot2023 import ledger as j23

    cfg = c.ConstructionsConfig(trials=4, points=50, leaky_slopes=(-0.5, 0.5), grid_size=51)
    ids = {"example1_identity", "example1_rank"}
    for wrong, failing in ((_first_twice, "example1_identity"), (np.copy, "example1_rank")):
        monkeypatch.setattr(c, "example1", lambda x, reading, f=wrong: f(x))
        table = c.constructions_table(cfg)
        rows = judged(j23.construction_claims(table[table.check.isin(ids)]), every_entry=False)
        status = dict(zip(rows.claim_id, rows.status, strict=False))
        assert status[j23.CONSTRUCTION_IDS[failing]] == "fail"
        assert status[j23.CONSTRUCTION_IDS[(ids - {failing}).pop()]] == "pass"
