"""The whole workflow at smoke scale, in temporary copies of the repository."""

import filecmp
import os
import re
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO, registered_targets, snakemake

from l2relu.ledger import claims, reference, verdict
from l2relu.ledger.registry import load_registry, registry_files

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
    assert set(ledger.status) <= set(claims.STATUSES)
    # every registry entry produced its row, and every row has an entry
    registry = load_registry(registry_files(tree / "workflow/claims"))
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
    assert "**Empirical claims (" in (tree / "results/claims.md").read_text()
    converged = ledger[ledger.claim_id == "timor2022.fig1.converged_share"]
    assert set(converged.claim.str.split(", ").str[-1]) == {"paper_text", "author_code"}


def test_each_notebook_ends_on_its_figure_words_rows_and_reading(built):
    import json

    tree = built[0]
    ledger = pd.read_csv(tree / "results/claims.csv")
    for target in TARGETS:
        notebook = json.loads((tree / f"results/notebooks/{target}.ipynb").read_text())
        outputs = [o.get("data", {}) for c in notebook["cells"] for o in c.get("outputs", [])]
        assert any("image/png" in o for o in outputs), f"{target}: no figure inline"
        (analysis,) = ["".join(o["text/markdown"]) for o in outputs if "text/markdown" in o]
        assert analysis.index("The paper's words") < analysis.index("The ledger rows")
        rows = ledger[ledger.target == target]
        for claim_id in rows.claim_id.unique():
            assert claim_id in analysis, (target, claim_id)
        # counted at each claim's primary reading
        assert f"Of this target's {len(claims.primary(rows))} ledger rows" in analysis


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


# Run in the report once it has drawn: where the verdict table lies on the first screen, and
# whether anything covers it; then, optionally, open one result's view as a click would.
_PROBE = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const table = document.querySelector("#replication-report-the-verdict table");
  const r = table.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  document.body.dataset.verdict = JSON.stringify({top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, width: innerWidth, height: innerHeight, covered: !table.contains(hit)});
  OPEN
}, 1000));
</script>"""


def _chromium():
    import shutil

    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = "Debian's chromium is needed to render the report (.ci/run installs it)"
        pytest.fail(message) if os.environ.get("CI", "").lower() in ("1", "true") else pytest.skip(
            message
        )
    return found


def _render(report: Path, tmp_path: Path, open_js: str = "") -> tuple[str, dict]:
    """The report as headless Chromium draws it on a 1280 x 800 screen: its visible text (the
    DOM once the scripts ran, scripts and styles stripped) and the probe's reading."""
    import json
    import subprocess

    html = report.read_text()
    page = tmp_path / f"probed_{len(open_js)}.html"
    at = html.rindex("</body>")
    page.write_text(html[:at] + _PROBE.replace("OPEN", open_js) + html[at:])
    dom = subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1280,800",
            "--virtual-time-budget=15000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    probe = json.loads(re.search(r'data-verdict="([^"]*)"', dom).group(1).replace("&quot;", '"'))
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    text = " ".join(re.sub(r"<[^>]+>", " ", dom).split()).replace("&lt;", "<").replace("&gt;", ">")
    return text.replace("&amp;", "&"), probe


def test_the_report_opens_on_the_verdict_and_shows_each_figure_with_its_rows(built, tmp_path):
    tree = built[0]
    report = tree / "report.html"
    snakemake(tree, "--report", str(report), *SMOKE)
    ledger = pd.read_csv(tree / "results/claims.csv", dtype=str, keep_default_na=False)
    text, probe = _render(report, tmp_path)
    # the landing page opens on the verdict: its counts, whole and uncovered on the first screen
    assert "Replication report: the verdict" in text
    for paper_row in verdict.verdict_counts(ledger):
        assert " ".join(paper_row) in text, paper_row
    assert 0 <= probe["top"] < probe["bottom"] <= probe["height"], probe
    assert 0 <= probe["left"] < probe["right"] <= probe["width"], probe
    assert not probe["covered"], probe
    # every figure is in the report, named by the paper's figure
    html = report.read_text()
    for target in TARGETS:
        assert f"figures/{target}.png" in html
    # a figure's view: its caption ends with its own ledger rows
    rows = ledger[ledger.target == "timor2022_fig1"]
    shown, _ = _render(report, tmp_path, "app.showResultInfo('figures/timor2022_fig1.png');")
    assert "Ledger rows" in shown
    for r in rows.itertuples():
        assert f"{r.status} ({verdict.held(r)} seeds) {r.claim}" in shown, r.claim


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
