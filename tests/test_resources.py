"""Each training rule's measured resources and benchmark are its own."""

import re

import yaml
from conftest import REPO, training_rules


def test_every_training_and_polishing_rule_is_written_by_training_rule():
    """training_rule (common.smk) names a rule's benchmark and resources by the rule, so that
    none can borrow another's (each rule's steps are its experiment's: test_experiments.py)."""
    for path in (REPO / "workflow/rules").rglob("*.smk"):
        assert not re.search(r"(?m)^rule (train|polish)_", path.read_text()), path
    assert len(training_rules()) >= 15


def test_the_steps_a_job_asks_for_are_the_steps_its_training_runs():
    """Where a rule's training builds its phases in code, the steps asked for are theirs, for
    every seed the job trains in turn (the plateau sweep once asked for one phase of three: its
    paper-scale jobs ran past the ask)."""
    from l2relu.jacot2022 import theory
    from l2relu.startup.configcheck import overlay
    from l2relu.startup.experiments import steps_per_job

    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    paper = overlay(config, yaml.safe_load((REPO / "config/paper.yaml").read_text()))
    phases = theory.plateau_phases(paper["jacot2022"]["theory"]["steps"])
    seeds = paper["seeds"]
    assert steps_per_job(paper)["train_jacot2022_plateau"] == seeds * sum(p.steps for p in phases)


def test_the_measured_table_covers_every_training_rule_and_only_them():
    table = yaml.safe_load((REPO / "workflow/resources.yaml").read_text())
    assert set(table["rules"]) == set(training_rules())
    for name, m in table["rules"].items():
        assert m["peak_mb"] > 0 and m["startup_s"] > 0 and m["step_s"] > 0, name


def test_a_job_asks_for_the_measure_times_the_margin_and_more_on_a_retry():
    from l2relu.startup.resources import asked

    measured = {"peak_mb": 1000, "startup_s": 30, "step_s": 0.01}
    assert asked(measured, 3000, 1.5, 2.0, attempt=1) == (1500, 2)  # (30 + 30) s x 2 = 2 min
    mem2, minutes2 = asked(measured, 3000, 1.5, 2.0, attempt=2)
    assert (mem2, minutes2) == (3000, 4)
    # more steps, more time; memory does not depend on steps
    assert asked(measured, 300_000, 1.5, 2.0, 1) == (1500, 101)


def test_the_dry_run_asks_each_training_job_for_its_measured_resources():
    from conftest import snakemake

    from l2relu.startup.resources import asked

    proc = snakemake(REPO, "-n", "-F", "jacot2023_fig1", "--configfile", "config/paper.yaml")
    out = proc.stdout + proc.stderr
    block = out[out.index("rule train_jacot2023_fig1:") :]
    mem, minutes = (
        int(re.search(rf"\b{key}=(\d+)", block).group(1)) for key in ("mem_mb", "runtime")
    )
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())["resources"]
    paper = yaml.safe_load((REPO / "config/paper.yaml").read_text())["jacot2023"]["fig1"]
    measured = yaml.safe_load((REPO / "workflow/resources.yaml").read_text())["rules"]
    steps = sum(p["steps"] for p in paper["phases"])  # the paper's 60k
    assert steps == 60_000
    margins = config["memory_margin"], config["runtime_margin"]
    expected = asked(measured["train_jacot2023_fig1"], steps, *margins, 1)
    assert (mem, minutes) == expected
