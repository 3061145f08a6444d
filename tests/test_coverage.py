"""The coverage index (workflow/claims/coverage.yaml) against the registry: every entry under
one item of its paper, every item with exactly one of ids, not_checkable, missing; and the
coverage the ledger and the docs print is counted from it."""

import re
from types import SimpleNamespace

import pytest
import yaml
from conftest import REPO

from l2relu.ledger import coverage, verdict
from l2relu.ledger.registry import COVERAGE_FILE, load_registry, registry_files

CLAIMS = REPO / "workflow/claims"
INDEX = CLAIMS / COVERAGE_FILE


def test_every_registry_entry_is_under_one_item_and_every_id_is_an_entry():
    items = coverage.load_coverage(INDEX)
    assert coverage.problems(items, load_registry(registry_files(CLAIMS))) == []


def test_the_index_covers_the_four_papers_of_the_registry():
    papers = {it.paper for it in coverage.load_coverage(INDEX)}
    assert papers == {p.stem for p in registry_files(CLAIMS)}


def _index(tmp_path, items):
    path = tmp_path / "coverage.yaml"
    path.write_text(yaml.safe_dump({"paper": items}))
    return path


ITEM = {"item": "Thm. 1", "where": "Sec. 2", "statement": "words"}


@pytest.mark.parametrize(
    "entry, words",
    [
        (ITEM, "needs exactly one of ids, not_checkable, missing, checks"),
        (ITEM | {"ids": ["paper.fig1.a"], "missing": "x"}, "needs exactly one of"),
        (ITEM | {"missing": "x", "status": "pass"}, "unknown field status"),
        ({"item": "Thm. 1", "where": "Sec. 2", "missing": "x"}, "no statement"),
        (ITEM | {"ids": "paper.fig1.a"}, "ids and checks are lists of registry ids"),
    ],
)
def test_a_malformed_item_is_an_error_naming_it(tmp_path, entry, words):
    with pytest.raises(coverage.CoverageError, match=re.escape(words)) as err:
        coverage.load_coverage(_index(tmp_path, [entry]))
    assert str(err.value).startswith("coverage.yaml, paper item 1 (Thm. 1): ")


def test_an_unknown_id_an_entry_under_no_item_or_under_two_is_listed(tmp_path):
    items = coverage.load_coverage(
        _index(
            tmp_path,
            [
                ITEM | {"ids": ["paper.fig1.a", "paper.fig1.ghost"]},
                ITEM | {"item": "Thm. 2", "ids": ["paper.fig1.a", "other.fig1.c"]},
            ],
        )
    )
    entry = SimpleNamespace(kind="empirical")
    found = coverage.problems(
        items, {"paper.fig1.a": entry, "paper.fig1.b": entry, "other.fig1.c": entry}
    )
    assert found == [
        "paper Thm. 1: paper.fig1.ghost is not a registry entry",
        "paper.fig1.a is under two items: paper Thm. 1 and paper Thm. 2",
        "paper Thm. 2: other.fig1.c belongs to another paper",
        "paper.fig1.b is under no item of the coverage index",
    ]


def test_the_pipeline_checks_are_placed_but_not_counted_and_hold_checks_only(tmp_path):
    items = coverage.load_coverage(
        _index(
            tmp_path,
            [
                ITEM | {"ids": ["paper.fig1.a"]},
                {"item": "Pipeline checks", "where": "none", "statement": "invariants"}
                | {"checks": ["paper.fig1.diverged", "paper.fig1.b"]},
            ],
        )
    )
    assert [it.state for it in items] == ["ids", "checks"]
    assert coverage.table_rows(items)[0] == ["paper", "1", "1", "0", "0", "100%", "100%"]
    registry = {
        "paper.fig1.a": SimpleNamespace(kind="empirical"),
        "paper.fig1.b": SimpleNamespace(kind="empirical"),
        "paper.fig1.diverged": SimpleNamespace(kind="check"),
    }
    assert coverage.problems(items, registry) == [
        "paper Pipeline checks: paper.fig1.b is empirical, not a check"
    ]


def test_the_counts_read_rows_over_all_items_and_over_the_checkable_ones(tmp_path):
    items = coverage.load_coverage(
        _index(
            tmp_path,
            [
                ITEM | {"ids": ["paper.fig1.a"]},
                ITEM | {"item": "Lemma 2", "not_checkable": "a proof step"},
                ITEM | {"item": "Fig. 3", "missing": "the test loss"},
                ITEM | {"item": "Fig. 4", "ids": ["paper.fig4.a"]},
            ],
        )
    )
    assert coverage.table_rows(items) == [
        ["paper", "4", "2", "1", "1", "50%", "67%"],
        ["all", "4", "2", "1", "1", "50%", "67%"],
    ]
    text = "\n".join(verdict.coverage_markdown(items))
    assert "| paper | Fig. 3 | Sec. 2 | the test loss |" in text
    assert "Lemma 2" not in text  # a reason, not a missing row


def test_the_ledger_docs_print_the_index_coverage():
    """docs/ledger.md's coverage table is the index's, counted (python -m l2relu.ledger.docs
    writes it); a table one item short is not."""
    from l2relu.ledger import docs

    text, written = docs.current_coverage(REPO)
    assert text == written, "python -m l2relu.ledger.docs rewrites it from the coverage index"
    table = verdict.md_table(coverage.HEADER, coverage.table_rows(coverage.load_coverage(INDEX)))
    assert "\n".join(table) in text
    short = coverage.table_rows(coverage.load_coverage(INDEX)[1:])
    assert "\n".join(verdict.md_table(coverage.HEADER, short)) not in text
