"""Every measure behind an empirical or exact ledger row, on a known negative case: the measure
computed by the pipeline's own code, judged by the registry's criterion, fails. A measure that
passed here would hold for every output and prove nothing."""

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, judged

from l2relu import measures
from l2relu.claims import measured
from l2relu.registry import load_registry


def _status(measurements, claim_id, case=None):
    rows = judged(measurements, every_entry=False)
    rows = rows[(rows.claim_id == claim_id) & rows.primary]
    if case is not None:
        rows = rows[rows.claim.str.endswith(case)]
    return rows.status.tolist()


def _random_network(widths, rng):
    return {
        **{
            f"w{i + 1}": rng.standard_normal((o, n)) / np.sqrt(n)
            for i, (n, o) in enumerate(zip(widths[:-1], widths[1:], strict=True))
        },
        **{f"b{i + 1}": 0.1 * rng.standard_normal(o) for i, o in enumerate(widths[1:])},
    }


def test_an_untrained_jacot2022_network_has_no_rays_no_clusters_and_no_balance():
    """Fig. 1's three empirical measures on random weights and random labels."""
    from l2relu.jacot2022 import fig1, ledger

    rng = np.random.default_rng(0)
    data = {"x_train": rng.uniform(size=(42, 20)), "y_train": rng.integers(0, 3, 42)}
    arrays = _random_network((20, 50, 50, 3), rng)
    readings = _readings(ledger.RAYS)
    angles = {r.name: r.parameters["angle_deg"] for r in readings}
    cfg = fig1.ForcesConfig(eps=1e-6, ray_angle_deg=5)
    layers = fig1.analyze(arrays, data, 3, cfg, ray_angles=angles)["layers"]
    runs = pd.DataFrame({"seed": [0], "diverged": [False], "diverged_step": [-1]})
    rows = judged(ledger.fig1_claims(layers.assign(seed=0), runs, 3, list(angles)))
    assert set(rows.status[rows.claim_id == ledger.RAYS]) == {"fail"}  # under every reading
    rows = rows[rows.primary]
    status = rows.set_index(rows.claim_id + "|" + rows.claim.str[-2:]).status
    for layer in ("Z1", "Z2"):
        assert status[f"jacot2022.fig1.neurons_along_rays|{layer}"] == "fail"
        assert status[f"jacot2022.fig1.inputs_cluster_by_digit|{layer}"] == "fail"
        assert status[f"jacot2022.fig1.forces_cancel|{layer}"] == "fail"
        # weight decay balances a trained network; a random one is not balanced either
        assert status[f"jacot2022.fig1.radial_balance|{layer}"] == "fail"


def test_a_loss_that_keeps_falling_has_no_plateau_and_a_rise_of_every_trial_fails():
    """A rise of one trial alone is within the trials' spread (training noise); a rise that
    every trial shows is not."""
    from l2relu.jacot2022 import ledger

    widths = [1, 2, 4, 8, 16, 32, 64]
    curves = {
        "falling": [[10.0 / w for w in widths]] * 3,  # no plateau: a decade per 3.3 doublings
        # one trial rises at width 32 where the others go on falling: noise
        "noisy": [[1.0, 0.5, 0.2, 0.1, 0.1, 0.3, 0.1]]
        + [[1.0, 0.5, 0.2, 0.1, 0.1, 0.09, 0.08]] * 2,
        "rising": [[1.0, 0.5, 0.2, 0.1, 0.1, 0.3, 0.1]] * 3,
    }
    runs = pd.DataFrame(
        [
            {"dataset": d, "lam": 1e-3, "width": w, "trial": t, "objective": o * (1 + 0.01 * t)}
            for d, trials in curves.items()
            for t, curve in enumerate(trials)
            for w, o in zip(widths, curve, strict=True)
        ]
    ).assign(diverged=False, diverged_step=-1)
    ms = ledger.fig2_claims(runs, _readings(ledger.ONSET_FIG2))
    onset, monotone = "jacot2022.fig2.plateau_onset", "jacot2022.fig2.train_loss_nonincreasing"
    assert _status(ms, onset, "falling, lambda = 0.001") == ["fail"]
    assert _status(ms, monotone, "falling, lambda = 0.001") == ["pass"]
    assert _status(ms, monotone, "noisy, lambda = 0.001") == ["pass"]
    assert _status(ms, monotone, "rising, lambda = 0.001") == ["fail"]


