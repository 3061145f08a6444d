"""The README is one screen that states the verdict as the default reference ledger has it, and
links only to pages that exist."""

import re

from conftest import REPO

from l2relu.ledger import coverage, verdict
from l2relu.ledger import docs as generated_docs
from l2relu.ledger.registry import load_registry, registry_files

README = (REPO / "README.md").read_text()


def test_the_readme_is_one_screen():
    assert len(README.splitlines()) <= 160


def _registry():
    return load_registry(registry_files(REPO / "workflow/claims"))


def test_the_readmes_verdict_is_the_default_reference_ledgers():
    written, generated = generated_docs.current(REPO)
    assert written == generated, (
        "python -m l2relu.ledger.docs rewrites it from the reference ledger"
    )
    counts = verdict.verdict_counts(generated_docs.default_rows(REPO))
    assert verdict.md_table(verdict.VERDICT_HEADER, counts)[2] in README


def test_the_readmes_verdict_sees_a_changed_status_and_lists_a_claim_that_fails():
    ledger = generated_docs.default_rows(REPO)
    chosen = ledger.index[(ledger.kind == "empirical") & (ledger.status == "pass")][0]
    claim_id = ledger.claim_id[chosen]
    assert f"[`{claim_id}`]" not in README
    ledger.loc[chosen, "status"] = "fail"
    items = coverage.load_coverage(REPO / "workflow/claims/coverage.yaml")
    changed = generated_docs.section(ledger, _registry(), items)
    assert changed not in README
    assert f"[`{claim_id}`]" in changed and "failed in 1 case" in changed


def test_the_readmes_verdict_leaves_out_checks_and_passing_claims():
    """...and claims whose every row cannot fail: they are not a result either way."""
    lines = generated_docs.not_replicated(generated_docs.default_rows(REPO), _registry())
    listed = {line.split("`")[1] for line in lines}
    rows = verdict.primary(generated_docs.default_rows(REPO))
    shown = ~rows.status.isin(["pass", "cannot_fail"]) & (rows.kind != "check")
    assert listed == set(rows.claim_id[shown])


def test_every_link_of_the_readme_and_docs_leads_to_a_file():
    pages = [REPO / "README.md", REPO / "config/README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
