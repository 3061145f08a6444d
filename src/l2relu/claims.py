"""The replication ledger: one row per number or property a paper states, measured on this
run's outputs. Every row is made by one of the checks below, which decide pass or fail."""

import math

import pandas as pd

COLUMNS = ["target", "claim", "paper_value", "reproduced_value", "tolerance", "status"]


def _fmt(value, fmt: str) -> str:
    if isinstance(value, str):
        return value
    if not _finite(value):
        return "not measured" if value is None else str(value)
    return fmt.format(value)


def _finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _row(target, claim, paper_value, reproduced_value, tolerance, passed) -> dict:
    return {
        "target": target,
        "claim": claim,
        "paper_value": paper_value,
        "reproduced_value": reproduced_value,
        "tolerance": tolerance,
        "status": "pass" if passed else "fail",
    }


def within(
    target, claim, paper, measured, tol, fmt="{:.4g}", paper_text=None, measured_text=None
) -> dict:
    """Pass when |measured - paper| <= tol."""
    ok = _finite(measured) and abs(measured - paper) <= tol
    return _row(
        target,
        claim,
        paper_text or _fmt(paper, fmt),
        measured_text or _fmt(measured, fmt),
        f"+-{_fmt(tol, fmt)}",
        ok,
    )


def at_least(target, claim, paper_text, measured, floor, fmt="{:.4g}", measured_text=None) -> dict:
    """Pass when measured >= floor."""
    ok = _finite(measured) and measured >= floor
    return _row(
        target,
        claim,
        paper_text,
        measured_text or _fmt(measured, fmt),
        f">= {_fmt(floor, fmt)}",
        ok,
    )


def at_most(target, claim, paper_text, measured, ceiling, fmt="{:.4g}") -> dict:
    """Pass when measured <= ceiling."""
    ok = _finite(measured) and measured <= ceiling
    return _row(target, claim, paper_text, _fmt(measured, fmt), f"<= {_fmt(ceiling, fmt)}", ok)


def between(target, claim, paper_text, measured, lo, hi, fmt="{:.4g}") -> dict:
    """Pass when lo <= measured <= hi."""
    ok = _finite(measured) and lo <= measured <= hi
    return _row(
        target, claim, paper_text, _fmt(measured, fmt), f"in [{_fmt(lo, fmt)}, {_fmt(hi, fmt)}]", ok
    )


def no_divergence(target, claim, diverged, diverged_step) -> dict:
    """Pass when no run's loss became NaN or infinite; the measured value names how many did
    and at which steps (training stops a network there), e.g. "2 (at steps 0, 140)"."""
    diverged = [bool(d) for d in diverged]
    steps = sorted({int(s) for s, d in zip(diverged_step, diverged, strict=True) if d})
    n = sum(diverged)
    shown = ", ".join(map(str, steps[:5])) + (", ..." if len(steps) > 5 else "")
    measured = f"{n} (at step{'s' if len(steps) > 1 else ''} {shown})" if n else "0"
    return _row(target, claim, "none", measured, "<= 0", n == 0)


def table(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS)


def ledger(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else table([])


def summary_markdown(ledger_df: pd.DataFrame) -> str:
    """A short human summary: counts per target, then every failing row."""
    lines = ["# Replication ledger", ""]
    n_pass = int((ledger_df.status == "pass").sum())
    lines.append(f"{n_pass} of {len(ledger_df)} claims pass.")
    lines += ["", "| target | pass | fail |", "|---|---|---|"]
    for target, rows in ledger_df.groupby("target", sort=False):
        passed = int((rows.status == "pass").sum())
        lines.append(f"| {target} | {passed} | {len(rows) - passed} |")
    failing = ledger_df[ledger_df.status != "pass"]
    if len(failing):
        lines += [
            "",
            "## Failing claims",
            "",
            "| target | claim | paper | reproduced | tolerance |",
            "|---|---|---|---|---|",
        ]
        for r in failing.itertuples():
            lines.append(
                f"| {r.target} | {r.claim} | {r.paper_value} | {r.reproduced_value} "
                f"| {r.tolerance} |"
            )
    return "\n".join(lines) + "\n"
