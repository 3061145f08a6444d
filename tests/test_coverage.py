"""The coverage index (workflow/claims/coverage.yaml) against the registry: every entry under
one item of its paper, every item in one state (tested, partial, given, not checkable, missing),
an item refused as tested when no row of it can test it; and the coverage the ledger and the docs
print is counted from it."""

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
        (ITEM, "needs ids, checks, or one of given, not_checkable, missing"),
        (ITEM | {"ids": ["paper.fig1.a"], "missing": "x"}, "has ids and a state without rows"),
        (ITEM | {"partial": "the first half"}, "is partial without the ids that measure the part"),
        (ITEM | {"given": "a hypothesis", "missing": "x"}, "has more than one state"),
        (ITEM | {"checks": ["paper.fig1.a"], "given": "x"}, "has checks and a statement's state"),
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
    entry = SimpleNamespace(kind="empirical", cannot_fail=None)
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
    assert [it.state for it in items] == ["tested", "checks"]
    assert coverage.table_rows(items)[0] == ["paper", "1", "1", "0", "0", "100.0%", "0", "0"]
    registry = {
        "paper.fig1.a": SimpleNamespace(kind="empirical", cannot_fail=None),
        "paper.fig1.b": SimpleNamespace(kind="empirical", cannot_fail=None),
        "paper.fig1.diverged": SimpleNamespace(kind="check", cannot_fail=None),
    }
    assert coverage.problems(items, registry) == [
        "paper Pipeline checks: paper.fig1.b is empirical, not a check"
    ]


def test_the_share_is_tested_over_tested_partial_and_missing(tmp_path):
    items = coverage.load_coverage(
        _index(
            tmp_path,
            [
                ITEM | {"ids": ["paper.fig1.a"]},
                ITEM | {"item": "Lemma 2", "not_checkable": "a proof step"},
                ITEM | {"item": "Fig. 3", "missing": "the test loss"},
                ITEM | {"item": "Fig. 4", "ids": ["paper.fig4.a"]},
                ITEM | {"item": "Fig. 5", "ids": ["paper.fig5.a"], "partial": "its left panel"},
                ITEM | {"item": "Assumption 1", "ids": ["paper.fig1.b"], "given": "a hypothesis"},
                ITEM | {"item": "Eq. (3)", "given": "a set-up value"},
            ],
        )
    )
    assert [it.state for it in items] == [
        *("tested", "not_checkable", "missing", "tested", "partial", "given", "given")
    ]
    assert coverage.table_rows(items) == [
        ["paper", "7", "2", "1", "1", "50.0%", "2", "1"],
        ["all", "7", "2", "1", "1", "50.0%", "2", "1"],
    ]
    assert "tests 2 of the papers' 4 checkable statements (50.0%)" in coverage.share_sentence(items)
    text = "\n".join(verdict.coverage_markdown(items))
    assert "| paper | Fig. 3 | Sec. 2 | the test loss |" in text
    assert "Lemma 2" not in text  # a reason, not a missing row


def _cannot_fail(cases):
    return SimpleNamespace(cases=tuple(cases), every_case=cases == ["every case"])


@pytest.mark.parametrize(
    "kinds, cannot_fail, refusal",
    [
        (["check", "check"], [None, None], "called tested through check entries alone"),
        (["exact", "check"], [["every case"], None], "none of its rows can fail"),
        (["exact", "empirical"], [["every case"], ["every case"]], "none of its rows can fail"),
        (["exact", "check"], [["bipartite"], None], ""),  # it can fail on other cases
        (["empirical", "check"], [None, None], ""),
    ],
)
def test_an_item_is_refused_as_tested_when_no_row_of_it_can_test_it(
    tmp_path, kinds, cannot_fail, refusal
):
    """An item is not tested through pipeline checks alone, nor through rows that cannot fail
    in any case; marked partial, the same rows are accepted."""
    ids = ["paper.fig1.a", "paper.fig1.b"]
    registry = {
        i: SimpleNamespace(kind=k, cannot_fail=c and _cannot_fail(c))
        for i, k, c in zip(ids, kinds, cannot_fail, strict=True)
    }
    tested = coverage.load_coverage(_index(tmp_path, [ITEM | {"ids": ids}]))
    found = coverage.problems(tested, registry)
    assert len(found) == (1 if refusal else 0)
    assert all(f.startswith("paper Thm. 1: ") and refusal in f for f in found)
    partial = coverage.load_coverage(_index(tmp_path, [ITEM | {"ids": ids, "partial": "a part"}]))
    assert coverage.problems(partial, registry) == []


def test_a_cannot_fail_field_covers_its_cases_and_the_cases_they_begin():
    from l2relu.ledger.registry import CannotFail

    some = CannotFail(("bipartite", "oned"), "below the onset")
    assert some.covers("bipartite, N = 4") and some.covers("oned")
    assert not some.covers("onehot, N = 6") and not some.covers("bipartite-like")
    assert CannotFail(("every case",), "by definition").covers("anything")


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
