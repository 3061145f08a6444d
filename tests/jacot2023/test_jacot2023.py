"""jacot2023: data, rank measurements, KRR, tripoints, autoencoder distances and ledger logic."""

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, controls, judged, killed_and_resumed, tiny_rank_study

from l2relu.jacot2023 import autoencoders, classes, krr, ledger, rank, regression
from l2relu.jacot2023.data import (
    LatentTask,
    curve_points,
    curve_polyline,
    curve_vertices,
    polyline_shape,
    random_curve,
    s_classes,
    screen_curves,
)
from l2relu.ledger.registry import load_registry

TASK = LatentTask(latent=6, d_in=8, d_out=7, true_rank=2, width=20, seed=3)


def test_the_task_is_fixed_by_its_seed_and_y_reads_only_k_latents():
    x, y, z = TASK.sample(30)
    x2, y2, _ = TASK.sample(30)
    assert x.shape == (8, 30) and y.shape == (7, 30) and z.shape == (6, 30)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    _, h = TASK.functions()
    moved = z.copy()
    moved[TASK.true_rank :] += 5.0  # the coordinates h must not read
    assert np.allclose(h(moved[: TASK.true_rank]), y)
    assert not np.allclose(TASK.sample(30, "test")[0], x)


def _finite_difference(f, points, eps=1e-6):
    d_in = points.shape[0]
    cols = []
    for i in range(d_in):
        e = np.zeros((d_in, 1))
        e[i] = eps
        cols.append((f(points + e) - f(points - e)) / (2 * eps))
    return np.stack(cols, axis=-1).transpose(1, 0, 2)  # (N, d_out, d_in)


def _random_net(widths, seed=0):
    rng = np.random.default_rng(seed)
    weights = [
        rng.normal(size=(b, a)) / np.sqrt(a) for a, b in zip(widths[:-1], widths[1:], strict=True)
    ]
    biases = [rng.normal(size=b) * 0.1 for b in widths[1:]]
    return weights, biases


def test_network_jacobians_match_finite_differences():
    weights, biases = _random_net((5, 12, 12, 4))
    points = np.random.default_rng(1).normal(size=(5, 6))
    jac = rank.network_jacobians(weights, biases, points)
    numeric = _finite_difference(lambda p: rank.layers(weights, biases, p)[-1][1], points)
    assert np.allclose(jac, numeric, atol=1e-6)


def test_krr_jacobians_match_finite_differences_and_are_full_rank():
    x, y, _ = TASK.sample(60)
    bandwidth = krr.median_bandwidth(x)
    coefficients = krr.fit(x, y, 1e-3, bandwidth)
    points = TASK.sample(5, "test")[0]
    jac = krr.jacobians(x, coefficients, bandwidth, points)
    numeric = _finite_difference(lambda p: krr.predict(x, coefficients, bandwidth, p), points)
    assert np.allclose(jac, numeric, atol=1e-6)
    s = rank.jacobian_spectra(jac)
    assert ((s / s[:, :1]) > 1e-8).sum(axis=1).min() == min(TASK.d_in, TASK.d_out)


def _bottleneck_net(k=2, d=6, width=10, depth=5, seed=0):
    """A ReLU net whose middle layers carry a k-dimensional positive representation."""
    rng = np.random.default_rng(seed)
    weights, biases = [rng.normal(size=(width, d))], [np.full(width, 0.1)]
    down = np.zeros((width, width))
    down[:k, :k] = np.abs(rng.normal(size=(k, k)))  # keeps the first k (positive) neurons
    for _ in range(depth - 2):
        weights.append(down)
        biases.append(np.zeros(width))
    weights.append(rng.normal(size=(3, width)))
    biases.append(np.zeros(3))
    weights[1] = np.zeros((width, width))
    weights[1][:k] = np.abs(rng.normal(size=(k, width)))
    return weights, biases


def test_a_built_bottleneck_is_measured_and_its_identity_layers_cost_no_nonlinearity():
    weights, biases = _bottleneck_net()
    x = np.random.default_rng(2).normal(size=(6, 40))
    layer, smallest = regression.bottleneck_rank(weights, biases, x, rule="threshold", rel_tol=1e-6)
    assert smallest == 2 and layer == 2
    spectra = rank.representation_spectra(weights, biases, x, n_values=10)
    for row in spectra[2:-1]:  # all pre-activations there are >= 0
        assert row["nonlinearity_impact"] == 0.0
    assert spectra[0]["nonlinearity_impact"] > 0.1
    jac = rank.network_jacobians(weights, biases, x)
    assert (rank.jacobian_spectra(jac) > 1e-9).sum(axis=1).max() <= 2


