"""The README's verdict, written from the default reference ledger so that no count or
status there is typed by hand: `python -m l2relu.ledger.readme` rewrites the part of README.md
between its markers, `python -m l2relu.ledger.readme --check` says whether it is current."""

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

from l2relu.ledger import verdict
from l2relu.ledger.claims import STATUSES, primary
from l2relu.ledger.registry import Claim, load_registry, registry_files

BEGIN = (
    "<!-- verdict: written by `python -m l2relu.ledger.readme` from reference/default; "
    "do not edit -->"
)
END = "<!-- end of the verdict -->"


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
    failing = dict.fromkeys(first.claim_id[first.status != "pass"])
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


def section(ledger: pd.DataFrame, registry: dict[str, Claim]) -> str:
    """The README's generated verdict: the counts per paper, then each claim not replicated."""
    lines = [BEGIN, ""]
    lines += verdict.md_table(verdict.VERDICT_HEADER, verdict.verdict_counts(ledger))
    lines += ["", "Not replicated (primary readings; every case, reading and value in the notes):"]
    lines += ["", *not_replicated(ledger, registry), "", END]
    return "\n".join(lines)


def rewritten(readme: str, generated: str) -> str:
    """`readme` with its verdict markers' part replaced by `generated`."""
    if readme.count(BEGIN) != 1 or readme.count(END) != 1:
        raise ValueError("README.md: its verdict markers are missing or repeated")
    head, rest = readme.split(BEGIN)
    return head + generated + rest.split(END, 1)[1]


def current(repo: Path) -> tuple[str, str]:
    """README.md as it is and as the default reference ledger writes it."""
    registry = load_registry(registry_files(repo / "workflow/claims"))
    readme = (repo / "README.md").read_text()
    return readme, rewritten(readme, section(default_rows(repo), registry))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("--repo", type=Path, default=Path("."))
    args = parser.parse_args(argv)
    readme, written = current(args.repo)
    if args.check:
        if readme != written:
            print(
                "README.md's verdict is not the reference ledger's: python -m l2relu.ledger.readme"
            )
            return 1
        return 0
    (args.repo / "README.md").write_text(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
