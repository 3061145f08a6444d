"""The coverage index, workflow/claims/coverage.yaml: every figure, table, stated experimental
number and numbered statement of the four papers with a numerical consequence, in each paper's
order, and what the ledger does with it. Each item is in one state:
  tested         `ids`: registry entries that measure the statement itself; at least one of them
                 empirical or exact, and able to fail in some case (no `cannot_fail` for every
                 case)
  partial        `ids` and `partial`: the rows measure a part of it, or cannot fail; `partial`
                 says which part
  given          `given`: a hypothesis, a set-up or a construction built to the paper's
                 prescription; its `ids`, if any, check that the pipeline built it so
  not_checkable  why no finite numerical test exists (a referee's reason, not a cost)
  missing        what a ledger row would measure: checkable, not measured yet
The share the ledger tests is tested / (tested + partial + missing): given and not checkable
items are outside it, and printed beside it. An item with `checks` instead holds registry entries
of kind check that measure the pipeline's own runs (no divergence, no collapse) rather than a
statement: it is placed but never counted."""

from dataclasses import dataclass
from pathlib import Path

from l2relu import yamlfile
from l2relu.ledger.registry import MEASURING

ITEM_FIELDS = ("item", "where", "statement")
# the fields that set an item's state, and the reasons that go with ids
STATE_TEXTS = ("partial", "given", "not_checkable", "missing")
STATES = ("tested", "partial", "given", "not_checkable", "missing")
IN_SHARE = ("tested", "partial", "missing")  # the share's denominator


class CoverageError(ValueError):
    pass


@dataclass(frozen=True)
class Item:
    paper: str
    item: str  # as the paper numbers it: "Fig. 2 caption", "Prop. 14"
    where: str
    statement: str  # the paper's words
    ids: tuple[str, ...] = ()  # the registry entries under it (its `ids` or its `checks`)
    partial: str = ""  # which part the rows measure, or why they cannot fail
    given: str = ""  # why it is a hypothesis, a set-up or a prescribed construction
    not_checkable: str = ""
    missing: str = ""
    checks: bool = False  # the pipeline's checks, not a statement of the paper

    @property
    def state(self) -> str:
        if self.checks:
            return "checks"
        return next((s for s in STATE_TEXTS if getattr(self, s)), "tested")


def _item(paper: str, entry, where: str) -> Item:
    if not isinstance(entry, dict):
        raise CoverageError(f"{where}: expected a mapping with {', '.join(ITEM_FIELDS)}")
    unknown = set(entry) - {*ITEM_FIELDS, *STATE_TEXTS, "ids", "checks"}
    absent = [f for f in ITEM_FIELDS if not str(entry.get(f) or "").strip()]
    texts = [s for s in STATE_TEXTS if str(entry.get(s) or "").strip()]
    ids, checks = entry.get("ids") or (), entry.get("checks") or ()
    problem = (
        "needs ids, checks, or one of given, not_checkable, missing"
        if not (texts or ids or checks)
        else "has checks and a statement's state"
        if checks and (texts or ids)
        else f"has more than one state: {', '.join(texts)}"
        if len(texts) > 1
        else "is partial without the ids that measure the part"
        if texts == ["partial"] and not ids
        else "has ids and a state without rows"
        if ids and texts and texts[0] in ("not_checkable", "missing")
        else ""
    )
    if unknown or absent or problem:
        parts = [
            unknown and f"unknown field {', '.join(sorted(unknown))}",
            absent and f"no {', '.join(absent)}",
            problem,
        ]
        raise CoverageError(f"{where}: " + "; ".join(filter(None, parts)))
    ids = ids or checks
    if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
        raise CoverageError(f"{where}: ids and checks are lists of registry ids")
    return Item(
        paper,
        *(str(entry[f]).strip() for f in ITEM_FIELDS),
        tuple(ids),
        *(str(entry.get(s) or "").strip() for s in STATE_TEXTS),
        bool(checks),
    )


