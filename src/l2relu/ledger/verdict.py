"""The ledger as a person reads it: the headline (results/claims.md), the replication report's
landing page and figure captions (reStructuredText, which Snakemake's report renders), and the
reading a figure's notebook ends on. Everything here is generated from ledger rows and registry
entries, so that no verdict is typed twice."""

import re

import pandas as pd

from l2relu.ledger import coverage
from l2relu.ledger.claims import STATUSES, primary
from l2relu.ledger.registry import Claim

STATUS_WORDS = {
    "pass": "replicated",
    "mixed": "mixed",
    "fail": "failed",
    "inconclusive": "inconclusive",
    "cannot_fail": "cannot fail here",
}
STATUS_RULE = (
    "Over the seeds measured, a claim passes when its criterion holds in every one (for a "
    "claim the paper states of typical runs, in at least 80% of 5 or more), fails when it "
    "holds in at most 20%, and is mixed otherwise; it is inconclusive when too few seeds "
    "could be measured to read, fewer than 3 (or, where fewer were run, fewer than all); an "
    "exact statement or a check is never inconclusive: a value it could not measure fails. A "
    "case where the measure cannot fail whatever was trained (the registry says why) reads "
    "'cannot fail here'."
)
VERDICT_HEADER = [
    "paper",
    "empirical: replicated",
    "mixed",
    "failed",
    "inconclusive",
    "cannot fail here",
    "reading-dependent",
    "exact statements holding",
    "checks holding",
]
# a row as the report and the notebooks show it
ROW_HEADER = ["claim", "reading", "paper", "reproduced", "criterion", "seeds holding", "status"]
READINGS_RULE = (
    "Where the paper's words allow more than one way to measure, every reading is a row; the "
    "counts are of each claim's primary reading, and a claim is reading-dependent when another "
    "reading gives another status."
)


def paper_of(target: str) -> str:
    return target.split("_")[0]


def figure_title(doc: str) -> tuple[str, str]:
    """A target's description ("jacot2023 Fig. 1: singular values ...") as (figure, what)."""
    figure, _, what = doc.split(" ", 1)[1].partition(": ")
    return figure, what


# ---- counts ------------------------------------------------------------------------------------
def _dependent(rows: pd.DataFrame) -> int:
    """How many of these (primary) rows' claims are reading-dependent."""
    return len(_dependent_rows(rows))


def _holding(rows: pd.DataFrame) -> str:
    """'16 of 18': rows that pass of those that can fail, and those that cannot beside them."""
    cannot = int((rows.status == "cannot_fail").sum())
    text = f"{int((rows.status == 'pass').sum())} of {len(rows) - cannot}"
    return text + (f" ({cannot} more cannot fail here)" if cannot else "")


def verdict_counts(ledger: pd.DataFrame) -> list[list[str]]:
    """One row per paper, in the ledger's order: its empirical claims replicated, mixed, failed
    and inconclusive (primary readings) and how many of them are reading-dependent, then its
    exact statements and checks holding, of how many."""
    rows = []
    ledger = primary(ledger)
    for paper, g in ledger.groupby(ledger.target.map(paper_of), sort=False):
        empirical = g[g.kind == "empirical"]
        counts = [str(int((empirical.status == s).sum())) for s in STATUSES]
        counts.append(str(_dependent(empirical)))
        holding = [_holding(g[g.kind == k]) for k in ("exact", "check")]
        rows.append([paper, *counts, *holding])
    return rows


def headline(ledger: pd.DataFrame) -> str:
    """The empirical claims in one sentence."""
    empirical = primary(ledger)[lambda t: t.kind == "empirical"]
    n = {s: int((empirical.status == s).sum()) for s in STATUSES}
    return (
        f"Empirical claims (training or random data, over seeds): {len(empirical)} in all, "
        f"{n['pass']} replicated, {n['mixed']} mixed, {n['fail']} failed, "
        f"{n['inconclusive']} inconclusive"
        + (f", {n['cannot_fail']} that cannot fail here" if n["cannot_fail"] else "")
        + f"; {_dependent(empirical)} of them reading-dependent."
    )