def test_middle_layers_are_a_third_away_from_both_ends():
    assert list(regression.middle_layers(13)) == [5, 6, 7, 8, 9]
    assert list(regression.middle_layers(9)) == [4, 5, 6]


def test_numerical_rank_counts_values_above_the_relative_tolerance():
    assert rank.numerical_rank(np.array([2.0, 1.0, 0.05, 0.0]), 0.05) == 2
    assert rank.numerical_rank(np.zeros(3), 0.1) == 0


@pytest.mark.parametrize(
    "label_map, expected",
    [
        (np.repeat(np.arange(4), 5)[None, :].repeat(8, axis=0), 0),  # vertical stripes
        (np.array([[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 2, 2], [2, 2, 2, 2]]), 1),
        (np.array([[0, 0, 1, 1, 3, 3], [0, 0, 1, 1, 3, 3], [2, 2, 2, 2, 2, 2]]), 2),
        (np.array([[0, 1], [2, 3]]), 1),  # a four-class point counts once
    ],
)
def test_tripoints_are_counted_once_each(label_map, expected):
    assert classes.count_tripoints(label_map) == expected


def test_the_s_classes_are_translates_of_one_shape():
    points, labels = s_classes(4, 50, 2.0, 1.0, 0.0, seed=0)
    assert points.shape == (200, 2) and np.bincount(labels).tolist() == [50] * 4
    for c in range(4):  # noise-free points lie on x = a sin(pi y) + c * spacing
        p = points[labels == c]
        assert np.allclose(p[:, 0], 2.0 * np.sin(np.pi * p[:, 1]) + c)


def test_distance_to_polyline_is_exact_for_a_segment_and_a_corner():
    line = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    points = np.array([[0.5, 2.0], [2.0, 0.5], [0.5, -0.3], [1.0, 0.5]])
    expected = [np.sqrt(1.25), 1.0, 0.3, 0.0]
    assert np.allclose(autoencoders.distance_to_polyline(points, line), expected)


def test_curve_points_lie_on_the_curve():
    points = curve_points(10, 50, seed=0)
    polyline = curve_polyline(10, seed=0, t_max=5.0, n=20001)
    assert autoencoders.distance_to_polyline(points, polyline).max() < 1e-3
    spread = np.sqrt(((points - points.mean(axis=0)) ** 2).sum(axis=1).mean())
    assert 0.5 < spread < 2.0  # scaled to unit RMS (on 10,000 reference points)


def test_the_curve_vertices_are_the_curve_and_the_dense_samples_lie_on_them():
    vertices = curve_vertices(40, seed=1)
    dense = curve_polyline(40, seed=1)
    assert np.allclose(vertices[[0, -1]], dense[[0, -1]])
    assert autoencoders.distance_to_polyline(dense, vertices).max() < 1e-12


def test_polyline_shape_finds_crossings_reversals_and_turning():
    square = np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]])
    shape = polyline_shape(square)
    assert shape["injective"] and shape["turning_deg"] == pytest.approx(180)
    assert shape["max_kink_deg"] == pytest.approx(90)
    assert not polyline_shape(np.array([[0.0, 0], [2, 0], [1, 1], [1, -1]]))["injective"]
    assert not polyline_shape(np.array([[0.0, 0], [2, 0], [1, 0]]))["injective"]  # reversal
    assert not polyline_shape(np.array([[0.0, 0], [1, 0], [1, 0], [1, 1]]))["injective"]
    # a closed loop touches its start
    assert not polyline_shape(np.array([[0.0, 0], [1, 0], [1, 1], [0, 0]]))["injective"]
    # collinear but apart is no crossing; collinear and overlapping is
    assert polyline_shape(np.array([[0.0, 0], [1, 0], [1, 1], [2, 1], [2, 0], [3, 0]]))["injective"]
    assert not polyline_shape(np.array([[0.0, 0], [2, 0], [2, 1], [1, 1], [1, 0], [3, 0]]))[
        "injective"
    ]


def test_the_screen_admits_the_first_injective_curves_and_curve_4_crosses_itself():
    rows = screen_curves(40, 0, 5)
    assert [r["curve"] for r in rows if r["admitted"]] == [0, 1, 2, 3, 5]
    assert [r["curve"] for r in rows if not r["injective"]] == [4]
    # seen on dense samples too: the branches either side of t = 0.335 come within a step
    g = random_curve(40, 4)
    before, after = g(np.linspace(0.28, 0.33, 501)[None]).T, g(np.linspace(0.34, 0.39, 501)[None]).T
    gap = np.linalg.norm(before[:, None] - after[None], axis=2).min()
    assert gap < np.linalg.norm(np.diff(before, axis=0), axis=1).max()
    with pytest.raises(ValueError, match="are injective"):
        screen_curves(40, 4, 1, tries=1)