def load_coverage(path) -> list[Item]:
    """The index's items, paper by paper in the file's order; a malformed item is an error
    naming it."""
    path = Path(path)
    papers = yamlfile.load(path) or {}
    if not isinstance(papers, dict):
        raise CoverageError(f"{path.name}: expected a mapping of papers to lists of items")
    items = []
    for paper, entries in papers.items():
        if not isinstance(entries, list):
            raise CoverageError(f"{path.name}, {paper}: expected a list of items")
        for n, entry in enumerate(entries, 1):
            name = entry.get("item") if isinstance(entry, dict) else None
            items.append(_item(paper, entry, f"{path.name}, {paper} item {n} ({name})"))
    return items


def problems(items: list[Item], registry: dict) -> list[str]:
    """Where the index and the registry ({id: entry}) disagree: an id that is no entry, an
    entry under no item or under two, an id filed under another paper, a `checks` entry that
    is not of kind check; and an item called tested that no row can test (refused())."""
    found = []
    seen: dict[str, str] = {}
    for it in items:
        label = f"{it.paper} {it.item}"
        for claim_id in it.ids:
            if claim_id not in registry:
                found.append(f"{label}: {claim_id} is not a registry entry")
            elif not claim_id.startswith(f"{it.paper}."):
                found.append(f"{label}: {claim_id} belongs to another paper")
            elif it.checks and registry[claim_id].kind != "check":
                found.append(f"{label}: {claim_id} is {registry[claim_id].kind}, not a check")
            if claim_id in seen:
                found.append(f"{claim_id} is under two items: {seen[claim_id]} and {label}")
            seen[claim_id] = label
        if it.state == "tested" and all(i in registry for i in it.ids):
            found += [f"{label}: {why}" for why in [refused(it, registry)] if why]
    found += [
        f"{i} is under no item of the coverage index" for i in sorted(set(registry) - set(seen))
    ]
    return found


def refused(item: Item, registry: dict) -> str:
    """Why an item cannot be tested by its rows, or "": its entries are checks alone (a
    pipeline check tests no statement), or each one that measures cannot fail in any case."""
    entries = [registry[i] for i in item.ids]
    measuring = [e for e in entries if e.kind in MEASURING]
    if not measuring:
        return "called tested through check entries alone (mark it partial, given or missing)"
    if all(e.cannot_fail and e.cannot_fail.every_case for e in measuring):
        return "called tested, but none of its rows can fail (mark it partial and say which part)"
    return ""


def counts(items: list[Item]) -> list[dict]:
    """Per paper, then for all four: items in each state, and the share tested of those in
    the share's denominator (tested, partial, missing)."""
    papers = list(dict.fromkeys(it.paper for it in items))
    rows = []
    for paper in [*papers, "all"]:
        mine = [it for it in items if paper in ("all", it.paper) and not it.checks]
        n = {s: sum(it.state == s for it in mine) for s in STATES}
        in_share = sum(n[s] for s in IN_SHARE)
        share = n["tested"] / in_share if in_share else 0.0
        rows.append({"paper": paper, "items": len(mine), **n, "in_share": in_share, "share": share})
    return rows


HEADER = [
    "paper",
    "items",
    "tested",
    "partial",
    "missing",
    "tested / (tested + partial + missing)",
    "given",
    "not checkable",
]


def table_rows(items: list[Item]) -> list[list[str]]:
    return [
        [
            r["paper"],
            str(r["items"]),
            str(r["tested"]),
            str(r["partial"]),
            str(r["missing"]),
            f"{r['share']:.1%}",
            str(r["given"]),
            str(r["not_checkable"]),
        ]
        for r in counts(items)
    ]


def share_sentence(items: list[Item]) -> str:
    """The share in one sentence, for the README."""
    r = counts(items)[-1]
    return (
        f"Coverage: the ledger tests {r['tested']} of the papers' "
        f"{r['in_share']} checkable statements ({r['share']:.1%}); "
        f"{r['partial']} are tested in part and {r['missing']} not yet, and {r['given']} "
        f"hypotheses or set-ups and {r['not_checkable']} statements with no finite test lie "
        "outside the share (docs/ledger.md)."
    )
