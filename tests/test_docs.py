"""The README is one screen that states the verdict as the default reference ledger has it, and
links only to pages that exist."""

import re

import pandas as pd
import yaml
from conftest import REPO

from l2relu import verdict

README = (REPO / "README.md").read_text()


def verdict_rows(ledger: pd.DataFrame) -> list[str]:
    """The README's verdict table as the ledger's headline writes it, header included."""
    return verdict.md_table(verdict.VERDICT_HEADER, verdict.verdict_counts(ledger))


def test_the_readme_is_one_screen():
    assert len(README.splitlines()) <= 160


def default_targets_rows() -> pd.DataFrame:
    """The default reference's rows of the default build's targets (the reference also holds
    the opt-in studies' rows, which the README reports apart)."""
    ledger = pd.read_csv(REPO / "reference/default/claims.csv")
    targets = yaml.safe_load((REPO / "config/config.yaml").read_text())["targets"]
    return ledger[ledger.target.isin(targets)]


def test_the_verdict_table_is_the_default_reference_ledgers():
    ledger = default_targets_rows()
    table = README.split("## The verdict at a glance")[1].split("\n\n")[2].splitlines()
    assert table == verdict_rows(ledger)


def test_the_verdict_table_sees_a_changed_status():
    ledger = default_targets_rows()
    first_pass = ledger.index[(ledger.kind == "empirical") & (ledger.status == "pass")][0]
    ledger.loc[first_pass, "status"] = "fail"
    table = README.split("## The verdict at a glance")[1].split("\n\n")[2].splitlines()
    assert table != verdict_rows(ledger)


def test_every_link_of_the_readme_and_docs_leads_to_a_file():
    pages = [REPO / "README.md", REPO / "config/README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
