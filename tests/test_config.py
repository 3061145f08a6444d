"""A bad config fails before any job runs, with one line naming the key; nothing is written."""

import pytest
import yaml
from conftest import REPO, snakemake

from l2relu.configcheck import explain

SCHEMA = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())


def load(name):
    return yaml.safe_load((REPO / "config" / name).read_text())


def merged(overlay):
    config = load("config.yaml")

    def update(base, new):
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                update(base[key], value)
            else:
                base[key] = value

    update(config, overlay)
    return config


@pytest.mark.parametrize("overlay", [{}, load("smoke.yaml"), load("paper.yaml")])
def test_the_three_scales_are_valid(overlay):
    assert explain(merged(overlay), SCHEMA) is None


@pytest.mark.parametrize(
    "overlay, key, words",
    [
        ({"lamda": 0.1}, "(top level)", "'lamda'"),
        ({"timor2022": {"fig1": {"lr": -1}}}, "timor2022.fig1.lr", "minimum"),
        ({"timor2022": {"fig1": {"variant": "paper"}}}, "timor2022.fig1.variant", "paper"),
        ({"timor2022": {"fig1": {"n_runs": 0}}}, "timor2022.fig1.n_runs", "minimum"),
        ({"timor2022": {"theory": {"deep": {"depths": [2, 4]}}}}, "depths.0", "minimum"),
        ({"timor2022": {"theory": {"deep": {"lam_theorem4": -1e-3}}}}, "lam_theorem4", "minimum"),
        ({"timor2022": {"theory": {"deep": {"lamda": 1.0}}}}, "timor2022.theory.deep", "'lamda'"),
        ({"timor2022": {"fig1": {"first_seed": -1}}}, "timor2022.fig1.first_seed", "minimum"),
        ({"targets": ["timor2022_fig9"]}, "targets.0", "timor2022_fig9"),
        ({"jacot2022": {"theory": {"bipartite_N": [5]}}}, "bipartite_N", "multiple of 2"),
        ({"jacot2022": {"fig2": {"widths": [0, 4]}}}, "jacot2022.fig2.widths.0", "minimum"),
        ({"jacot2022": {"fig2": {"widths": []}}}, "jacot2022.fig2.widths", "short"),
        ({"jacot2022": {"fig2": {"mnist": {"widths": [3]}}}}, "jacot2022.fig2.mnist", "widths"),
        ({"jacot2022": {"data": {"mnist_source": "web"}}}, "mnist_source", "web"),
        ({"jacot2022": {"theory": {"oned_N": []}}}, "jacot2022.theory.oned_N", "empty"),
        ({"jacot2022": {"theory": {"onehot_N": [0]}}}, "onehot_N.0", "minimum"),
        ({"jacot2022": {"theory": {"prop19": {"reduction": "avg"}}}}, "reduction", "avg"),
        ({"jacot2022": {"fig1": {"digits": [7, 10]}}}, "jacot2022.fig1.digits.1", "maximum"),
        ({"jacot2022": {"fig1": {"digits": [7, 7]}}}, "jacot2022.fig1.digits", "non-unique"),
        ({"jacot2022": {"fig1": {"width": 0}}}, "jacot2022.fig1.width", "minimum"),
        ({"chen2024": {"theory": {"spread": 0.25}}}, "chen2024.theory.spread", "maximum"),
        ({"chen2024": {"theory": {"dims": [[5]]}}}, "chen2024.theory.dims.0", "short"),
        ({"chen2024": {"theory": {"per_class": []}}}, "chen2024.theory.per_class", "non-empty"),
        ({"jacot2023": {"fig1": {"depth": 1}}}, "jacot2023.fig1.depth", "minimum"),
        ({"jacot2023": {"depth": {"depths": [1, 4]}}}, "jacot2023.depth.depths.0", "minimum"),
        ({"jacot2023": {"fig1": {"n_train": 0}}}, "jacot2023.fig1.n_train", "minimum"),
        ({"jacot2023": {"depth": {"n_train": [100, -5]}}}, "jacot2023.depth.n_train.1", "minimum"),
        ({"jacot2023": {"fig2": {"shape": "zigzag"}}}, "jacot2023.fig2.shape", "zigzag"),
        (
            {"jacot2023": {"fig3": {"curve": {"deep": {"depth": 1, "width": 9}}}}},
            "deep.depth",
            "minimum",
        ),
        (
            {"jacot2023": {"fig1": {"phases": [{"optimizer": "sgd", "lr": 1, "steps": 1}]}}},
            "jacot2023.fig1.phases.0.optimizer",
            "sgd",
        ),
    ],
)
def test_bad_values_are_named(overlay, key, words):
    message = explain(merged(overlay), SCHEMA)
    assert message is not None and key in message and words in message
    assert "\n" not in message


def test_a_typo_fails_before_any_job_and_writes_nothing(workflow_copy):
    proc = snakemake(workflow_copy, "-n", "--config", "lamda=0.1", check=False)
    assert proc.returncode != 0
    assert "unknown key(s) 'lamda'" in proc.stdout + proc.stderr
    assert not (workflow_copy / "results").exists()


@pytest.mark.parametrize(
    "overlay, words",
    [
        (
            "jacot2022:\n  data:\n    mnist_source: idx\n    mnist_idx_dir: /nowhere\n",
            "missing MNIST file",
        ),
        ("jacot2022:\n  data:\n    mnist_source: idx\n", "mnist_idx_dir: needed"),
        ("jacot2022:\n  fig2:\n    mnist:\n      n_train: 4500\n", "embedded set has 500"),
        ("jacot2022:\n  fig1:\n    n_train: 3000\n", "jacot2022.fig1: n_train + n_test need 1000"),
        # cross-field checks the schema cannot express
        ("timor2022:\n  theory:\n    deep:\n      width: 2\n", "timor2022.theory.deep.width"),
        ("chen2024:\n  theory:\n    dims: [[5, 3], [3, 4]]\n", "dims: [3, 4] has Q > M"),
        ("jacot2023:\n  task:\n    true_rank: 16\n", "true_rank: 16 is larger than the latent"),
        ("jacot2023:\n  fig2:\n    deep_depth: 2\n", "jacot2023.fig2.deep_depth: must be larger"),
    ],
)
def test_start_up_problems_stop_the_workflow(workflow_copy, tmp_path, overlay, words):
    bad = tmp_path / "bad.yaml"
    bad.write_text(overlay)
    proc = snakemake(workflow_copy, "-n", "--configfile", str(bad), check=False)
    assert proc.returncode != 0 and words in proc.stdout + proc.stderr
    assert not (workflow_copy / "results").exists()
