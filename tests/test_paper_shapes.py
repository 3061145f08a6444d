"""The paper scale's DAG, every job at its paper shape with its steps cut
(config/paper_shapes.yaml over config/paper.yaml): every job, notebook and ledger row is made.
The ledger's values are not checked: a few steps of training say nothing."""

import subprocess
import sys

import pandas as pd
import pytest
import yaml
from conftest import PAPER_SHAPES, REPO, registered_targets, snakemake, training_rules

from l2relu.startup.configcheck import overlay

pytestmark = pytest.mark.e2e

OVERLAYS = PAPER_SHAPES[1:]
# the keys that count steps (and polishing iterations): the only ones the overlay may set
STEP_KEYS = {"steps", "adam_steps", "gd_steps", "gd_adam_steps", "log_every", "polish_iterations"}


def _leaves(tree, path=()):
    for key, value in tree.items():
        if isinstance(value, dict):
            yield from _leaves(value, (*path, key))
        else:
            yield (*path, key), value


def _at(config, path):
    for key in path:
        config = config[key]
    return config


def test_the_overlay_cuts_every_step_count_and_nothing_else():
    paper = overlay(
        yaml.safe_load((REPO / "config/config.yaml").read_text()),
        yaml.safe_load((REPO / OVERLAYS[0]).read_text()),
    )
    shapes = yaml.safe_load((REPO / OVERLAYS[1]).read_text())
    counts = {p for p, _ in _leaves(paper) if p[-1] in STEP_KEYS | {"phases", "schedules"}}
    assert counts - {p for p, _ in _leaves(shapes)} == set()
    for path, value in _leaves(shapes):
        if path == ("scale",):
            continue
        if path[-1] in ("phases", "schedules"):  # the same optimizers and rates, fewer steps
            theirs = _at(paper, path)
            assert [(p.get("optimizer"), p["lr"]) for p in value] == [
                (p.get("optimizer"), p["lr"]) for p in theirs
            ], path
            assert all(0 < p["steps"] <= q["steps"] for p, q in zip(value, theirs, strict=True))
        else:
            assert path[-1] in STEP_KEYS, path
            assert 0 < value <= _at(paper, path), path


@pytest.fixture(scope="module")
def paper_shapes_tree(paper_shapes_build):
    """The paper DAG (the configured targets: the opt-in studies are not the papers' scale)
    built at paper shapes: conftest.paper_shapes_build, started with the session."""
    return paper_shapes_build.wait(timeout=3600), PAPER_SHAPES


def _paper_targets():
    return [t for t in registered_targets() if not t.endswith("_study")]


def test_every_paper_shaped_job_notebook_and_row_is_made(paper_shapes_tree):
    tree, args = paper_shapes_tree
    ledger = pd.read_csv(tree / "results/claims.csv")
    for target in _paper_targets():
        assert (tree / f"figures/{target}.png").stat().st_size > 5_000, target
        assert (tree / f"results/notebooks/{target}.ipynb").exists(), target
        assert (ledger.target == target).any(), target
    assert (ledger[ledger.kind == "empirical"].n_seeds >= 1).all()
    report = tree / "report.html"
    snakemake(tree, "--report", str(report), *args)
    assert report.stat().st_size > 10_000


def test_every_training_rule_is_measured_at_paper_shape(paper_shapes_tree):
    """Each training rule of the paper DAG left a benchmark and a log with its step rate,
    which benchmarks/measure_resources.py reads; workflow/resources.yaml has every training
    rule (the studies' were measured once at their shapes over paper.yaml)."""
    tree, _ = paper_shapes_tree
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks/measure_resources.py"), str(tree)],
        capture_output=True,
        text=True,
        check=True,
    )
    measured = {line.split()[0] for line in proc.stdout.splitlines()[1:]}
    rules = set(training_rules())
    assert measured == {
        rule for rule in rules if not rule.endswith("_study") and "_study_" not in rule
    }
    table = yaml.safe_load((REPO / "workflow/resources.yaml").read_text())["rules"]
    assert set(table) == rules
