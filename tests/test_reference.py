"""compare_reference's reading of two ledgers, and the saved provenance."""

import datetime
import json

import pandas as pd
import pytest
import yaml
from conftest import REPO

from l2relu.ledger import reference
from l2relu.ledger.registry import load_registry, registry_files


def _ledger(rows):
    """Ledger rows (claim id, case, shown value, n_hold, status[, per-seed values])."""
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
                "values": json.dumps(rest[0] if rest else [1.0, 2.0, 3.0]),
                "ref": None,
            }
            for claim_id, case, value, hold, status, *rest in rows
        ]
    )


BASE = [
    ("paper.fig1.a", 1, "0.6155 [0.1759, 1]", 2, "mixed", [0.6155, 0.1759, 1.0]),
    ("paper.fig1.b", 1, "0 (of 12)", 1, "pass", [0.0]),
    ("other.fig1.c", 1, "3.2", 3, "pass", [3.2, 3.1, 3.3]),
]
ENTRY = {
    "target": "paper_fig1",
    "kind": "empirical",
    "where": "Fig. 1",
    "quote": "words",
    "paper": "a value",
    "measure": "a measure",
    "criterion": ">= 0.5",
    "quantifier": "typical",
    "quantifier_words": "words",
    "why": "because",
    "history": [
        {
            "date": datetime.date(2026, 1, 1),
            "change": "created",
            "results_seen": False,
            "why": "written from the words",
            "state": "0",
        }
    ],
}


def _registry(tmp_path, **criteria):
    """A registry of paper.fig1.<name> entries with the given criteria (a (criterion,
    reference_tol) pair sets a tolerance)."""
    entries = {}
    for name, criterion in criteria.items():
        criterion, tol = criterion if isinstance(criterion, tuple) else (criterion, None)
        entries[f"paper.fig1.{name}"] = ENTRY | {"criterion": criterion}
        if tol is not None:
            entries[f"paper.fig1.{name}"]["reference_tol"] = tol
    path = tmp_path / "paper.yaml"
    path.write_text(yaml.safe_dump(entries))
    return load_registry([path])


def test_an_identical_ledger_and_one_within_the_tolerance_differ_in_nothing():
    ref = _ledger(BASE)
    assert reference.differences(ref, ref, 1e-3).empty
    nudged = _ledger([(*BASE[0][:5], [0.61556, 0.1759, 1.0]), *BASE[1:]])
    assert reference.differences(nudged, ref, 1e-3).empty
    # the shown text is not read: only the numbers behind it
    reworded = _ledger([(*BASE[0][:2], "0.62 [0.18, 1] (seeds)", *BASE[0][3:]), *BASE[1:]])
    assert reference.differences(reworded, ref, 1e-3).empty


def test_a_changed_value_verdict_or_row_is_listed():
    ref = _ledger(BASE)
    changed = _ledger(
        [
            ("paper.fig1.a", 1, "0.65 [0.1759, 1]", 2, "mixed", [0.65, 0.1759, 1.0]),  # 5%
            ("paper.fig1.b", 1, "0 (of 12)", 0, "fail", [0.0]),  # a verdict
            ("other.fig1.c", 2, "3.2", 3, "pass"),  # another case: a row each side lacks
        ]
    )
    diff = reference.differences(changed, ref, 1e-3)
    assert set(zip(diff.claim_id, diff.field, strict=True)) == {
        ("paper.fig1.a", "values"),
        ("paper.fig1.b", "n_hold"),
        ("paper.fig1.b", "status"),
        ("other.fig1.c", "row"),
    }
    assert sorted(diff[diff.field == "row"].this_run) == ["absent", "present"]
    # a seed more or less, or one not measured, is a change
    fewer = _ledger([(*BASE[0][:5], [0.6155, 0.1759]), *BASE[1:]])
    unmeasured = _ledger([(*BASE[0][:5], [0.6155, None, 1.0]), *BASE[1:]])
    for run in (fewer, unmeasured):
        assert reference.differences(run, ref, 1e-3).field.tolist() == ["values"]