def held(r) -> str:
    """Seeds holding of seeds measured, and those left out: "2/3", "1/2, 1 excluded"."""
    excluded = getattr(r, "n_excluded", None)  # a ledger written before it has no such column
    excluded = 0 if excluded is None or pd.isna(excluded) or excluded == "" else int(excluded)
    text = f"{r.n_hold}/{int(r.n_seeds) - excluded}"
    return text + (f", {excluded} excluded" if excluded else "")


def _robustness(r) -> str:
    """A row's robustness ("" in a ledger written before readings existed)."""
    value = getattr(r, "robustness", "")
    return "" if pd.isna(value) else str(value)


def _reading_cell(r) -> str:
    name = getattr(r, "reading", "")
    name = "" if pd.isna(name) else str(name)
    mark = " (primary)" if name and str(getattr(r, "primary", "")).lower() == "true" else ""
    return name + mark


def row_cells(r) -> list[str]:
    return [
        r.claim,
        _reading_cell(r),
        r.paper_value,
        r.reproduced_value,
        r.tolerance,
        held(r),
        str(r.status) + _other_network(r),
    ]


def _other_network(r) -> str:
    """Where a row reads two networks (claims.evaluate_networks), the other one's status and
    whether the verdict depends on the network: " (polished network: pass; optimizer-
    dependent)"; "" elsewhere, and in a ledger written before the column existed."""
    network = getattr(r, "network", "")
    if not isinstance(network, str) or not network:
        return ""
    other = "schedule's" if network == "polished" else "polished"
    return f" ({other} network: {r.other_status}; {r.optimization})"


# ---- Markdown (claims.md, notebooks) -----------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_|<\[\]~$])")


def md_escape(text) -> str:
    """A table cell's text as itself: |, *, _ and the like would split or format it."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]


def claims_markdown(ledger: pd.DataFrame, items=None) -> str:
    """results/claims.md: the verdict per paper (every paper, whatever kinds it has), then every
    row that does not pass, and with the coverage index's `items` how much of the papers the
    ledger covers."""
    lines = ["# Replication ledger", "", f"**{headline(ledger)}**", ""]
    lines += md_table(VERDICT_HEADER, verdict_counts(ledger))
    for kind, title in (("exact", "Exact statements"), ("check", "Checks")):
        rows = primary(ledger)[lambda t, k=kind: t.kind == k]
        lines += ["", f"**{title}**: {int((rows.status == 'pass').sum())} of {len(rows)} hold."]
    lines += ["", STATUS_RULE, "", READINGS_RULE]
    first = primary(ledger)
    not_passing = first[first.status != "pass"]
    if len(not_passing):
        lines += ["", "## Claims not replicated", ""]
        lines += md_table(
            ["claim id", "kind", *ROW_HEADER, "readings"],
            [[r.claim_id, r.kind, *row_cells(r), _robustness(r)] for r in not_passing.itertuples()],
        )
    dependent = _dependent_rows(ledger)
    if len(dependent):
        lines += ["", "## Claims whose verdict depends on the reading", ""]
        lines += md_table(
            ["claim id", *ROW_HEADER], [[r.claim_id, *row_cells(r)] for r in dependent.itertuples()]
        )
    if items:
        lines += coverage_markdown(items)
    return "\n".join(lines) + "\n"


COVERAGE_RULE = (
    "An item is a figure's claim, a table, a stated experimental number or a numbered statement "
    "with a numerical consequence (workflow/claims/coverage.yaml, in each paper's order). It is "
    "tested (rows that measure it and can fail), partial (rows measure a part, or cannot fail), "
    "given (a hypothesis or set-up the pipeline builds), not checkable (no finite test exists) or "
    "missing (checkable, no row yet). The share is tested / (tested + partial + missing)."
)


def coverage_markdown(items) -> list[str]:
    """The coverage section of claims.md: per paper, how many of its items the ledger judges,
    then each checkable item with no row yet and what a row would measure."""
    lines = ["", "## Coverage of the papers", "", COVERAGE_RULE, ""]
    lines += md_table(coverage.HEADER, coverage.table_rows(items))
    missing = [it for it in items if it.state == "missing"]
    if missing:
        lines += ["", "### Checkable, no row yet", ""]
        lines += md_table(
            ["paper", "item", "where", "what a row would measure"],
            [[it.paper, it.item, it.where, it.missing] for it in missing],
        )
    return lines


def _dependent_rows(ledger: pd.DataFrame) -> pd.DataFrame:
    """Every reading's row of the reading-dependent claims."""
    if "robustness" not in ledger:
        return ledger.iloc[:0]
    return ledger[ledger.robustness == "reading-dependent"]