def test_settling_repeats_the_last_phase_until_the_objective_stops_moving():
    import torch

    from l2relu.training.engine import BatchedMLP, NetworkConfig, Phase

    def trained(bar, max_repeats):
        model = BatchedMLP(NetworkConfig((2, 8, 2), bias=True), [0, 1], "cpu", torch.float64)
        x = torch.tensor(np.random.default_rng(0).normal(size=(2, 2, 20)))
        phases = (Phase("adam", 1e-2, 20), Phase("adam", 1e-3, 20))
        settling = autoencoders.Settling(bar, max_repeats)
        return autoencoders.train_converging(model, x, 1e-3, phases, "float64", None, settling)

    result, before, repeats = trained(bar=1.0, max_repeats=3)
    assert repeats == 0
    result, before, repeats = trained(bar=0.0, max_repeats=3)  # nothing settles at a bar of 0
    assert repeats == 3 and np.all(np.abs(1 - result.objective / before) > 0)


RANK_READINGS = load_registry([REPO / "workflow/claims/jacot2023.yaml"])[
    "jacot2023.fig1.middle_layers_rank"
].every_reading


def _fig1_layers(ranks, impacts, seed=0):
    depth = len(ranks)
    return pd.DataFrame(
        {
            "seed": seed,
            "layer": np.arange(1, depth + 1),
            **{f"rank: {r.name}": ranks for r in RANK_READINGS},
            "nonlinearity_impact": impacts,
            "middle": [layer in regression.middle_layers(depth) for layer in range(1, depth + 1)],
        }
    )


def _fig1_runs(seeds, norm=7.0):
    n = len(seeds)
    return pd.DataFrame(
        {
            "seed": seeds,
            "loss": [0.05] * n,
            "output_variance": [50.0] * n,
            "norm_per_layer": [norm] * n,
            "diverged": [False] * n,
            "diverged_step": [-1] * n,
        }
    )


@controls(
    "jacot2023.fig1.middle_layers_rank",
    "jacot2023.fig1.middle_nonlinearity_impact",
    "jacot2023.fig1.norm_per_layer",
)
def test_fig1_ledger_judges_rank_impact_and_norm_per_seed():
    # depth 9: the middle layers are 4-6
    good_ranks, good_impacts = [9, 7, 5, 4, 4, 4, 8, 9, 9], [0.5] * 3 + [0.02] * 3 + [0.5] * 3
    bad_ranks, bad_impacts = [9, 7, 5, 5, 4, 4, 8, 9, 9], [0.5] * 3 + [0.3] * 3 + [0.5] * 3
    layers = pd.concat(
        [
            _fig1_layers(good_ranks, good_impacts, 0),
            _fig1_layers(good_ranks, good_impacts, 1),
            _fig1_layers(bad_ranks, bad_impacts, 2),
        ]
    )
    rows = judged(ledger.fig1_claims(layers, _fig1_runs([0, 1, 2]), 4, RANK_READINGS), False)
    rows = rows[rows.primary]
    status = dict(zip(rows.claim_id.str.split(".").str[-1], rows.status, strict=True))
    assert status == {
        "fits_data": "pass",
        "norm_per_layer": "pass",
        "middle_layers_rank": "mixed",  # the third seed reads rank 5 in layer 4
        "middle_nonlinearity_impact": "mixed",
        "no_divergence": "pass",
    }
    # the paper's ~6 within 50%: a norm of 10 is too far
    rows = judged(
        ledger.fig1_claims(layers, _fig1_runs([0, 1, 2], norm=10.0), 4, RANK_READINGS), False
    )
    norm = rows[rows.claim_id == "jacot2023.fig1.norm_per_layer"]
    # within 50% and factor 1.5 of 6 it fails; within a factor 2 it passes: reading-dependent
    assert norm.status.tolist() == ["fail", "fail", "pass"]
    assert set(norm.robustness) == {"reading-dependent"}