def test_values_far_inside_a_one_sided_bar_agree_whatever_their_digits(tmp_path):
    registry = _registry(tmp_path, tiny="<= 1e-12", big=">= 0.5", zero="<= 0", near="<= 1e-12")
    pairs = {
        "tiny": ([6.497e-16, 1e-20], [2.776e-16, 3e-25]),  # both 100x inside: the same
        "big": ([80.0], [51.0]),  # both 100x beyond 0.5
        "zero": ([-0.0079], [-0.0083]),  # a bar at 0: no far side, a 5% move
        "near": ([5e-13], [1e-15]),  # one of them near its bar
    }
    ref = _ledger([(f"paper.fig1.{n}", 1, "v", 3, "pass", a) for n, (a, _) in pairs.items()])
    run = _ledger([(f"paper.fig1.{n}", 1, "v", 3, "pass", b) for n, (_, b) in pairs.items()])
    diff = reference.differences(run, ref, 1e-3, registry)
    assert sorted(diff.claim_id) == ["paper.fig1.near", "paper.fig1.zero"]
    # without the registry, no criterion says what far inside is
    assert len(reference.differences(run, ref, 1e-3)) == 4


def test_a_value_crossing_its_bar_is_listed_and_an_entrys_own_tolerance_is_used(tmp_path):
    registry = _registry(tmp_path, bar="<= 1e-12", trained=("<= 0", 0.03))
    ref = _ledger(
        [
            ("paper.fig1.bar", 1, "v", 3, "pass", [1e-16]),
            ("paper.fig1.trained", 1, "v", 3, "pass", [-0.007908]),
        ]
    )
    crossed = _ledger(
        [
            ("paper.fig1.bar", 1, "v", 3, "pass", [2e-12]),
            ("paper.fig1.trained", 1, "v", 3, "pass", [-0.00799]),
        ]
    )  # 1%: within 3%
    diff = reference.differences(crossed, ref, 1e-3, registry)
    assert diff.claim_id.tolist() == ["paper.fig1.bar"]
    moved = _ledger(
        [
            ("paper.fig1.bar", 1, "v", 3, "pass", [1e-16]),
            ("paper.fig1.trained", 1, "v", 3, "pass", [-0.0083]),
        ]
    )  # 5%: beyond 3%
    assert reference.differences(moved, ref, 1e-3, registry).claim_id.tolist() == [
        "paper.fig1.trained"
    ]


# Values another machine's CPU kernels gave (this run) against the smoke and default references'
# (a machine without AVX-512), all with equal verdicts: the same result, which compare_reference
# must not report.
KERNEL_PAIRS = [
    ("chen2024.fig1.cut_class_collapsed", 6.497e-16, 2.776e-16),
    ("chen2024.fig1.other_classes_untouched", 2.412e-15, 1.977e-15),
    ("chen2024.fig2.backward_cone_to_base", 1.241e-15, 1.341e-15),
    ("chen2024.fig2.between_cones_onto_edges", 1.059e-12, 1.35e-13),
    ("chen2024.fig3.thm52_zero_cost", 3.827e-25, 3.73e-25),
    ("chen2024.theory.cor42_zero_cost", 8.434e-29, 1.127e-28),
    ("chen2024.theory.prop41_zero_cost", 8.434e-29, 1.127e-28),
    ("chen2024.theory.thm52_zero_cost", 4.195e-28, 3.696e-28),
    ("timor2022.theory.thm1_rank_one", 8.102e-17, 9.893e-17),
    ("timor2022.theory.thm1_zero_loss", 9.861e-32, 3.081e-32),
    ("jacot2022.fig2.train_loss_nonincreasing", -0.007908, -0.00799),
]


def test_the_kernel_moves_seen_across_machines_compare_equal():
    registry = load_registry(registry_files(REPO / "workflow/claims"))
    ref = _ledger([(c, 1, "v", 1, "pass", [a]) for c, a, _ in KERNEL_PAIRS])
    run = _ledger([(c, 1, "v", 1, "pass", [b]) for c, _, b in KERNEL_PAIRS])
    assert reference.differences(run, ref, 1e-3, registry).empty
    # and each of them moved past its bar, or by 5% near it, would be reported
    for claim_id, a, _ in KERNEL_PAIRS:
        bound = registry[claim_id].criterion.bounds()[1]
        worse = bound * 2 if bound else a * 1.05
        run = _ledger([(claim_id, 1, "v", 1, "pass", [worse])])
        ref = _ledger([(claim_id, 1, "v", 1, "pass", [a])])
        assert len(reference.differences(run, ref, 1e-3, registry)) == 1, claim_id


