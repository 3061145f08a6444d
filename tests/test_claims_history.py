"""The registry's amendment log: every change to what a verdict depends on has a history item."""

import datetime
import re
import shutil
import subprocess

import pytest
import yaml
from conftest import REPO

from l2relu.ledger.registry import (
    STATE_FIELDS,
    RegistryError,
    entry_state,
    load_registry,
    registry_files,
)

REGISTRY_FILES = registry_files(REPO / "workflow/claims")


def _unrecorded(registry) -> list[str]:
    return [
        f"{c.id}: state {entry_state(c)}, its last history item records {c.recorded_state}"
        for c in registry.values()
        if entry_state(c) != c.recorded_state
    ]


def test_every_entry_reads_as_its_last_history_item_records():
    unrecorded = _unrecorded(load_registry(REGISTRY_FILES))
    assert not unrecorded, (
        f"entries changed without a history item (add one: date, change, old, new, "
        f"results_seen, why, and the new state, quoted): {unrecorded}"
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("criterion", "within factor 3 of 10"),
        ("measure", "smallest width from which the loss stays within 1% of its lowest"),
        ("quote", "the plateau appears to start around 20"),
        ("quantifier", "every"),
        ("min_measured", 2),
        ("kind", "check"),
        (
            "readings",
            [
                {"name": n, "parameters": {"rel_tol": t}, "why": "w"}
                for n, t in (("tight", 1e-4), ("loose", 1e-2))
            ],
        ),
        ("requires", ["fits"]),
        ("parameters", {"rel_tol": 1e-3}),
        ("network", "polished"),
    ],
)
def test_changing_what_a_verdict_depends_on_without_an_item_is_seen(tmp_path, field, value):
    """Each field of STATE_FIELDS, changed in a copy of the registry, breaks the recorded state;
    an item that records the new state mends it."""
    assert field in STATE_FIELDS
    path = tmp_path / "jacot2022.yaml"
    shutil.copy(REPO / "workflow/claims/jacot2022.yaml", path)
    entries = yaml.safe_load(path.read_text())
    claim_id = "jacot2022.fig2.plateau_onset"
    entry = entries[claim_id]
    entry[field] = value
    if field == "parameters":
        entry.pop("readings")  # an entry gives parameters or readings, not both
    if field == "kind":
        for name in ("quantifier", "quantifier_words"):
            entry.pop(name)
    path.write_text(yaml.safe_dump(entries))
    changed = load_registry([path])
    assert [u.split(":")[0] for u in _unrecorded(changed)] == [claim_id]

    entry["history"].append(
        {
            "date": datetime.date(2026, 12, 1),
            "change": {"requires": "preconditions"}.get(field, field),
            "old": "what it read",
            "new": str(value),
            "results_seen": True,
            "why": "a test",
            "state": entry_state(changed[claim_id]),
        }
    )
    path.write_text(yaml.safe_dump(entries))
    assert _unrecorded(load_registry([path])) == []


def test_a_change_to_the_why_alone_needs_no_item(tmp_path):
    path = tmp_path / "jacot2022.yaml"
    entries = yaml.safe_load((REPO / "workflow/claims/jacot2022.yaml").read_text())
    entries["jacot2022.fig2.plateau_onset"]["why"] += " Reworded."
    path.write_text(yaml.safe_dump(entries))
    assert _unrecorded(load_registry([path])) == []


def _item(**changes):
    item = {
        "date": datetime.date(2026, 1, 2),
        "change": "criterion",
        "old": ">= 1",
        "new": ">= 2",
        "results_seen": True,
        "why": "a reason",
    }
    return {k: v for k, v in (item | changes).items() if v is not None}


CREATED = {"date": datetime.date(2026, 1, 1), "change": "created", "results_seen": False}


@pytest.mark.parametrize(
    "history, message",
    [
        (None, "field 'history'"),
        ([], "field 'history'"),
        ([CREATED | {"why": "w"}], "records the entry's 'state'"),
        ([CREATED | {"why": "w", "state": 1234}], "quoted string"),
        ([_item(state="0")], "only it, is 'created'"),
        ([CREATED | {"why": "w"}, _item(change="created", state="0")], "only it, is 'created'"),
        ([CREATED | {"why": "w"}, _item(change="tuning", state="0")], "change 'tuning'"),
        ([CREATED | {"why": "w"}, _item(old=None, state="0")], "before and after"),
        ([CREATED | {"why": "w"}, _item(results_seen="maybe", state="0")], "true or false"),
        ([CREATED | {"why": "w"}, _item(date="last week", state="0")], "YYYY-MM-DD"),
        ([CREATED | {"why": "w"}, _item(why=None, state="0")], "missing field(s) why"),
        ([CREATED | {"why": "w"}, _item(author="me", state="0")], "unknown field(s) author"),
    ],
)
def test_a_malformed_history_is_an_error_naming_the_entry(tmp_path, history, message):
    entries = yaml.safe_load((REPO / "workflow/claims/jacot2022.yaml").read_text())
    entry = entries["jacot2022.fig2.plateau_onset"]
    entry.pop("history")
    if history is not None:
        entry["history"] = history
    path = tmp_path / "jacot2022.yaml"
    path.write_text(yaml.safe_dump({"jacot2022.fig2.plateau_onset": entry}))
    with pytest.raises(RegistryError, match="jacot2022.fig2.plateau_onset") as err:
        load_registry([path])
    assert message in str(err.value)


def test_the_commits_a_history_names_are_in_this_repositorys_past():
    """A seeded item names the commit that made the change; it must be one of HEAD's ancestors
    (where the checkout has its history)."""
    shallow = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True, text=True
    )
    if shallow.returncode or shallow.stdout.strip() != "false":
        pytest.skip("not a git checkout with its whole history")
    named = {
        item["commit"]
        for claim in load_registry(REGISTRY_FILES).values()
        for item in claim.history
        if "commit" in item
    }
    assert named
    for commit in sorted(named):
        found = subprocess.run(
            ["git", "merge-base", "--is-ancestor", commit, "HEAD"], cwd=REPO, capture_output=True
        )
        assert found.returncode == 0, f"{commit} is not an ancestor of HEAD"


def test_every_item_is_dated_in_order_and_no_later_than_today():
    for claim in load_registry(REGISTRY_FILES).values():
        dates = [item["date"] for item in claim.history]
        assert dates == sorted(dates), claim.id
        assert dates[-1] <= datetime.date.today(), claim.id


def test_a_withdrawn_entry_is_gone_from_the_registry_and_says_why():
    text = (REPO / "docs/ledger.md").read_text()
    table = text[text.index("**Withdrawn entries.**") :]
    rows = [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| `")]
    assert rows
    registry = load_registry(REGISTRY_FILES)
    for claim_id, when, state, why in (map(str.strip, r) for r in rows):
        assert claim_id.strip("`") not in registry
        assert re.match(r"\d{4}-\d{2}-\d{2}, results (seen|not seen)", when), when
        assert re.fullmatch(r"`[0-9a-f]{12}`", state) and why
