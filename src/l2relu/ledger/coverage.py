"""The coverage index, workflow/claims/coverage.yaml: every figure, table, stated experimental
number and numbered statement of the four papers with a numerical consequence, in each paper's
order, and what the ledger does with it. Each item has exactly one of
  ids            the registry entries that measure it (every registry id is under one item)
  not_checkable  why no finite numerical test exists (a referee's reason, not a cost)
  missing        what a ledger row would measure: checkable, not measured yet
so that a reader sees what share of each paper the ledger judges, and what it leaves out. An
item with `checks` instead holds registry entries of kind check that measure the pipeline's own
runs (no divergence, no collapse) rather than a statement: it is placed but never counted."""

from dataclasses import dataclass
from pathlib import Path

import yaml

ITEM_FIELDS = ("item", "where", "statement")
STATES = ("ids", "not_checkable", "missing", "checks")
COUNTED = STATES[:3]  # a `checks` item is the pipeline's, not the paper's


class CoverageError(ValueError):
    pass


@dataclass(frozen=True)
class Item:
    paper: str
    item: str  # as the paper numbers it: "Fig. 2 caption", "Prop. 14"
    where: str
    statement: str  # the paper's words
    ids: tuple[str, ...] = ()  # the registry entries under it (its `ids` or its `checks`)
    not_checkable: str = ""
    missing: str = ""
    checks: bool = False  # the pipeline's checks, not a statement of the paper

    @property
    def state(self) -> str:
        return "checks" if self.checks else next(s for s in COUNTED if getattr(self, s))


def _item(paper: str, entry, where: str) -> Item:
    if not isinstance(entry, dict):
        raise CoverageError(f"{where}: expected a mapping with {', '.join(ITEM_FIELDS)}")
    unknown = set(entry) - set(ITEM_FIELDS) - set(STATES)
    absent = [f for f in ITEM_FIELDS if not str(entry.get(f) or "").strip()]
    states = [s for s in STATES if entry.get(s)]
    if unknown or absent or len(states) != 1:
        raise CoverageError(
            f"{where}: "
            + "; ".join(
                filter(
                    None,
                    [
                        unknown and f"unknown field {', '.join(sorted(unknown))}",
                        absent and f"no {', '.join(absent)}",
                        len(states) != 1 and f"needs exactly one of {', '.join(STATES)}",
                    ],
                )
            )
        )
    ids = entry.get("ids") or entry.get("checks") or ()
    if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
        raise CoverageError(f"{where}: ids and checks are lists of registry ids")
    return Item(
        paper,
        *(str(entry[f]).strip() for f in ITEM_FIELDS),
        tuple(ids),
        str(entry.get("not_checkable") or "").strip(),
        str(entry.get("missing") or "").strip(),
        bool(entry.get("checks")),
    )


def load_coverage(path) -> list[Item]:
    """The index's items, paper by paper in the file's order; a malformed item is an error
    naming it."""
    path = Path(path)
    papers = yaml.safe_load(path.read_text()) or {}
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
    is not of kind check."""
    found = []
    seen: dict[str, str] = {}
    for it in items:
        for claim_id in it.ids:
            label = f"{it.paper} {it.item}"
            if claim_id not in registry:
                found.append(f"{label}: {claim_id} is not a registry entry")
            elif not claim_id.startswith(f"{it.paper}."):
                found.append(f"{label}: {claim_id} belongs to another paper")
            elif it.checks and registry[claim_id].kind != "check":
                found.append(f"{label}: {claim_id} is {registry[claim_id].kind}, not a check")
            if claim_id in seen:
                found.append(f"{claim_id} is under two items: {seen[claim_id]} and {label}")
            seen[claim_id] = label
    found += [
        f"{i} is under no item of the coverage index" for i in sorted(set(registry) - set(seen))
    ]
    return found


def counts(items: list[Item]) -> list[dict]:
    """Per paper, then for all four: items, those with rows, those not checkable, those
    missing, and the shares with rows of all items and of the checkable ones."""
    papers = list(dict.fromkeys(it.paper for it in items))
    rows = []
    for paper in [*papers, "all"]:
        mine = [it for it in items if paper in ("all", it.paper) and not it.checks]
        n = {s: sum(it.state == s for it in mine) for s in COUNTED}
        checkable = len(mine) - n["not_checkable"]
        rows.append(
            {
                "paper": paper,
                "items": len(mine),
                "with_rows": n["ids"],
                "not_checkable": n["not_checkable"],
                "missing": n["missing"],
                "share_of_all": n["ids"] / len(mine) if mine else 0.0,
                "share_of_checkable": n["ids"] / checkable if checkable else 0.0,
            }
        )
    return rows


HEADER = [
    "paper",
    "items",
    "with ledger rows",
    "not checkable",
    "checkable, no row yet",
    "rows / all items",
    "rows / checkable items",
]


def table_rows(items: list[Item]) -> list[list[str]]:
    return [
        [
            r["paper"],
            str(r["items"]),
            str(r["with_rows"]),
            str(r["not_checkable"]),
            str(r["missing"]),
            f"{r['share_of_all']:.0%}",
            f"{r['share_of_checkable']:.0%}",
        ]
        for r in counts(items)
    ]