def test_a_reference_without_per_seed_values_is_compared_on_its_verdicts():
    ref = _ledger(BASE).drop(columns=["values", "ref"])
    assert reference.rows_without_values(ref) == 3
    moved = _ledger([(*BASE[0][:5], [9.0, 9.0, 9.0]), *BASE[1:]])
    assert reference.differences(moved, ref, 1e-3).empty
    flipped = _ledger([(*BASE[0][:3], 3, "pass", BASE[0][5]), *BASE[1:]])
    assert set(reference.differences(flipped, ref, 1e-3).field) == {"n_hold", "status"}


def test_a_changed_count_of_excluded_seeds_is_listed_where_both_ledgers_count_them():
    ref, run = _ledger(BASE), _ledger(BASE)
    ref["n_excluded"], run["n_excluded"] = 0, [1, 0, 0]
    diff = reference.differences(run, ref, 1e-3)
    assert diff[["claim_id", "field"]].values.tolist() == [[BASE[0][0], "n_excluded"]]
    # a reference written before the column compares on the rest
    assert reference.differences(run, ref.drop(columns=["n_excluded"]), 1e-3).empty


def test_a_row_of_one_side_only_is_the_only_difference():
    """The side that lacks a row is read with NaN counts (floats): 3.0 is still 3."""
    ref = _ledger(BASE)
    extra = _ledger([*BASE, ("paper.fig1.d", 1, "1", 3, "pass")])
    for run, reference_ledger in ((extra, ref), (ref, extra)):
        diff = reference.differences(run, reference_ledger, 1e-3)
        assert diff[["claim_id", "field"]].values.tolist() == [["paper.fig1.d", "row"]]


def test_a_criterion_reference_that_moves_appears_or_goes_is_listed(tmp_path):
    registry = _registry(tmp_path, bound="<= ref")
    ref = _ledger([("paper.fig1.bound", 1, "v", 3, "pass", [1e-5])]).assign(ref=0.01)
    for changed in (0.02, None):
        run = ref.assign(ref=changed)
        diff = reference.differences(run, ref, 1e-3, registry)
        assert diff.field.tolist() == ["values"], changed
    assert reference.differences(ref.assign(ref=0.010001), ref, 1e-3, registry).empty


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
    assert {"date", "machine", "device", "kernels"} <= set(provenance)
    assert {"cpu_flags", "blas", "versions"} <= set(provenance["kernels"])
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
    rebuilt.insert(5, "n_excluded", 0)  # a column the reference lacks comes in its place
    rebuilt.to_csv(ledger, index=False)
    monkeypatch.setattr(reference, "_git", lambda *args: "" if args[0] == "status" else "def456")
    path = reference.update(ledger, tmp_path / "ref", ["paper_fig1"], 5.0, [])
    saved = pd.read_csv(tmp_path / "ref/claims.csv")
    assert saved.columns.tolist() == rebuilt.columns.tolist()
    assert saved.n_excluded.isna().tolist() == [False, False, True]  # unknown in the old row
    # ... and that unknown is no difference from a run that counts it
    rebuilt_all = rebuilt.assign(n_excluded=0)
    kept = pd.read_csv(tmp_path / "ref/claims.csv")
    assert reference.differences(rebuilt_all.iloc[:2], kept.iloc[:2], 1e-3).empty
    assert reference.differences(_ledger([BASE[2]]).assign(n_excluded=0), kept, 1e-3).empty
    assert saved.claim_id.tolist() == [b[0] for b in BASE]  # the order kept
    assert saved.reproduced_value.tolist() == ["0.9 [0.8, 1]", "0 (of 12)", "3.2"]
    provenance = yaml.safe_load(path.read_text())
    assert provenance["commit"] == "abc123"  # the reference's own build is kept
    assert [(u["targets"], u["commit"]) for u in provenance["updates"]] == [
        (["paper_fig1"], "def456")
    ]
    with pytest.raises(ValueError, match="no rows of absent_fig1"):
        reference.update(ledger, tmp_path / "ref", ["absent_fig1"], 5.0, [])
    # every target updated: the reference is the ledger, byte for byte (a ref of 4 stays 4)
    rebuilt["ref"] = ["4", "", ""]
    rebuilt.to_csv(ledger, index=False)
    reference.update(ledger, tmp_path / "ref", ["paper_fig1", "other_fig1"], 5.0, [])
    assert (tmp_path / "ref/claims.csv").read_bytes() == ledger.read_bytes()


def test_the_side_by_side_table_shows_each_case_and_marks_changed_verdicts(tmp_path):
    """Two references' rows matched by claim and case (the ledger's claim less the registry's
    measure), in the second's order: a changed verdict is marked, a row of one side only is
    named, a | inside a cell is escaped."""
    registry = tmp_path / "paper.yaml"
    registry.write_text(yaml.safe_dump({"paper.fig1.a": ENTRY, "paper.fig1.b": ENTRY}))
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