@controls("jacot2023.fig2.tripoints_shallow")
def test_fig2_ledger_wants_tripoints_shallow_and_none_deep():
    summary = pd.DataFrame(
        {
            "seed": 0,
            "depth": [2, 2, 9, 9],
            "lam": [0, 1e-3, 0, 1e-3],
            "tripoints": [3, 0, 0, 1],
            "train_accuracy": 1.0,
            "diverged": [False, False, False, True],
            "diverged_step": [-1, -1, -1, 40],
        }
    )
    rows = judged(ledger.fig2_claims(summary, shallow=2, deep=9), False)
    # the diverged network does not fit: left out, its row measures nothing
    assert rows.status.tolist() == ["pass", "fail", "pass", "inconclusive", "fail"]
    assert rows.n_excluded.tolist() == [0, 0, 0, 1, 0]
    assert rows.reproduced_value.iloc[-1] == "1 (of 4; at step 40)"
    # a misfit network is left out as the Fig. 2 study leaves it out
    misfit = judged(
        ledger.fig2_claims(summary.assign(train_accuracy=0.95), shallow=2, deep=9), False
    )
    assert "left out: 1 misfit" in misfit.reproduced_value.iloc[0]


def test_each_rank_reading_reads_its_own_rank():
    # four directions, a fifth at 5e-3, the rest float rounding of a deep product (1e-9 .. 1e-12)
    s = np.array([1.0, 0.8, 0.6, 0.5, 5e-3, 1e-9, 1e-10, 1e-11, 1e-12, 1e-12, 1e-12])
    assert rank.read_rank(s, "gap", n_values=10) == 5  # 1e-9 / 1e-10 < 5e-3 / 1e-9
    # 5e-3 over the floor 1e-6 beats 0.5 / 5e-3; raised to a floor of 1e-2, it is no gap
    assert rank.read_rank(s, "gap_above_floor", floor=1e-6) == 5
    assert rank.read_rank(s, "gap_above_floor", floor=1e-2) == 4
    exact = np.array([1.0, 0.3, 0.2, 0.1, 1e-16, 1e-17])  # rank 4 and rounding
    assert (
        rank.read_rank(exact, "gap_above_floor", floor=1e-6) == 4
    )  # the drop to the floor is a gap
    assert rank.read_rank(s, "threshold", rel_tol=1e-2) == 4
    assert rank.read_rank(s, "threshold", rel_tol=1e-3) == 5
    with pytest.raises(ValueError, match="rank rule"):
        rank.read_rank(s, "elbow")


def test_the_rank_studys_norm_trace_survives_a_killed_and_resumed_job(tmp_path, monkeypatch):
    """A job killed mid-training and resumed from its checkpoint ends with the same trace as one
    run straight through: the points traced before the kill are kept, not lost."""
    from l2relu.jacot2023 import rank_study

    task, cfg = tiny_rank_study()
    _, _, straight = rank_study.fit(task, cfg, "cpu")
    resume = tmp_path / "resume"
    _, _, resumed = killed_and_resumed(
        monkeypatch, resume, 20, lambda: rank_study.fit(task, cfg, "cpu", resume)
    )
    assert list(resumed.step.unique()) == list(range(5, 41, 5))
    pd.testing.assert_frame_equal(resumed.reset_index(drop=True), straight.reset_index(drop=True))


def small_fig2_study(**changes):
    """A Fig. 2 study config small enough to train in a test: letters, three classes, depth 3."""
    from l2relu.jacot2023 import fig2_study

    study = dict(
        family=fig2_study.Family("letters", 0.6, 0.4),
        classes=3,
        per_class=10,
        noise=0.02,
        margin=0.02,
        depth=3,
        width=8,
        lams=(0.0, 1e-3),
        seeds=(0, 1),
        grid=12,
        pads=(1.0, 2.0),
    )
    return fig2_study.StudyConfig(**study | changes)


def test_the_fig2_studys_settling_read_survives_a_job_killed_after_it(tmp_path, monkeypatch):
    """The class maps read at four fifths of the steps are kept in the resume directory: a job
    killed after that read and resumed reports the same settling share (and maps) as one run
    straight through, not an unknown one."""
    from l2relu.jacot2023 import fig2_study
    from l2relu.training import engine

    cfg = small_fig2_study(seeds=(0,))
    phases = (engine.Phase("adam", 1e-2, 50),)
    straight, straight_tripoints, straight_maps, _ = fig2_study.train(cfg, phases, "cpu")
    assert straight.moved_last_fifth.notna().all()
    resume = tmp_path / "resume"
    resumed, tripoints, maps, _ = killed_and_resumed(
        monkeypatch, resume, 40, lambda: fig2_study.train(cfg, phases, "cpu", snapshot_dir=resume)
    )
    pd.testing.assert_frame_equal(resumed, straight)
    pd.testing.assert_frame_equal(tripoints, straight_tripoints)
    assert (maps == straight_maps).all() and maps.shape == (2, 24, 24)  # 12 cells a data box