def reading(rows: pd.DataFrame) -> str:
    """Two or three sentences that read a target's rows: how many hold, and each row that does
    not, with what it measured against what."""
    everything, rows = rows, primary(rows)
    n = {s: int((rows.status == s).sum()) for s in STATUSES}
    counted = ", ".join(f"{n[s]} {STATUS_WORDS[s]}" for s in STATUSES if n[s])
    text = f"Of this target's {len(rows)} ledger rows, {counted}."
    if len(everything) > len(rows):
        text = (
            f"Of this target's {len(rows)} ledger rows (primary readings; "
            f"{len(everything) - len(rows)} more rows read them otherwise), {counted}; "
            f"{_dependent(rows)} reading-dependent."
        )
    not_passing = rows[~rows.status.isin(["pass", "cannot_fail"])]
    if not len(not_passing):
        every = "Every claim that can fail here holds as the criterion reads it."
        return f"{text} {every} {STATUS_RULE}"
    shown = [
        f"{r.claim} ({STATUS_WORDS[r.status]}: {r.reproduced_value} against {r.tolerance}, "
        f"{held(r)} seeds holding)"
        for r in not_passing.itertuples()
    ]
    return f"{text} Not replicated: {'; '.join(shown)}. {STATUS_RULE}"


def analysis_markdown(rows: pd.DataFrame, registry: dict[str, Claim]) -> str:
    """The end of a figure's notebook: the paper's words for each claim, the target's ledger
    rows, and their reading."""
    lines = ["## The paper's words", ""]
    for claim_id in dict.fromkeys(rows.claim_id):
        claim = registry[claim_id]
        lines += [f"- **{claim_id}** ({claim.kind}; {md_escape(claim.where)}):", ""]
        lines += [f"  > {md_escape(claim.quote)}", ""]
    lines += ["## The ledger rows", ""]
    lines += md_table(ROW_HEADER, [row_cells(r) for r in rows.itertuples()])
    lines += ["", "## Reading", "", md_escape(reading(rows))]
    return "\n".join(lines) + "\n"


# ---- reStructuredText (the report) -------------------------------------------------------------
_RST_SPECIAL = re.compile(r"([\\`*_|<>\[\]:])")


def rst_escape(text) -> str:
    return _RST_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def rst_table(header: list[str], rows: list[list[str]], widths=None) -> list[str]:
    """A list-table (none where there are no rows: docutils refuses a header alone)."""
    if not rows:
        return []
    lines = [".. list-table::", "   :header-rows: 1"]
    if widths:
        lines.append(f"   :widths: {' '.join(map(str, widths))}")
    lines.append("")
    for row in [header, *rows]:
        cells = [rst_escape(c) for c in row]
        lines.append(f"   * - {cells[0]}")
        lines += [f"     - {c}" for c in cells[1:]]
    return [*lines, ""]


def _raw(lines: list[str]) -> str:
    """Jinja renders captions before docutils does: {{ or {% in a row must stay text."""
    return "{% raw %}\n" + "\n".join(lines) + "\n{% endraw %}\n"


def caption_rst(description: str, rows: pd.DataFrame) -> str:
    """A figure's caption: its description, then its ledger rows, one item each (the caption
    sits in a narrow column, where a table of six columns would not read), a row read on two
    networks with the other network's status after it."""
    lines = ["", f"**Ledger rows**: {rst_escape(reading(rows).split('.')[0])}.", ""]
    for r in rows.itertuples():
        shown = _reading_cell(r)
        lines.append(
            f"- **{r.status}** ({rst_escape(held(r))} seeds) {rst_escape(r.claim)}"
            + (f" [{rst_escape(shown)}]" if shown else "")
            + ". "
            f"Paper: {rst_escape(r.paper_value)}. Reproduced: {rst_escape(r.reproduced_value)}; "
            f"criterion {rst_escape(r.tolerance)}."
            + (f" {rst_escape(_other_network(r).strip())}" if _other_network(r) else "")
        )
    return description.rstrip() + "\n" + _raw([*lines, ""])


