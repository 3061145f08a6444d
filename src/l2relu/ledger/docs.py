"""The parts of the docs written from the ledger, so that no count or status there is typed
by hand: README.md's verdict (from the default reference ledger) and docs/ledger.md's coverage
table (from the coverage index). `python -m l2relu.ledger.docs` rewrites each between its
markers; `--check` says whether they are current."""

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

from l2relu.ledger import coverage, verdict
from l2relu.ledger.claims import STATUSES, primary
from l2relu.ledger.registry import Claim, load_registry, registry_files

BEGIN = (
    "<!-- verdict: written by `python -m l2relu.ledger.docs` from reference/default; "
    "do not edit -->"
)
END = "<!-- end of the verdict -->"
COVERAGE_BEGIN = (
    "<!-- coverage: written by `python -m l2relu.ledger.docs` from workflow/claims/coverage.yaml; "
    "do not edit -->"
)
COVERAGE_END = "<!-- end of the coverage -->"


def default_rows(repo: Path) -> pd.DataFrame:
    """The default reference's rows of the default build's targets (the reference also holds
    the opt-in studies', which the replication notes report)."""
    targets = yaml.safe_load((repo / "config/config.yaml").read_text())["targets"]
    ledger = pd.read_csv(repo / "reference/default/claims.csv")
    return ledger[ledger.target.isin(targets)]


def _summary(rows: pd.DataFrame) -> str:
    """A claim's primary rows in a few words: "failed in 2 cases, mixed in 1"."""
    counts = rows.status.value_counts()
    parts = [
        f"{verdict.STATUS_WORDS[s]} in {counts[s]} case{'s' if counts[s] > 1 else ''}"
        for s in STATUSES
        if s in counts
    ]
    if (rows.robustness == "reading-dependent").any():
        parts.append("reading-dependent")
    if (rows.optimization == "optimizer-dependent").any():
        parts.append("optimizer-dependent")
    return ", ".join(parts)


def not_replicated(ledger: pd.DataFrame, registry: dict[str, Claim]) -> list[str]:
    """One line per empirical claim or exact statement with a primary row that does not pass:
    its id, linked to its paper's replication notes, what the paper says, how its rows read."""
    first = primary(ledger)
    first = first[first.kind != "check"]
    failing = dict.fromkeys(first.claim_id[~first.status.isin(["pass", "cannot_fail"])])
    lines = []
    for claim_id in failing:
        paper = claim_id.split(".")[0]
        rows = first[first.claim_id == claim_id]
        lines.append(
            f"- [`{claim_id}`](docs/replication/{paper}.md) "
            f"({registry[claim_id].kind}): {verdict.md_escape(registry[claim_id].paper)}; "
            f"{_summary(rows)}"
        )
    return lines


def section(ledger: pd.DataFrame, registry: dict[str, Claim], items) -> str:
    """The README's generated verdict: the counts per paper, the share of the papers tested,
    then each claim not replicated."""
    lines = [BEGIN, ""]
    lines += verdict.md_table(verdict.VERDICT_HEADER, verdict.verdict_counts(ledger))
    lines += ["", coverage.share_sentence(items)]
    lines += ["", "Not replicated (primary readings; every case, reading and value in the notes):"]
    lines += ["", *not_replicated(ledger, registry), "", END]
    return "\n".join(lines)


def rewritten(text: str, generated: str, begin: str = BEGIN, end: str = END) -> str:
    """`text` with the part between its markers `begin` and `end` replaced by `generated`
    (which holds the markers)."""
    if text.count(begin) != 1 or text.count(end) != 1:
        raise ValueError(f"markers missing or repeated: {begin}")
    head, rest = text.split(begin)
    return head + generated + rest.split(end, 1)[1]


def current(repo: Path) -> tuple[str, str]:
    """README.md as it is and as the default reference ledger writes it."""
    registry = load_registry(registry_files(repo / "workflow/claims"))
    readme = (repo / "README.md").read_text()
    items = coverage.load_coverage(repo / "workflow/claims/coverage.yaml")
    return readme, rewritten(readme, section(default_rows(repo), registry, items))


def coverage_section(repo: Path) -> str:
    """docs/ledger.md's coverage table: the index's items counted, paper by paper."""
    items = coverage.load_coverage(repo / "workflow/claims/coverage.yaml")
    table = verdict.md_table(coverage.HEADER, coverage.table_rows(items))
    return "\n".join([COVERAGE_BEGIN, "", *table, "", COVERAGE_END])


def current_coverage(repo: Path) -> tuple[str, str]:
    """docs/ledger.md as it is and as the coverage index writes it."""
    ledger_doc = (repo / "docs/ledger.md").read_text()
    generated = coverage_section(repo)
    return ledger_doc, rewritten(ledger_doc, generated, COVERAGE_BEGIN, COVERAGE_END)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only say whether they are current")
    parser.add_argument("--repo", type=Path, default=Path("."))
    args = parser.parse_args(argv)
    files = {"README.md": current(args.repo), "docs/ledger.md": current_coverage(args.repo)}
    stale = [name for name, (text, written) in files.items() if text != written]
    if args.check:
        for name in stale:
            print(f"{name}: not what the ledger writes; run python -m l2relu.ledger.docs")
        return 1 if stale else 0
    for name in stale:
        (args.repo / name).write_text(files[name][1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
