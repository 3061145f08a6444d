"""compare_reference's reading of two ledgers, and the saved provenance."""

import pandas as pd
import pytest
import yaml

from l2relu import reference


def _ledger(rows):
    return pd.DataFrame(
        [
            {
                "claim_id": claim_id,
                "target": claim_id.split(".")[0] + "_fig1",
                "claim": f"a measure, case {case}",
                "reproduced_value": value,
                "n_hold": hold,
                "n_seeds": 3,
                "status": status,
            }
            for claim_id, case, value, hold, status in rows
        ]
    )


BASE = [
    ("paper.fig1.a", 1, "0.6155 [0.1759, 1]", 2, "mixed"),
    ("paper.fig1.b", 1, "0 (of 12)", 1, "pass"),
    ("other.fig1.c", 1, "3.2", 3, "pass"),
]


def test_an_identical_ledger_and_one_within_the_tolerance_differ_in_nothing():
    ref = _ledger(BASE)
    assert reference.differences(ref, ref, 1e-3).empty
    nudged = _ledger([("paper.fig1.a", 1, "0.6156 [0.1759, 1]", 2, "mixed"), *BASE[1:]])
    assert reference.differences(nudged, ref, 1e-3).empty


def test_a_changed_value_verdict_or_row_is_listed():
    ref = _ledger(BASE)
    changed = _ledger(
        [
            ("paper.fig1.a", 1, "0.65 [0.1759, 1]", 2, "mixed"),  # a value beyond 1e-3
            ("paper.fig1.b", 1, "0 (of 12)", 0, "fail"),  # a verdict
            ("other.fig1.c", 2, "3.2", 3, "pass"),  # another case: a row each side lacks
        ]
    )
    diff = reference.differences(changed, ref, 1e-3)
    assert set(zip(diff.claim_id, diff.field, strict=True)) == {
        ("paper.fig1.a", "reproduced_value"),
        ("paper.fig1.b", "n_hold"),
        ("paper.fig1.b", "status"),
        ("other.fig1.c", "row"),
    }
    assert sorted(diff[diff.field == "row"].this_run) == ["absent", "present"]
    # words that change are a change, whatever the numbers
    assert not reference.same_value("1 (of 3)", "1 (of 3 seeds)", 0.5)


def test_targets_the_run_did_not_build_are_not_compared():
    ref = _ledger(BASE)
    only_paper = ref[ref.target == "paper_fig1"]
    assert reference.differences(only_paper, ref, 1e-3).empty


def test_save_writes_the_ledger_and_its_provenance(tmp_path, monkeypatch):
    ledger = tmp_path / "claims.csv"
    _ledger(BASE).to_csv(ledger, index=False)
    monkeypatch.setattr(reference, "_git", lambda *args: "" if args[0] == "status" else "abc123")
    path = reference.save(ledger, tmp_path / "ref", 12.34, ["config/smoke.yaml"])
    provenance = yaml.safe_load(path.read_text())
    assert provenance["commit"] == "abc123" and provenance["rows"] == 3
    assert provenance["wall_time_s"] == pytest.approx(12.3)
    assert provenance["config_overlays"] == ["config/smoke.yaml"]
    assert {"date", "machine", "device"} <= set(provenance)
    assert (tmp_path / "ref/claims.csv").read_text() == ledger.read_text()


def test_update_replaces_only_the_named_targets_rows_and_records_the_build(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "_git", lambda *args: "" if args[0] == "status" else "abc123")
    ledger = tmp_path / "claims.csv"
    _ledger(BASE).to_csv(ledger, index=False)
    reference.save(ledger, tmp_path / "ref", 10.0, [])
    rebuilt = _ledger(
        [
            ("paper.fig1.a", 1, "0.9 [0.8, 1]", 3, "pass"),
            BASE[1],
            ("other.fig1.c", 1, "9.9", 3, "pass"),  # not named: not taken
        ]
    )
    rebuilt.to_csv(ledger, index=False)
    monkeypatch.setattr(reference, "_git", lambda *args: "" if args[0] == "status" else "def456")
    path = reference.update(ledger, tmp_path / "ref", ["paper_fig1"], 5.0, [])
    saved = pd.read_csv(tmp_path / "ref/claims.csv")
    assert saved.claim_id.tolist() == [b[0] for b in BASE]  # the order kept
    assert saved.reproduced_value.tolist() == ["0.9 [0.8, 1]", "0 (of 12)", "3.2"]
    provenance = yaml.safe_load(path.read_text())
    assert provenance["commit"] == "abc123"  # the reference's own build is kept
    assert [(u["targets"], u["commit"]) for u in provenance["updates"]] == [
        (["paper_fig1"], "def456")
    ]
    with pytest.raises(ValueError, match="no rows of absent_fig1"):
        reference.update(ledger, tmp_path / "ref", ["absent_fig1"], 5.0, [])


def test_the_side_by_side_table_shows_each_case_and_marks_changed_verdicts(tmp_path):
    """Two references' rows matched by claim and case (the ledger's claim less the registry's
    measure), in the second's order: a changed verdict is marked, a row of one side only is
    named, a | inside a cell is escaped."""
    registry = tmp_path / "paper.yaml"
    entry = {
        "target": "paper_fig1",
        "kind": "empirical",
        "where": "Fig. 1",
        "quote": "words",
        "paper": "a value",
        "measure": "a measure",
        "criterion": ">= 0.5",
        "why": "because",
    }
    registry.write_text(yaml.safe_dump({"paper.fig1.a": entry, "paper.fig1.b": entry}))
    small, large = tmp_path / "default", tmp_path / "paper"
    for directory, rows in (
        (small, BASE[:2]),
        (
            large,
            [
                ("paper.fig1.b", 10, "1 (of 12)", 1, "pass"),
                ("paper.fig1.b", 1, "0 (of 12)", 1, "pass"),
                ("paper.fig1.a", 1, "||W|| = 0.95", 3, "pass"),
            ],
        ),
    ):
        directory.mkdir()
        _ledger(rows).to_csv(directory / "claims.csv", index=False)
    lines = reference.side_by_side(small, large, [registry]).splitlines()
    assert lines[0] == "| claim | case | default | paper | verdict |"
    assert lines[2:] == [
        "| `paper.fig1.b` | case 10 | — | 1 (of 12) (1/3, pass) | only in paper |",
        "| `paper.fig1.b` | case 1 | 0 (of 12) (1/3, pass) | 0 (of 12) (1/3, pass) | same |",
        "| `paper.fig1.a` | case 1 | 0.6155 [0.1759, 1] (2/3, mixed) | \\|\\|W\\|\\| = 0.95 "
        "(3/3, pass) | **mixed → pass** |",
    ]
