"""The whole workflow at smoke scale, in temporary copies of the repository."""

import filecmp
import re
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO, registered_targets, snakemake

from l2relu import claims, reference
from l2relu.registry import load_registry

pytestmark = pytest.mark.e2e

TARGETS = registered_targets()
# every registered target, the opt-in studies too, so that each is built and in the ledger
EVERY_TARGET = "every_target.yaml"
BUILD_SECONDS = []  # wall time of each build, for the reference's provenance
SMOKE = ["--configfile", "config/smoke.yaml", EVERY_TARGET]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Two independent clean smoke builds of every target."""
    from conftest import copy_workflow

    trees = []
    for name in ("first", "second"):
        tree = copy_workflow(tmp_path_factory.mktemp(name))
        (tree / EVERY_TARGET).write_text(yaml.safe_dump({"targets": TARGETS}))
        start = time.perf_counter()
        snakemake(tree, "--cores", "2", *SMOKE)
        BUILD_SECONDS.append(time.perf_counter() - start)
        trees.append(tree)
    return trees


def test_every_target_has_its_figures_notebook_and_claims(built):
    tree = built[0]
    ledger = pd.read_csv(tree / "results/claims.csv")
    assert list(ledger.columns) == claims.COLUMNS
    assert set(ledger.status) <= {"pass", "mixed", "fail"}
    # every registry entry produced its row, and every row has an entry
    registry = load_registry(sorted((tree / "workflow/claims").glob("*.yaml")))
    assert set(ledger.claim_id) == set(registry)
    assert (ledger.kind == ledger.claim_id.map(lambda c: registry[c].kind)).all()
    empirical = ledger[ledger.kind == "empirical"]
    # the smoke scale's seeds; a study leaves out networks that collapse or do not fit
    studies = empirical.target.str.endswith("_study")
    assert (empirical[~studies].n_seeds == 2).all()
    assert empirical[studies].n_seeds.between(1, 2).all()
    for target in TARGETS:
        for ext in ("pdf", "png"):
            assert (tree / f"figures/{target}.{ext}").stat().st_size > 5_000
        assert (tree / f"results/notebooks/{target}.ipynb").exists()
        assert (ledger.target == target).sum() >= 3
    assert "**Empirical claims**" in (tree / "results/claims.md").read_text()
    converged = ledger[ledger.claim_id == "timor2022.fig1.converged_share"]
    assert set(converged.claim.str.split(", ").str[-1]) == {"paper_text", "author_code"}


def test_training_logs_report_progress(built):
    logs = list((built[0] / "logs/timor2022/fig1").glob("*/w2_d2_lam0_*.log"))
    assert len(logs) == 2
    for log in logs:
        text = log.read_text()
        assert "[gd step" in text and "elapsed" in text and "converged" in text


def test_two_clean_builds_give_byte_identical_tables_ledger_and_figures(built):
    first, second = built
    tables = sorted(p.relative_to(first) for p in (first / "results").rglob("*.csv"))
    assert len(tables) >= 10 and Path("results/claims.csv") in tables
    figures = sorted(p.relative_to(first) for p in (first / "figures").iterdir())
    assert len(figures) == 2 * len(TARGETS)
    for rel in tables + figures:  # PDFs carry no creation date, PNGs no timestamp
        assert filecmp.cmp(first / rel, second / rel, shallow=False), rel


def test_a_built_tree_is_up_to_date(built):
    proc = snakemake(built[0], "-n", *SMOKE)
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_report_shows_every_figure(built, tmp_path):
    report = built[0] / "report.html"
    snakemake(built[0], "--report", str(report), *SMOKE)
    assert report.stat().st_size > 10_000


def test_one_figure_rebuilds_only_what_it_needs(workflow_copy):
    proc = snakemake(workflow_copy, "timor2022_fig2", "-n", "--configfile", "config/smoke.yaml")
    jobs = proc.stdout + proc.stderr
    assert "compute_timor2022_fig2_regions" in jobs
    assert "execute_timor2022_fig2_notebook" in jobs
    for other in ("train_timor2022_fig1", "train_timor2022_deep", "compute_timor2022_fig3"):
        assert other not in jobs


def test_every_target_rule_is_described(workflow_copy):
    listed = snakemake(workflow_copy, "--list-rules").stdout
    described = dict(re.findall(r"^(\w+) \((.+)\)$", listed, flags=re.MULTILINE))
    for target in TARGETS:
        assert target in described, f"{target} has no description in --list-rules"
        assert described[target].startswith(target.split("_")[0]), described[target]


def test_an_unknown_target_is_refused(workflow_copy):
    proc = snakemake(workflow_copy, "-n", "timor2022_fig9", check=False)
    assert proc.returncode != 0


def test_the_smoke_ledger_matches_its_reference(built, request):
    """compare_reference against reference/smoke: an unintended change of a result fails here.
    An intended one is saved by `pytest -m e2e --update-reference tests/test_workflow_e2e.py`,
    which rewrites reference/smoke/ (ledger and provenance) for the same commit."""
    tree = built[0]
    if request.config.getoption("--update-reference"):
        saved = reference.save(
            tree / "results/claims.csv",
            REPO / "reference/smoke",
            BUILD_SECONDS[0],
            ["config/smoke.yaml", f"{EVERY_TARGET} (targets: every registered target)"],
        )
        pytest.skip(f"reference saved: {saved}")
    snakemake(tree, "--cores", "1", "compare_reference", *SMOKE)
    diff = pd.read_csv(tree / "results/compare_reference.csv")
    assert diff.empty, diff.to_string()
