"""The README is one screen that states the verdict as the default reference ledger has it, and
links only to pages that exist."""

import re

import pandas as pd
from conftest import REPO

README = (REPO / "README.md").read_text()


def verdict_rows(ledger: pd.DataFrame) -> list[str]:
    """The README's verdict table, one row per paper in the ledger's order."""
    rows = []
    for paper, g in ledger.groupby(ledger.target.str.split("_").str[0], sort=False):
        n = {
            s: int(((g.kind == "empirical") & (g.status == s)).sum())
            for s in ("pass", "mixed", "fail")
        }
        holding = [
            f"{int(((g.kind == k) & (g.status == 'pass')).sum())} of {int((g.kind == k).sum())}"
            for k in ("exact", "check")
        ]
        rows.append(
            f"| {paper} | {n['pass']} | {n['mixed']} | {n['fail']} | {' | '.join(holding)} |"
        )
    return rows


def test_the_readme_is_one_screen():
    assert len(README.splitlines()) <= 140


def test_the_verdict_table_is_the_default_reference_ledgers():
    ledger = pd.read_csv(REPO / "reference/default/claims.csv")
    table = README.split("## The verdict at a glance")[1].split("\n\n")[2].splitlines()[2:]
    assert table == verdict_rows(ledger)


def test_the_verdict_table_sees_a_changed_status():
    ledger = pd.read_csv(REPO / "reference/default/claims.csv")
    first_pass = ledger.index[(ledger.kind == "empirical") & (ledger.status == "pass")][0]
    ledger.loc[first_pass, "status"] = "fail"
    table = README.split("## The verdict at a glance")[1].split("\n\n")[2].splitlines()[2:]
    assert table != verdict_rows(ledger)


def test_every_link_of_the_readme_and_docs_leads_to_a_file():
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
