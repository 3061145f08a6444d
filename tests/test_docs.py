"""The README is one screen that states the verdict as the default reference ledger has it, and
links only to pages that exist."""

import re

import pandas as pd
import yaml
from conftest import REPO

from l2relu import readme, verdict
from l2relu.registry import load_registry, registry_files

README = (REPO / "README.md").read_text()


def test_the_readme_is_one_screen():
    assert len(README.splitlines()) <= 160


def default_targets_rows() -> pd.DataFrame:
    """The default reference's rows of the default build's targets (the reference also holds
    the opt-in studies' rows, which the README reports apart)."""
    targets = yaml.safe_load((REPO / "config/config.yaml").read_text())["targets"]
    return readme.default_targets_rows(pd.read_csv(REPO / "reference/default/claims.csv"), targets)


def _registry():
    return load_registry(registry_files(REPO / "workflow/claims"))


def test_the_readmes_verdict_is_the_default_reference_ledgers():
    written, generated = readme.current(REPO)
    assert written == generated, "python -m l2relu.readme rewrites it from the reference ledger"
    assert (
        verdict.md_table(verdict.VERDICT_HEADER, verdict.verdict_counts(default_targets_rows()))[2]
        in README
    )


def test_the_readmes_verdict_sees_a_changed_status_and_lists_a_claim_that_fails():
    ledger = default_targets_rows()
    chosen = ledger.index[(ledger.kind == "empirical") & (ledger.status == "pass")][0]
    claim_id = ledger.claim_id[chosen]
    assert f"[`{claim_id}`]" not in README
    ledger.loc[chosen, "status"] = "fail"
    changed = readme.section(ledger, _registry())
    assert changed not in README
    assert f"[`{claim_id}`]" in changed and "failed in 1 case" in changed


def test_the_readmes_verdict_leaves_out_checks_and_passing_claims():
    lines = readme.not_replicated(default_targets_rows(), _registry())
    listed = {line.split("`")[1] for line in lines}
    rows = verdict.primary(default_targets_rows())
    assert listed == set(rows.claim_id[(rows.status != "pass") & (rows.kind != "check")])


def test_every_link_of_the_readme_and_docs_leads_to_a_file():
    pages = [REPO / "README.md", REPO / "config/README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
