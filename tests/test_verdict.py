"""The ledger as people read it: claims.md renders as a table whatever a cell holds, every paper
is in the headline, and the report's pages and a notebook's reading carry the rows."""

import re
from pathlib import Path

import pandas as pd
from docutils.core import publish_parts
from markdown_it import MarkdownIt

from l2relu.ledger import claims, verdict
from l2relu.ledger.registry import load_registry, registry_files

REPO = Path(__file__).resolve().parents[1]
REGISTRY = load_registry(registry_files(REPO / "workflow/claims"))
DEFAULT = pd.read_csv(REPO / "reference/default/claims.csv", dtype=str, keep_default_na=False)


def _hostile_ledger():
    """The default reference ledger with cells that Markdown and reST would read as markup."""
    ledger = DEFAULT.copy()
    ledger.loc[0, "claim"] = "||W||_F^2 * 2 | a_b `code` <tag> [link] ~~x~~ $x$ {{ y }} {% z %}"
    ledger.loc[0, "status"] = "fail"
    return ledger


def _markdown_tables(text):
    """Every table of `text` as a GitHub-flavoured renderer reads it: rows of cell texts."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables, row, cell = [], None, None
    for tok in tokens:
        if tok.type == "table_open":
            tables.append([])
        elif tok.type == "tr_open":
            row = []
        elif tok.type == "tr_close":
            tables[-1].append(row)
        elif tok.type in ("th_open", "td_open"):
            cell = []
        elif tok.type in ("th_close", "td_close"):
            row.append("".join(cell))
        elif tok.type == "inline" and cell is not None:
            cell.append(
                "".join(c.content for c in tok.children if c.type in ("text", "code_inline"))
            )
    return tables


def test_claims_md_renders_every_not_passing_row_with_its_status():
    ledger = _hostile_ledger()
    tables = _markdown_tables(verdict.claims_markdown(ledger))
    counts, not_passing, *_ = tables
    header, *rows = not_passing
    assert len(rows) == int((claims.primary(ledger).status != "pass").sum())
    assert all(len(r) == len(header) for r in rows)
    status = header.index("status")
    first = claims.primary(ledger)
    # a row read on two networks adds the other's status in brackets
    assert [r[status].split(" (")[0] for r in rows] == list(first.status[first.status != "pass"])
    # the hostile cell reads as written, not as columns or emphasis
    assert rows[0][header.index("claim")] == ledger.loc[0, "claim"]


def test_an_unescaped_pipe_would_break_the_table():
    """The parser the test above trusts does see the breakage it guards against."""
    text = "| a | b |\n|---|---|\n| ||W|| | x |\n"
    (table,) = _markdown_tables(text)
    assert table[1] != ["||W||", "x"]


def test_every_paper_is_in_the_headline_even_without_empirical_claims():
    (counts, *_) = _markdown_tables(verdict.claims_markdown(DEFAULT))
    papers = [r[0] for r in counts[1:]]
    assert papers == list(dict.fromkeys(DEFAULT.target.str.split("_").str[0]))
    chen = dict(zip(counts[0], counts[papers.index("chen2024") + 1], strict=True))
    assert [chen[h] for h in verdict.VERDICT_HEADER[1:6]] == ["0"] * 5
    first = claims.primary(DEFAULT)  # each claim-case once, at its primary reading
    exact = ((first.kind == "exact") & first.target.str.startswith("chen2024")).sum()
    assert exact > 0 and chen["exact statements holding"].endswith(f" of {exact}")


def _visible_text(rst, part="html_body"):
    """What the report shows of a generated page, rendered as Snakemake renders it (Jinja, then
    docutils' HTML: html_body for the landing page, body for a caption), tags stripped."""
    from jinja2 import Environment

    html = publish_parts(Environment().from_string(rst).render(), writer="html")[part]
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_landing_page_opens_on_the_verdict_and_carries_every_figures_rows():
    docs = {t: f"{t.split('_')[0]} Fig. X: what {t} shows" for t in DEFAULT.target.unique()}
    ledger = _hostile_ledger()
    text = _visible_text(verdict.landing_rst(ledger, REGISTRY, docs))
    assert text.startswith("Replication report: the verdict Empirical claims")
    for paper_row in verdict.verdict_counts(ledger):
        assert " ".join(paper_row) in text
    assert text.index("Claims not replicated") < text.index("Every figure")
    assert "||W||_F^2 * 2 | a_b `code` <tag>" in text.replace("&lt;", "<").replace("&gt;", ">")
    assert "{{ y }} {% z %}" in text
    # the not-replicated table quotes the paper's words
    failing = claims.primary(DEFAULT)[lambda t: t.status == "fail"].iloc[0]
    assert " ".join(REGISTRY[failing.claim_id].quote.split()[:6]) in text


def test_a_caption_ends_with_its_figures_rows():
    rows = DEFAULT[DEFAULT.target == "jacot2023_fig1"]
    text = _visible_text(verdict.caption_rst("A depth-13 network.", rows), "body")
    assert text.startswith("A depth-13 network. Ledger rows")
    assert (
        "Of this target's 12 ledger rows (primary readings; 11 more rows read them otherwise), "
        "6 replicated, 1 mixed, 3 failed, 2 inconclusive; 2 reading-dependent." in text
    )
    for r in rows.itertuples():
        assert f"{r.status} ({verdict.held(r)} seeds) {r.claim}" in text
    # a row read on two networks says what the other one read
    twice = rows[rows.network.fillna("") != ""]
    assert len(twice)
    for r in twice.itertuples():
        other = "schedule's" if r.network == "polished" else "polished"
        assert f"({other} network: {r.other_status}; {r.optimization})" in text


def test_a_notebooks_reading_names_each_row_not_replicated_and_only_those():
    rows = DEFAULT[DEFAULT.target == "jacot2023_fig1"]
    text = verdict.reading(rows)
    first = claims.primary(rows)  # the reading names the primary rows
    failing = first[first.status != "pass"]
    assert len(failing)
    for r in failing.itertuples():
        assert r.claim in text
    for r in first[first.status == "pass"].itertuples():
        assert r.claim not in text
    passing = DEFAULT[DEFAULT.target == "timor2022_fig2"]
    assert set(passing.status) == {"pass"}
    assert "Every claim that can fail here holds" in verdict.reading(passing)


def test_rows_that_cannot_fail_are_neither_listed_as_not_replicated_nor_counted_as_holding():
    rows = DEFAULT[DEFAULT.target == "timor2022_theory"]
    cannot = claims.primary(rows)[lambda t: t.status == "cannot_fail"]
    assert len(cannot) and "exact" in set(cannot.kind)
    text = verdict.reading(rows)
    assert f"{len(cannot)} cannot fail here" in text
    for r in cannot.itertuples():
        assert r.claim not in text
    (counts, *_) = _markdown_tables(verdict.claims_markdown(DEFAULT))
    timor = dict(zip(counts[0], next(r for r in counts if r[0] == "timor2022"), strict=True))
    exact = int((cannot.kind == "exact").sum())
    assert timor["exact statements holding"].endswith(f"({exact} more cannot fail here)")
    assert timor["cannot fail here"] == str(int((cannot.kind == "empirical").sum()))


def test_a_notebooks_analysis_quotes_the_paper_for_each_claim():
    rows = DEFAULT[DEFAULT.target == "jacot2022_fig2"]
    md = verdict.analysis_markdown(rows, REGISTRY)
    (table,) = _markdown_tables(md)
    assert len(table) == len(rows) + 1
    for claim_id in rows.claim_id.unique():
        assert claim_id in md
    assert md.index("The paper's words") < md.index("The ledger rows") < md.index("Reading")


def test_the_headline_counts_statuses():
    ledger = claims.ledger([DEFAULT])
    n = (claims.primary(ledger).kind == "empirical").sum()
    assert verdict.headline(ledger).startswith(
        f"Empirical claims (training or random data, over seeds): {n} in all"
    )


def test_inconclusive_rows_are_counted_apart_and_show_their_exclusions():
    ledger = DEFAULT.copy()
    first = ledger.index[ledger.kind == "empirical"][0]
    ledger.loc[first, ["status", "n_hold", "n_excluded"]] = ["inconclusive", "1", "2"]
    assert (
        verdict.held(ledger.loc[first]) == f"1/{int(ledger.loc[first, 'n_seeds']) - 2}, 2 excluded"
    )
    before = int((claims.primary(DEFAULT).status == "inconclusive").sum())
    assert f", {before + 1} inconclusive" in verdict.headline(ledger)
    counts, not_passing, *_ = _markdown_tables(verdict.claims_markdown(ledger))
    paper = ledger.loc[first, "target"].split("_")[0]
    row = next(r for r in counts[1:] if r[0] == paper)
    primary = claims.primary(DEFAULT)
    of_paper = primary.target.str.startswith(paper) & (primary.kind == "empirical")
    already = int((primary[of_paper].status == "inconclusive").sum())
    assert row[counts[0].index("inconclusive")] == str(already + 1)
    assert not_passing[1][not_passing[0].index("status")] == "inconclusive"


def test_a_landing_page_where_every_row_passes_renders_without_an_empty_table():
    ledger = DEFAULT[DEFAULT.status == "pass"]
    docs = {t: f"{t.split('_')[0]} Fig. X: what" for t in ledger.target.unique()}
    text = _visible_text(verdict.landing_rst(ledger, REGISTRY, docs))
    assert "Claims not replicated (0) None: every row passes." in text
    assert "ERROR" not in text and "Insufficient data" not in text


def test_the_headline_counts_primary_readings_and_lists_the_reading_dependent_claims():
    ledger = claims.primary(DEFAULT).assign(reading="", primary="True", robustness="one reading")
    first = ledger.index[(ledger.kind == "empirical") & (ledger.status == "pass")][0]
    other = ledger.loc[[first]].assign(reading="looser", primary="False", status="fail")
    ledger.loc[first, ["reading", "robustness"]] = "tighter", "reading-dependent"
    other["robustness"] = "reading-dependent"
    both = pd.concat([ledger, other], ignore_index=True)
    # the extra reading's fail is counted nowhere; the claim is counted once, as dependent
    k = verdict.VERDICT_HEADER.index("reading-dependent")
    assert verdict.verdict_counts(both) == [
        [*row[:k], "1" if row[0] == verdict.paper_of(ledger.target[first]) else "0", *row[k + 1 :]]
        for row in verdict.verdict_counts(ledger)
    ]
    assert "; 1 of them reading-dependent." in verdict.headline(both)
    *_, dependent = _markdown_tables(verdict.claims_markdown(both))
    header, *rows = dependent
    assert [r[header.index("reading")] for r in rows] == ["tighter (primary)", "looser"]
    assert [r[header.index("status")] for r in rows] == ["pass", "fail"]


def test_rows_kept_from_a_ledger_before_readings_count_as_primary():
    first = claims.primary(DEFAULT)
    mixed = pd.concat([first.iloc[:10].assign(reading="", primary=""), first.iloc[10:]])
    assert verdict.verdict_counts(mixed) == verdict.verdict_counts(DEFAULT)
    assert len(claims.primary(mixed)) == len(first)


def test_rows_of_a_ledger_without_the_primary_column_count_as_primary_when_merged():
    first = claims.primary(DEFAULT)
    old = first.iloc[:10].drop(columns=["reading", "primary", "robustness"])
    mixed = claims.ledger([old, first.iloc[10:]])  # the old rows' primary cells are missing
    assert len(claims.primary(mixed)) == len(first)
    assert verdict.verdict_counts(mixed) == verdict.verdict_counts(DEFAULT)