def test_plateau_onsets_of_props_14_15_fail_when_the_loss_plateaus_elsewhere():
    from l2relu.jacot2022 import ledger

    def onsets(setting, n, onset):
        widths = np.arange(1, 4 * n + 2)
        return pd.DataFrame(
            {
                "setting": setting,
                "N": n,
                "seed": 0,
                "width": widths,
                "objective": np.where(widths < onset, 2.0 / widths, 0.01),
            }
        )

    losses = pd.concat([onsets("bipartite", 6, 5), onsets("onehot", 6, 5), onsets("oned", 2, 12)])
    registry = load_registry(sorted((REPO / "workflow/claims").glob("*.yaml")))
    readings, table = ledger.onset_readings(losses, registry, 3)
    ms = ledger.theory_claims(
        *_no_constructions(), readings, table[table.setting == "bipartite"], 1e-3
    )
    for claim_id in (
        "jacot2022.theory.prop14_bipartite_onset",  # 5 against >= N^2/4 = 9
        "jacot2022.theory.prop14_onehot_onset",  # 5 against 3 classes
        "jacot2022.theory.prop15_oned_onset",  # 12 against 4N = 8
        "jacot2022.theory.remark23_plateau_level",  # 0.01 / lambda = 10 against N^2 = 36
    ):
        assert _status(ms, claim_id) == ["fail"], claim_id


def _readings(claim_id):
    return load_registry(sorted((REPO / "workflow/claims").glob("*.yaml")))[claim_id].every_reading


def _no_constructions():
    """Empty tables for the constructions theory_claims reads before the onsets."""
    prop13 = pd.DataFrame(columns=["N", "edges", "triangles"])
    remark23 = pd.DataFrame(columns=["N", "width_N_norm", "width_N_error"])
    prop1 = pd.DataFrame({"relative_gap": [0.0]})
    prop19 = pd.DataFrame(
        [{"lowest_nearby": 0.0, "loss_at_point": 0.0, "samples": 1, "radius": 1e-3}]
    )
    return prop13, remark23, prop1, prop19


def test_a_random_deep_network_has_no_low_rank_middle_and_a_large_nonlinearity_impact():
    """jacot2023 Fig. 1's rank and nonlinearity measures on an untrained depth-9 network."""
    from l2relu.jacot2023 import ledger, regression

    rng = np.random.default_rng(1)
    arrays = {k: v[None] for k, v in _random_network((20, *[30] * 8, 20), rng).items()}
    x = rng.standard_normal((20, 200))
    readings = _readings(ledger.MIDDLE_RANK)
    _, layers = regression.fig1_tables(
        arrays, x, n_values=10, rank_rel_tol=0.05, rank_readings=readings
    )
    runs = pd.DataFrame(
        {
            "seed": [0],
            "loss": [1.0],
            "output_variance": [1.0],
            "norm_per_layer": [1.0],
            "diverged": [False],
            "diverged_step": [-1],
        }
    )
    rows = judged(ledger.fig1_claims(layers.assign(seed=0), runs, 4, readings))
    assert set(rows.status[rows.claim_id == ledger.MIDDLE_RANK]) == {"fail"}  # every reading
    rows = rows[rows.primary]
    status = dict(zip(rows.claim_id, rows.status, strict=True))
    assert status["jacot2023.fig1.middle_layers_rank"] == "fail"
    assert status["jacot2023.fig1.middle_nonlinearity_impact"] == "fail"
    assert status["jacot2023.fig1.norm_per_layer"] == "fail"  # 1 is not ~6
    assert status["jacot2023.fig1.fits_data"] == "fail"


