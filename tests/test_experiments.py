"""Each experiment is declared once (l2relu.<paper>.experiments), and what is derived from the
declarations agrees with the rules and the config they describe."""

import re

import pytest
import yaml
from conftest import REPO, copy_workflow, registered_targets, rule_scripts, snakemake

from l2relu.startup.experiment import Training, polishing
from l2relu.startup.experiments import (
    EXPERIMENTS,
    config_problem,
    experiments,
    steps_per_job,
    training_jobs,
)

CONFIG = yaml.safe_load((REPO / "config/config.yaml").read_text())
# how the rules files name a paper's config section: config["<paper>"]["<section>"], or through
# the paper's alias (J23 = config["jacot2023"], TIMOR = config["timor2022"])
ALIASES = {"J23": "jacot2023", "TIMOR": "timor2022"}
SECTION = re.compile(r'(?:config\["(\w+)"\]|\b(J23|TIMOR))\["(\w+)"\]')


def _rules_file_of(target: str):
    """The rules file that registers `target`."""
    for path in sorted((REPO / "workflow/rules").rglob("*.smk")):
        if re.search(rf'register_target\(\s*"{target}"', path.read_text()):
            return path
    raise AssertionError(f"{target} is not registered")


def test_the_declared_experiments_are_the_registered_targets():
    assert sorted(e.target for e in experiments()) == sorted(registered_targets())
    assert all(e.target.startswith(paper) for paper, es in EXPERIMENTS.items() for e in es)


def test_every_config_section_of_a_paper_is_read_by_a_declared_experiment():
    for paper, declared in EXPERIMENTS.items():
        assert {s for e in declared for s in e.sections} == set(CONFIG[paper]), paper


def test_each_rules_file_reads_only_the_sections_its_experiments_declare():
    """A rules file's config reads are the sections its registered targets declare; the
    reading finds a read that is not declared."""
    declared = {}
    for e in experiments():
        paper = e.target.split("_")[0]
        declared.setdefault(_rules_file_of(e.target), set()).update((paper, s) for s in e.sections)
    for path, sections in declared.items():
        reads = {(p or ALIASES[a], s) for p, a, s in SECTION.findall(path.read_text())}
        assert reads and reads <= sections, (path, reads - sections)
    assert SECTION.findall('J23["fig3"] + config["jacot2022"]["fig2"]') == [
        ("", "J23", "fig3"),
        ("jacot2022", "", "fig2"),
    ]


def test_each_training_and_polishing_rule_is_declared_once_beside_its_target():
    """Every train_* and polish_* rule has one declaration, in the experiment whose target is
    registered in the rules file that writes the rule; the trainings' resources are measured,
    the polishings' are not."""
    declared = [(t, e.target) for e in experiments() for t in e.trainings]
    written = [r for r in rule_scripts() if r.startswith(("train_", "polish_"))]
    assert sorted(t.rule for t, _ in declared) == sorted(written)
    assert len(written) >= 30
    for training, target in declared:
        rule = training.rule
        assert training.measured == rule.startswith("train_")
        assert re.search(
            rf'^training_rule\(\n    "{rule}",', _rules_file_of(target).read_text(), re.M
        )


@pytest.mark.parametrize("scale", ["smoke", "paper", "paper_shapes"])
def test_a_rule_with_declared_jobs_asks_for_its_longest_job(scale):
    from l2relu.startup.configcheck import overlay

    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    config = overlay(config, yaml.safe_load((REPO / f"config/{scale}.yaml").read_text()))
    steps = steps_per_job(config)
    attributed = training_jobs(config)
    for e in experiments():
        for t in e.trainings:
            if t.jobs is not None:
                jobs = t.jobs(config)
                assert steps[t.rule] == max(job.steps for job in jobs) > 0
                # training_jobs names each job's rule and target from its declaration
                mine = [job for job in attributed if job.rule == t.rule]
                assert [job.name for job in mine] == [job.name for job in jobs]
                assert {job.target for job in mine} == {e.target}


def test_a_training_declares_its_jobs_or_its_steps():
    with pytest.raises(ValueError, match="jobs or its steps"):
        Training("train_x")
    with pytest.raises(ValueError, match="jobs or its steps"):
        Training("train_x", jobs=lambda c: [], steps=lambda c: 1)
    assert not Training("polish_x").measured


def test_a_polishing_passes_its_sections_iterations_after_its_own_parameters():
    section = {"polish_iterations": 7, "seed": 3}
    declared = polishing(
        "polish_x", lambda c: c["s"], lambda c, reading: {"seeds": [c["s"]["seed"]]}
    )
    params = declared.params({"s": section}, None)
    assert list(params.items()) == [("seeds", [3]), ("iterations", 7)]


def test_a_training_rule_no_experiment_declares_stops_the_workflow(tmp_path):
    """The rules take a training rule's parameters only from its declaration: a rule written
    without one stops the workflow at start-up, naming it."""
    tree = copy_workflow(tmp_path)
    rules = tree / "workflow/rules/chen2024.smk"
    rules.write_text(
        rules.read_text().replace(
            'training_rule(\n    "train_chen2024_gd",', 'training_rule(\n    "train_chen2024_sgd",'
        )
    )
    proc = snakemake(tree, "-n", "--cores", "1", check=False)
    assert proc.returncode != 0
    assert "train_chen2024_sgd: no experiment declares it" in proc.stdout + proc.stderr


def test_the_cross_field_checks_are_the_experiments_and_pass_on_the_default():
    import copy

    assert config_problem(CONFIG) is None
    bad = copy.deepcopy(CONFIG)
    bad["jacot2023"]["task"]["true_rank"] = bad["jacot2023"]["task"]["latent"] + 1
    assert config_problem(bad).startswith("config key jacot2023.task.true_rank:")
    bad = copy.deepcopy(CONFIG)
    bad["timor2022"]["theory"]["deep"]["width"] = bad["timor2022"]["theory"]["teacher"]["width"] - 1
    assert config_problem(bad).startswith("config key timor2022.theory.deep.width:")