# Snakemake's report shows the landing page in a narrow column centred in a box of one screen's
# height, which clips the top of a page taller than the screen: this page takes the width the
# screen leaves beside the menu, from the top, with the rule graph wrapping below it.
_LANDING_ID = "replication-report-the-verdict"
LANDING_STYLE = f"""\
.. raw:: html

   <style>
   div.overflow-auto:has(#{_LANDING_ID}) {{ align-items: flex-start; justify-content: flex-start; }}
   div.flex:has(> div > div > #{_LANDING_ID}) {{ flex-wrap: wrap; min-width: 0; }}
   div.py-2:has(> div > #{_LANDING_ID}) {{ flex: 1 1 100%; min-width: 0; }}
   div.prose:has(> #{_LANDING_ID}) {{ max-width: none; }}
   #{_LANDING_ID} td {{ overflow-wrap: anywhere; }}
   </style>
"""


def _heading(text: str, mark: str) -> list[str]:
    return [text, mark * len(text), ""]


def landing_rst(
    ledger: pd.DataFrame, registry: dict[str, Claim], docs: dict[str, str], items=None
) -> str:
    """The report's first page: the verdict per paper, with the coverage index's `items` how
    much of each paper the ledger covers, every claim not replicated with the paper's words,
    then every figure's rows, grouped by paper. `docs`: each target's description, "<paper>
    <figure>: <what>"."""
    lines = _heading("Replication report: the verdict", "=")
    lines += [LANDING_STYLE, rst_escape(headline(ledger)), ""]
    lines += rst_table(VERDICT_HEADER, verdict_counts(ledger))
    lines += [rst_escape(STATUS_RULE), "", rst_escape(READINGS_RULE), ""]
    if items:
        lines += [f"**Coverage of the papers.** {rst_escape(COVERAGE_RULE)}", ""]
        lines += rst_table(coverage.HEADER, coverage.table_rows(items))
    first = primary(ledger)
    not_passing = first[first.status != "pass"]
    lines += _heading(f"Claims not replicated ({len(not_passing)})", "-")
    if not len(not_passing):
        lines += ["None: every row passes.", ""]
    lines += rst_table(
        ["claim id", "the paper's words", "claim", "reproduced", "criterion", "seeds", "status"],
        [
            [
                r.claim_id,
                f"{registry[r.claim_id].quote} ({registry[r.claim_id].where})",
                r.claim + (f" [{_reading_cell(r)}]" if _reading_cell(r) else ""),
                r.reproduced_value,
                r.tolerance,
                held(r),
                r.status + (", reading-dependent" if _robustness(r) == "reading-dependent" else ""),
            ]
            for r in not_passing.itertuples()
        ],
        widths=[14, 26, 22, 12, 10, 6, 6],
    )
    dependent = _dependent_rows(ledger)
    claims_dependent = dependent.groupby(["claim_id", "claim"], sort=False).ngroups
    lines += _heading(f"Claims whose verdict depends on the reading ({claims_dependent})", "-")
    if not claims_dependent:
        lines += ["None: every reading of a claim gives its primary's status.", ""]
    lines += rst_table(
        ["claim id", *ROW_HEADER],
        [[r.claim_id, *row_cells(r)] for r in dependent.itertuples()],
        widths=[14, 22, 12, 12, 14, 10, 8, 8],
    )
    lines += _heading("Every figure's rows", "-")
    for paper, targets in ledger.groupby(ledger.target.map(paper_of), sort=False):
        lines += _heading(paper, "~")
        for target, rows in targets.groupby("target", sort=False):
            figure, what = figure_title(docs[target])
            lines += [f"**{rst_escape(f'{paper} — {figure}: {what}')}**", ""]
            lines += rst_table(ROW_HEADER, [row_cells(r) for r in rows.itertuples()])
    return _raw(lines)


# ---- files -------------------------------------------------------------------------------------
def read_rows(path) -> pd.DataFrame:
    """Ledger rows as written, every cell as its text."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def notebook_analysis(rows_path, registry_path) -> str:
    """analysis_markdown of a target's rows file and its paper's registry file."""
    from l2relu.ledger.registry import load_registry

    return analysis_markdown(read_rows(rows_path), load_registry([registry_path]))