def _jacobian_spectra(ranks: dict, rng) -> pd.DataFrame:
    """Spectra rows (seed 0, 3 points) of 50 x 50 Jacobians of an exact rank per model."""
    rows = []
    for model, rank_of in ranks.items():
        for point in range(3):
            j = rng.standard_normal((50, rank_of)) @ rng.standard_normal((rank_of, 50))
            s = np.linalg.svd(j, compute_uv=False)
            rows += [
                {"seed": 0, "model": model, "point": point, "index": i + 1, "ratio": v / s[0]}
                for i, v in enumerate(s)
            ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("rank_of_map", [2, 7])
def test_a_network_jacobian_of_another_rank_fails_under_every_reading(rank_of_map):
    """The ledger's own measure on Jacobians of exact rank 2 or 7 (k = 4); and a KRR Jacobian
    of rank 3 does not overestimate k under any reading."""
    from l2relu.jacot2023 import ledger
    from l2relu.jacot2023.rank import gap_rank

    rng = np.random.default_rng(rank_of_map)
    spectra = _jacobian_spectra({"krr": 3, "network": rank_of_map}, rng)
    point = spectra[(spectra.model == "network") & (spectra.point == 0)].ratio.to_numpy()
    assert gap_rank(point[:10]) == rank_of_map
    registry = load_registry(sorted((REPO / "workflow/claims").glob("*.yaml")))
    rows = judged(ledger.krr_claims(spectra, 50, 50, 4, 1e-8, registry), every_entry=False)
    assert set(rows.status[rows.claim_id == ledger.NETWORK_JACOBIAN_RANK]) == {"fail"}
    assert set(rows.status[rows.claim_id == ledger.KRR_RANK]) == {"fail"}


def test_a_depth_sweep_that_never_recovers_the_rank_fails_every_depth_claim():
    from l2relu.jacot2023 import ledger

    sweep = pd.DataFrame(
        [
            {"n_train": n, "depth": d, "seed": s, "bottleneck_rank": 4 if d == 2 else 6}
            | {"reading": r.name}
            for r in _readings(ledger.DEPTH_RANK)
            for n in (100, 500)
            for d in (2, 4, 8)
            for s in range(3)
        ]
    ).assign(diverged=False, diverged_step=-1)
    rows = judged(ledger.depth_claims(sweep, true_rank=4))
    status = rows.groupby("claim_id").status.agg(set)
    assert status["jacot2023.depth.recovering_depths"] == {"fail"}  # one depth is no range
    assert status["jacot2023.depth.range_grows_with_n"] == {"fail"}  # the same at both N
    assert status["jacot2023.depth.small_depth_overestimates"] == {"fail"}  # L = 2 reads k


def test_an_identity_autoencoder_does_not_denoise():
    from l2relu.jacot2023 import ledger

    summary = pd.DataFrame(
        [
            {"dataset": "curve", "depth": depth, "seed": 0, "input_distance": 0.8}
            | {"output_distance": 0.8, "diverged": False, "diverged_step": -1}
            for depth in (2, 8)
        ]
    )
    rows = judged(ledger.fig3_claims(summary))
    status = dict(zip(rows.claim_id, rows.status, strict=True))
    assert status["jacot2023.fig3.deep_denoises"] == "fail"
    assert status["jacot2023.fig3.deep_vs_shallow"] == "fail"


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
    assert _status(ms, "timor2022.fig1.converged_share") == ["fail"]
    assert _status(ms, "timor2022.fig1.stable_rank_bounded_away_from_1") == ["fail", "fail"]


def test_theorem_4_5_ratio_fails_for_weights_of_equal_singular_values():
    """||W||_sigma / ||W||_F is 1/sqrt(n) for an orthogonal W: below every depth's bound."""
    ratio = measures.spectral_frobenius_ratio(np.eye(12))
    assert ratio == pytest.approx(1 / np.sqrt(12))
    ms = [measured("timor2022.theory.thm4_ratio_bound", ratio, "L = 3", ref=0.689)]
    assert _status(ms, "timor2022.theory.thm4_ratio_bound") == ["fail"]


# ---- exact statements: the measure fails on a wrong construction --------------------------------


def test_timor2022_region_measures_fail_on_a_wrong_labelling():
    from l2relu.timor2022 import ledger

    side = np.linspace(-1, 1, 41)
    w1, w2 = np.meshgrid(side, side)
    table = pd.DataFrame({"w_1": w1.ravel(), "w_2": w2.ravel(), "region": "S"})
    ms = ledger.fig2(table, [1.0, 0.99], [-1.0, 0.99], extent=1.0, grid_size=41)
    assert _status(ms, "timor2022.fig2.opening_angle_s") == ["fail"]  # 2 pi, not pi - theta
    # F1 and F2 on one ray: the smallest angle between them is 0, below pi - theta
    f = pd.DataFrame({"w_1": [1.0, 2.0], "w_2": [0.0, 0.0], "F1": [True, False]})
    ms = ledger.fig3(f.assign(F2=~f.F1), [1.0, 0.99], [-1.0, 0.99], w0_norm=0.3)
    assert _status(ms, "timor2022.fig3.f_angle_lower") == ["fail"]


def test_timor2022_theorem1_loss_is_not_zero_for_a_perturbed_network():
    from l2relu.timor2022 import theory

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    w, v = theory.theorem1_network(x, y)
    assert theory.half_square_loss(w, v, x, y) < 1e-20
    loss = theory.half_square_loss(w * 1.01, v, x, y)
    ms = [measured("timor2022.theory.thm1_zero_loss", loss)]
    assert _status(ms, "timor2022.theory.thm1_zero_loss") == ["fail"]


def test_jacot2022_remark23_measures_fail_for_other_weights():
    ms = [
        measured("jacot2022.theory.remark23_width_n_norm", 16 + 4 + 1e-6, "N = 4", ref=20),
        measured("jacot2022.theory.remark23_width_n_output", 1e-3, "N = 4"),
    ]
    assert _status(ms, "jacot2022.theory.remark23_width_n_norm") == ["fail"]
    assert _status(ms, "jacot2022.theory.remark23_width_n_output") == ["fail"]


def test_chen2024_first_layer_rows_fail_for_a_map_that_truncates_nothing():
    from l2relu.chen2024 import ledger
    from l2relu.chen2024.figures import Fig1Config, fig1_tables

    points, _, notes = fig1_tables(Fig1Config(per_class=10, spread=0.1, seed=1))
    # the identity map: the cut class stays where it was, far from the base point
    untouched = points.assign(to_base=np.where(points.label == 0, 1.0, points.to_base), moved=0.0)
    ms = ledger.fig1_claims(untouched, notes)
    assert _status(ms, "chen2024.fig1.cut_class_collapsed") == ["fail"]
    assert _status(ms, "chen2024.fig1.other_classes_untouched") == ["pass"]


def test_a_rank_deficient_kernel_jacobian_is_not_full_rank():
    from l2relu.jacot2023 import ledger

    spectra = _jacobian_spectra({"krr": 20, "network": 4}, np.random.default_rng(0))
    registry = load_registry(sorted((REPO / "workflow/claims").glob("*.yaml")))
    ms = ledger.krr_claims(spectra, 50, 50, 4, exact_rel_tol=1e-8, registry=registry)
    assert _status(ms, "jacot2023.krr.krr_jacobian_full_rank") == ["fail"]  # 20, not 50
    assert _status(ms, "jacot2023.krr.network_jacobian_rank") == ["pass"]  # exactly rank 4
    # and under every reading: an exactly rank-4 spectrum reads 4 whichever way
    rows = judged(ms, every_entry=False)
    assert set(rows.status[rows.claim_id == ledger.NETWORK_JACOBIAN_RANK]) == {"pass"}
    assert set(rows.status[rows.claim_id == ledger.KRR_RANK]) == {"pass"}  # 20 > 4


def test_the_fig1_study_finds_no_rays_in_random_neurons():
    """Random neuron directions are not on rays, in the full space or in the figure's plane."""
    from l2relu.jacot2022 import fig1_study

    rng = np.random.default_rng(1)
    scores = [
        fig1_study.layer_scores(rng.standard_normal((50, 42)), n_rays=3, ray_angles={"5": 5})
        for _ in range(3)
    ]
    for key in ("mass_on_ray", "mass_on_ray_plane"):
        assert max(s[key] for s in scores) < 0.5


def _relu_net(weights, biases):
    """A one-network BatchedMLP with the given layers (input layer first)."""
    import torch

    from l2relu.engine import BatchedMLP

    return BatchedMLP.from_weights(
        [torch.tensor(w, dtype=torch.float64)[None] for w in weights],
        [torch.tensor(b, dtype=torch.float64)[None] for b in biases],
        bias=True,
    )


def test_the_fig3_study_reads_a_projection_and_not_the_identity():
    """An identity autoencoder (x = relu(x) - relu(-x)) has s2/s1 = 1 at every point and moves
    no input; a projection on a line has s2/s1 = 0; the study's rows fail the identity."""
    import torch

    from l2relu.jacot2023 import autoencoders, ledger

    split = np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])
    identity = _relu_net([split, [[1, -1, 0, 0], [0, 0, 1, -1]]], [np.zeros(4), np.zeros(2)])
    onto_x = _relu_net([split, [[1, -1, 0, 0], [0, 0, 0, 0]]], [np.zeros(4), np.zeros(2)])
    x = torch.tensor(np.random.default_rng(0).normal(size=(1, 2, 30)))
    assert autoencoders.jacobian_ratio(identity, x) == pytest.approx([1.0])
    assert autoencoders.jacobian_ratio(onto_x, x) == pytest.approx([0.0])
    curves = pd.DataFrame(
        [
            {"depth": depth, "curve": c, "seed": s, "input_distance": 0.8, "output_distance": 0.8}
            | {"jacobian_ratio": 1.0, "norm_per_layer": 1.0, "objective": 1.0}
            | {"objective_before_last_phase": 1.0}
            for depth in (2, 8)
            for c in range(2)
            for s in range(2)
        ]
    )
    mnist = pd.DataFrame(
        [
            {"depth": depth, "seed": s, "loss": 1.0, "noise_share": 1.0, "jacobian_rank": 784}
            | {"pca_noise_share": 0.1, "objective": 1.0, "objective_before_last_phase": 1.0}
            for depth in (2, 6)
            for s in range(2)
        ]
    )
    rows = judged(ledger.fig3_study_claims(curves, mnist, shallow=2, deep_from=8))
    status = dict(zip(rows.claim_id, rows.status, strict=True))
    assert status["jacot2023.fig3study.deep_denoises"] == "fail"
    assert status["jacot2023.fig3study.deep_vs_shallow"] == "fail"
    assert status["jacot2023.fig3study.deep_jacobian_rank_one"] == "fail"
    assert status["jacot2023.fig3study.mnist_noise_like_projection"] == "fail"
    assert status["jacot2023.fig3study.shallow_does_not_denoise"] == "pass"  # it is the identity
    assert status["jacot2023.fig3study.converged"] == "pass"


