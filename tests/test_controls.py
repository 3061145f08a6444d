"""Every empirical or exact registry entry has a control: a test marked @controls(<id>) that
judges the entry's measure on a negative case, and that fails unless a row of the entry is
judged fail or mixed while it runs (tests/conftest.py). The controls are found by reading the
test files, so that this test sees them when it runs alone."""

import ast

import pandas as pd
from conftest import REPO, unfailed_controls

from l2relu.ledger.registry import MEASURING, load_registry, registry_files


def declared_controls() -> dict[str, list[str]]:
    """{claim id: the test files whose @controls(...) name it}."""
    found: dict[str, list[str]] = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "controls":
                for arg in node.args:
                    found.setdefault(arg.value, []).append(path.name)
    return found


def test_every_empirical_or_exact_entry_has_a_control():
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    measuring = {i for i, claim in registry.items() if claim.kind in MEASURING}
    declared = declared_controls()
    assert sorted(set(declared) - measuring) == []  # a control names an entry that can fail
    assert sorted(measuring - set(declared)) == []


def test_a_control_is_failed_unless_a_row_of_each_of_its_entries_fails():
    rows = pd.DataFrame(
        {"claim_id": ["p.f.a", "p.f.a", "p.f.b"], "status": ["pass", "fail", "pass"]}
    )
    assert unfailed_controls(["p.f.a", "p.f.b"], [rows]) == ["p.f.b"]
    mixed = rows.assign(status=["pass", "pass", "mixed"])
    assert unfailed_controls(["p.f.a", "p.f.b"], [rows, mixed]) == []
    assert unfailed_controls(["p.f.c"], [rows]) == ["p.f.c"]