def test_each_reading_is_its_own_row_and_a_changed_robustness_is_listed():
    ref = _ledger(BASE).assign(reading=["5 deg", "", ""], robustness="robust")
    other = ref.iloc[[0]].assign(reading="10 deg")
    ref = pd.concat([ref, other], ignore_index=True)
    assert reference.differences(ref, ref, 1e-3).empty
    moved = ref.copy()
    moved.loc[3, ["status", "n_hold"]] = "fail", 0  # the 10 deg reading alone
    moved.loc[[0, 3], "robustness"] = "reading-dependent"
    diff = reference.differences(moved, ref, 1e-3)
    assert set(zip(diff.reading, diff.field, strict=True)) == {
        ("10 deg", "status"),
        ("10 deg", "n_hold"),
        ("10 deg", "robustness"),
        ("5 deg", "robustness"),
    }
    # a ledger written before readings: its rows are the entries' only readings ("")
    assert reference.differences(_ledger(BASE), _ledger(BASE).assign(reading=""), 1e-3).empty


def test_a_ledger_written_before_readings_stands_for_each_entrys_primary_reading(tmp_path):
    path = tmp_path / "paper.yaml"
    readings = [
        {"name": "tight", "parameters": {"tol": 1}, "why": "words"},
        {"name": "loose", "parameters": {"tol": 2}, "why": "words"},
    ]
    path.write_text(yaml.safe_dump({"paper.fig1.a": ENTRY | {"readings": readings}}))
    registry = load_registry([path])
    old = _ledger(BASE[:1])  # no reading column
    new = pd.concat([old.assign(reading="tight"), old.assign(reading="loose")])
    diff = reference.differences(new, old, 1e-3, registry)
    assert diff[["reading", "field", "this_run"]].values.tolist() == [["loose", "row", "present"]]


def test_the_side_by_side_table_shows_exclusions_of_a_side_the_other_lacks(tmp_path):
    """One reference written before n_excluded: the other's exclusions still show."""
    registry = tmp_path / "paper.yaml"
    registry.write_text(yaml.safe_dump({"paper.fig1.a": ENTRY}))
    new, old = tmp_path / "new", tmp_path / "old"
    for directory in (new, old):
        directory.mkdir()
    (row,) = BASE[:1]
    _ledger([row]).assign(n_excluded=1).to_csv(new / "claims.csv", index=False)
    _ledger([row]).to_csv(old / "claims.csv", index=False)
    line = reference.side_by_side(new, old, [registry]).splitlines()[2]
    assert "(2/2, 1 excluded, mixed)" in line and "(2/3, mixed)" in line


@pytest.mark.parametrize(
    "a, b, gap",
    [
        ([1.0, 2.0], [1.0, 2.0], "0"),
        ([1.0, 2.0], [1.0, 2.002], "1.0e-03"),
        ([-4.0, 2.0], [-3.0, 2.0], "2.5e-01"),
        ([1.0, None], [1.0, None], "0"),
        ([1.0, None], [1.0, 2.0], "measured on one side only"),
        ([1.0], [1.0, 2.0], "1 vs 2 values"),
        (None, [1.0], "—"),
    ],
)
def test_the_largest_gap_is_the_worst_seeds_difference_over_the_larger_value(a, b, gap):
    assert reference.largest_gap(a, b) == gap


def test_the_side_by_side_table_with_gaps_adds_each_rows_largest_gap(tmp_path):
    registry = tmp_path / "paper.yaml"
    registry.write_text(yaml.safe_dump({"paper.fig1.a": ENTRY}))
    cpu, gpu = tmp_path / "cpu", tmp_path / "gpu"
    for directory, values in ((cpu, "[0.5, 1.0]"), (gpu, "[0.5, 0.9]")):
        directory.mkdir()
        _ledger(BASE[:1]).assign(values=values).to_csv(directory / "claims.csv", index=False)
    lines = reference.side_by_side(cpu, gpu, [registry], gaps=True).splitlines()
    assert lines[0].endswith("| verdict | largest gap of a seed's value |")
    assert lines[1] == "|---|---|---|---|---|---|"
    assert lines[2].endswith("| same | 1.0e-01 |")
    assert "largest gap" not in reference.side_by_side(cpu, gpu, [registry])