def test_pca_noise_share_keeps_noise_in_the_span_and_drops_the_rest():
    from l2relu.jacot2023.fig3_study import pca_noise_share

    rng = np.random.default_rng(0)
    train = np.zeros((50, 5))
    train[:, :2] = rng.normal(size=(50, 2))  # the training images span the first 2 pixels
    inside, outside = np.eye(5)[:2], np.eye(5)[2:]
    assert pca_noise_share(train, inside, 2) == pytest.approx(1.0)
    assert pca_noise_share(train, outside, 2) == pytest.approx(0.0, abs=1e-12)


def test_the_fig2_study_leaves_out_networks_that_misfit_and_reads_nothing_where_none_fits():
    from l2relu.jacot2023 import ledger

    networks = pd.DataFrame(
        [
            {"family": "bands", "depth": depth, "seed": s, "lam": 0.0, "diverged": False}
            | {"train_accuracy": 1.0 if s < 3 or depth == 2 else 0.9}
            | {"tripoints_box": 0 if depth == 2 else 3, "tripoints_padded": 4 if depth == 2 else 0}
            for depth in (2, 9)
            for s in range(4)
        ]
    )
    rows = judged(ledger.fig2_study_claims(networks, shallow=2, deep=9, pad=1.5))
    status = dict(zip(rows.index, rows.status, strict=True))
    # no tripoint in the data's box at depth 2, 3 in the deep maps that fit: both fail
    assert (
        status["jacot2023.fig2study.tripoints_shallow|bands, data box, L = 2, lambda = 0"] == "fail"
    )
    assert status["jacot2023.fig2study.tripoints_deep|bands, data box, L = 9, lambda = 0"] == "fail"
    assert (
        status["jacot2023.fig2study.tripoints_shallow|bands, 1.5x box, L = 2, lambda = 0"] == "pass"
    )
    deep = rows.loc["jacot2023.fig2study.tripoints_deep|bands, 1.5x box, L = 9, lambda = 0"]
    assert (deep.n_seeds, deep.n_excluded) == (4, 1)
    assert "left out: 1 misfit" in deep.reproduced_value
    none_fit = networks.assign(train_accuracy=0.5)
    rows = judged(ledger.fig2_study_claims(none_fit, shallow=2, deep=9, pad=1.5))
    # no network to measure is no verdict
    assert set(rows.status) == {"inconclusive"} and set(rows.n_seeds) == {4}
    assert set(rows.n_excluded) == {4}
