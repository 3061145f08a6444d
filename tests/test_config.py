"""Every bad value is named in one line with its dotted key (the schema side of the bad-input
catalogue; tests/test_bad_inputs.py runs the catalogue through Snakemake)."""

import pytest
import yaml
from conftest import REPO

from l2relu.startup import configcheck
from l2relu.startup.configcheck import explain

SCHEMA = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())


def load(name):
    return yaml.safe_load((REPO / "config" / name).read_text())


def merged(changes):
    return configcheck.overlay(load("config.yaml"), changes)


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
        ({"targets": ["Timor2022 fig1"]}, "targets.0", "does not match"),
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
