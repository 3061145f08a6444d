"""The ledger's rows: a target's measurements judged against their registry entries.

What each paper states, and how a measurement is judged against it, is written in the claims
registry (`workflow/claims/<paper>.yaml`, one entry per claim, with the history of its changes).
The ledger builders of each paper only measure: they return `Measurement`s keyed by a registry
id, and `evaluate` turns them into ledger rows with the entry's criterion. Pass/fail thresholds
live in the registry and nowhere else.

The kinds (empirical, exact, check) are explained in l2relu.ledger.registry.
"""

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import median

import pandas as pd

from l2relu.ledger.registry import (
    FAILED_PRECONDITION,
    Claim,
    RegistryError,
    finite,
    fmt,
    load_registry,
)

# cannot_fail: a case where the entry's measure cannot fail whatever was trained or built (its
# registry field cannot_fail): a pass or an undecided row there would say nothing
STATUSES = ("pass", "mixed", "fail", "inconclusive", "cannot_fail")
COLUMNS = [
    "claim_id",
    "target",
    "kind",
    "claim",
    "paper_value",
    "reproduced_value",
    "tolerance",
    "n_seeds",
    "n_hold",
    # seeds without a measurement (left out by the measure's rule, or not measurable): the
    # verdict reads the others
    "n_excluded",
    "status",
    # which way of measuring the row reads ('' where the entry has one), whether it is the
    # entry's primary reading (the one the headline counts), and whether every reading of the
    # claim and case gives one status (robust), or not (reading-dependent)
    "reading",
    "primary",
    "robustness",
    # the numbers behind reproduced_value, for comparing two builds (compare_reference): one
    # per seed as JSON (null where nothing was measured), and the criterion's reference
    "values",
    "ref",
    # for a claim about trained networks read on two networks (the registry's `network`): which
    # is primary (polished or schedule; '' where the entry reads one), the other network's
    # status and per-seed values, and whether the two statuses agree (optimizer-independent),
    # differ (optimizer-dependent), or cannot be compared because one network could not be
    # read (undecided: either status inconclusive)
    "network",
    "other_status",
    "other_values",
    "optimization",
]
OPTIMIZATION = ("optimizer-independent", "optimizer-dependent", "undecided")


# ---- measurements and rows ---------------------------------------------------------------------
@dataclass
class Measurement:
    """What a ledger builder measured for one registry entry, in one case."""

    claim_id: str
    values: list  # one value per seed (or a single value where nothing is random)
    case: str = ""  # which case of the claim: "N = 6", "mnist, lambda = 1e-4"; "" when one
    ref: float | None = None  # the reference a criterion's 'ref' means (e.g. N^2/4)
    detail: str = ""  # printed after the value: "64/288", "L = 6, 9"
    reading: str = ""  # which of the entry's readings; "" where it has one
    # per precondition the entry requires, whether each seed meets it (registry.PRECONDITIONS)
    meets: dict = field(default_factory=dict)


def measured(claim_id, values, case="", ref=None, detail="", reading="", meets=None) -> Measurement:
    """`values`: one number, or one per seed; `meets`: {precondition: one bool per seed}."""
    if not isinstance(values, list | tuple):
        values = [values]
    values = [None if v is None else float(v) for v in values]
    ref = None if ref is None else float(ref)
    meets = {k: [bool(x) for x in v] for k, v in (meets or {}).items()}
    return Measurement(claim_id, values, case, ref, detail, reading, meets)


def _preconditions(claim: Claim, m: Measurement) -> tuple[list, str]:
    """The values of the seeds that meet every precondition the entry requires (None for the
    others), and what left them out: "2 not collapsed"."""
    if set(m.meets) != set(claim.requires):
        raise RegistryError(
            f"{claim.id!r} ({m.case or 'no case'}): preconditions measured "
            f"{sorted(m.meets)}, the entry requires {sorted(claim.requires)}"
        )
    for name, per_seed in m.meets.items():
        if len(per_seed) != len(m.values):
            raise RegistryError(f"{claim.id!r}: precondition {name!r} not given for every seed")
    kept = [all(m.meets[n][i] for n in claim.requires) for i in range(len(m.values))]
    # each seed left out is named once, by the first precondition it fails
    first_failed = [
        next((n for n in claim.requires if not m.meets[n][i]), None) for i in range(len(m.values))
    ]
    failed = {n: first_failed.count(n) for n in claim.requires}
    shown = ", ".join(f"{k} {FAILED_PRECONDITION[n]}" for n, k in failed.items() if k)
    return [v if k else None for v, k in zip(m.values, kept, strict=True)], shown


def seed_of_claim(seeds, first_seed: int, per_seed: int):
    """Which seed of the claims each run belongs to, where every seed of the claims is a block
    of `per_seed` consecutive run seeds from `first_seed` (a sweep of runs, or restarts)."""
    return (pd.Series(seeds).to_numpy() - first_seed) // per_seed


def diverged_runs(claim_id, runs, case="") -> Measurement:
    """How many of `runs` (a table with diverged, diverged_step) had a NaN or infinite loss,
    and at which steps (training stops a network there)."""
    diverged = [bool(d) for d in runs.diverged]
    steps = sorted({int(s) for s, d in zip(runs.diverged_step, diverged, strict=True) if d})
    shown = ", ".join(map(str, steps[:5])) + (", ..." if len(steps) > 5 else "")
    detail = f"of {len(diverged)}" + (
        f"; at step{'s' if len(steps) > 1 else ''} {shown}" if steps else ""
    )
    return measured(claim_id, sum(diverged), case, detail=detail)


def status_of(
    n_hold: int, n_measured: int, n_run: int, kind: str, min_measured: int, quantifier=None
) -> str:
    """inconclusive when too few seeds were measured to read a verdict: for an empirical claim
    fewer than `min_measured`, capped at the seeds run (`n_run`); an exact statement or a check
    always reads (row() counts its every value). Otherwise, over the measured seeds: pass when
    the criterion holds in every one (for a `typical` claim, in >= 80% of them from 5 on), fail
    when in at most 20%, mixed between."""
    needed = min(min_measured, n_run) if kind == "empirical" else 1
    if n_measured < max(needed, 1):
        return "inconclusive"
    share = n_hold / n_measured
    if share == 1 or (quantifier == "typical" and n_measured >= 5 and share >= 0.8):
        return "pass"
    return "fail" if share <= 0.2 else "mixed"


def _summary(values, spec) -> str:
    """One value as it is; several (one per seed) as median [min, max]."""
    if len(values) == 1:
        return fmt(values[0], spec)
    good = [v for v in values if finite(v)]
    if not good:
        return "not measured"
    text = f"{fmt(median(good), spec)} [{fmt(min(good), spec)}, {fmt(max(good), spec)}]"
    missing = len(values) - len(good)
    return text + (f", {missing} not measured" if missing else "")


def row(claim: Claim, m: Measurement) -> dict:
    criterion = claim.reading(m.reading).criterion
    values, failed = _preconditions(claim, m)
    m = replace(
        m,
        values=values,
        detail="; ".join(filter(None, [m.detail, failed and f"left out: {failed}"])),
    )
    holds = [criterion.holds(v, m.ref) for v in m.values]
    # an empirical seed without a finite value was not measured (left out, or not measurable);
    # an exact statement's or a check's every value counts: its measures write NaN for a
    # construction or count that failed, a failure of the statement or the pipeline
    n_finite = sum(finite(v) for v in m.values)
    n_measured = n_finite if claim.kind == "empirical" else len(m.values)
    shown = _summary(m.values, claim.format)
    if m.detail:
        shown = f"{shown} ({m.detail})"
    return {
        "claim_id": claim.id,
        "target": claim.target,
        "kind": claim.kind,
        "claim": case_text(claim, m.case),
        "paper_value": claim.paper,
        "reproduced_value": shown,
        "tolerance": criterion.describe(m.ref, claim.format),
        "n_seeds": len(m.values),
        "n_hold": sum(holds),
        "n_excluded": len(m.values) - n_measured,
        "status": _status(claim, m.case, sum(holds), n_measured, len(m.values)),
        "reading": m.reading,
        "primary": m.reading == claim.reading_names[0],
        "robustness": "",  # robustness() fills it in once every reading's row is there
        "values": json.dumps([float(v) if finite(v) else None for v in m.values]),
        "ref": m.ref,
        "network": "",
        "other_status": "",
        "other_values": "",
        "optimization": "",
    }


def _status(claim: Claim, case: str, n_hold: int, n_measured: int, n_seeds: int) -> str:
    """The row's status; a case where the measure cannot fail reads so unless its values fail,
    which only a wrong argument or a pipeline error can do, and which must then be seen."""
    kind, least, quantifier = claim.kind, claim.min_measured, claim.quantifier
    status = status_of(n_hold, n_measured, n_seeds, kind, least, quantifier)
    covered = claim.cannot_fail and claim.cannot_fail.covers(case)
    return "cannot_fail" if covered and status in ("pass", "inconclusive") else status


def case_text(claim: Claim, case: str) -> str:
    """A row's `claim` column: the entry's measure and the case it reads."""
    return claim.measure + (f", {case}" if case else "")


def robustness(rows: pd.DataFrame) -> pd.Series:
    """Per row, over the rows of its claim and case (every reading): 'robust' when they give one
    status, 'reading-dependent' when not, 'one reading' where the entry has no others."""
    group = rows.groupby(["claim_id", "claim"], sort=False)
    n_readings = group.reading.transform("size")
    n_statuses = group.status.transform("nunique")
    return pd.Series(
        [
            "one reading" if n == 1 else "robust" if k == 1 else "reading-dependent"
            for n, k in zip(n_readings, n_statuses, strict=True)
        ],
        index=rows.index,
    )


def evaluate(registry: dict[str, Claim], measurements) -> pd.DataFrame:
    """One target's ledger rows. Its measurements name entries of one target, and every entry
    of that target has at least one measurement: anything else is an error."""
    measurements = list(measurements)
    if not measurements:
        raise RegistryError("no measurements: a target measures at least one claim")
    measurements = [m for ms in measurements for m in _criterion_readings(registry, ms)]
    rows, seen = [], set()
    for m in measurements:
        claim = registry.get(m.claim_id)
        if claim is None:
            raise RegistryError(f"measured {m.claim_id!r}, which the claims registry lacks")
        if not m.values:
            raise RegistryError(f"{m.claim_id!r} ({m.case or 'no case'}): no values measured")
        if (m.ref is not None) != claim.criterion.needs_ref:
            raise RegistryError(
                f"{m.claim_id!r}: the criterion {claim.criterion.text!r} "
                + ("uses a reference the measurement lacks" if m.ref is None else "has no 'ref'")
            )
        if m.reading not in claim.reading_names:
            raise RegistryError(
                f"{m.claim_id!r}: measured under reading {m.reading!r}, "
                f"which the entry lacks ({', '.join(claim.reading_names)})"
            )
        rows.append(row(claim, m))
        seen.add(m.claim_id)
    targets = {r["target"] for r in rows}
    if len(targets) > 1:
        raise RegistryError(f"measurements of several targets at once: {sorted(targets)}")
    (target,) = targets
    unmeasured = sorted(c.id for c in registry.values() if c.target == target and c.id not in seen)
    if unmeasured:
        raise RegistryError(f"{target}: registry entries without a row: {', '.join(unmeasured)}")
    frame = table(rows)
    _every_reading_once(frame, registry)
    # readings of one claim and case side by side, the primary first
    pairs = zip(frame.claim_id, frame.reading, strict=True)
    rank = [registry[c].reading_names.index(r) for c, r in pairs]
    group = frame.groupby(["claim_id", "claim"], sort=False).ngroup()
    frame = frame.assign(_g=group, _r=rank).sort_values(["_g", "_r"], kind="stable")
    frame = frame.drop(columns=["_g", "_r"]).reset_index(drop=True)
    frame["robustness"] = robustness(frame)
    return frame


def _every_reading_once(frame: pd.DataFrame, registry) -> None:
    """Each claim and case is measured once under every reading of its entry."""
    for (claim_id, claim), g in frame.groupby(["claim_id", "claim"], sort=False):
        names = registry[claim_id].reading_names
        if sorted(g.reading) != sorted(names):
            raise RegistryError(
                f"{claim_id!r} ({claim}): measured under readings {sorted(g.reading)}, "
                f"the entry has {names}"
            )


def _criterion_readings(registry, m: Measurement) -> list[Measurement]:
    """A measurement of an entry whose readings differ only in their criterion (no parameters)
    is the same under each: one per reading."""
    claim = registry.get(m.claim_id)
    if claim is None or m.reading or not claim.readings:
        return [m]
    if any(r.parameters for r in claim.readings):
        return [m]  # a measure read several ways: the builder measures each reading
    return [replace(m, reading=r.name) for r in claim.readings]


def evaluate_networks(
    registry: dict[str, Claim], schedule, polished, stationary: list | None = None, unregularized=()
) -> pd.DataFrame:
    """One target's ledger rows where its trained networks were read twice: `schedule`, the
    measurements of every entry on the networks at the end of the paper's schedule, and
    `polished`, those of the entries with a `network` on the same networks polished to a
    stationary point (the polish module). A row of such an entry takes its status and values from
    the entry's primary network and carries the other's status and values beside them, and
    whether the two agree. `polished` may hold measurements of other entries: only those with
    a `network` are read. The precondition `stationary` is the polished network's: one bool per
    seed, from its certificate, in a measurement's `meets` or, where it has none, `stationary`;
    the schedule's network is read as the schedule left it (every seed meets it there).
    `unregularized`: the (claim_id, case) of cases of such entries whose networks were trained
    without L2, so have no minimum to polish towards: their rows read the one network, with the
    columns of the other left empty (a polished reading of them is not read)."""
    schedule = [_with_stationary(registry, m, [True] * len(m.values)) for m in schedule]
    rows = evaluate(registry, schedule)
    twice = {k: c for k, c in registry.items() if c.network}
    one_network = set(unregularized)
    polished = [
        m if stationary is None else _with_stationary(registry, m, stationary)
        for m in polished
        if m.claim_id in twice and (m.claim_id, m.case) not in one_network
    ]
    target = rows.target.iloc[0]
    if not any(c.target == target for c in twice.values()):
        raise RegistryError(f"{target}: no entry reads a polished network (registry 'network')")
    if not polished:
        raise RegistryError(
            f"{target}: its entries with a network are not read on the polished network"
        )
    other = evaluate(twice, polished).set_index(["claim_id", "claim", "reading"])
    one_network_rows = {(k, case_text(registry[k], case)) for k, case in one_network}
    unmatched = one_network_rows - set(zip(rows.claim_id, rows.claim, strict=True))
    if unmatched:
        raise RegistryError(f"declared trained without L2, but no such row: {sorted(unmatched)}")
    out = []
    for r in rows.to_dict("records"):
        claim = registry[r["claim_id"]]
        if not claim.network or (r["claim_id"], r["claim"]) in one_network_rows:
            out.append(r)
            continue
        key = (r["claim_id"], r["claim"], r["reading"])
        if key not in other.index:
            raise RegistryError(
                f"{r['claim_id']!r} ({r['claim']}): not read on the polished network"
            )
        p = dict(other.loc[key]) | dict(zip(("claim_id", "claim", "reading"), key, strict=True))
        first, second = (p, r) if claim.network == "polished" else (r, p)
        statuses = {first["status"], second["status"]}
        optimization = (
            OPTIMIZATION[2]
            if "inconclusive" in statuses
            else OPTIMIZATION[0]
            if len(statuses) == 1
            else OPTIMIZATION[1]
        )
        out.append(
            first
            | {
                "network": claim.network,
                "other_status": second["status"],
                "other_values": second["values"],
                "optimization": optimization,
            }
        )
    extra = set(other.index) - {(r["claim_id"], r["claim"], r["reading"]) for r in out}
    if extra:
        raise RegistryError(f"read on the polished network only: {sorted(extra)}")
    frame = table(out)
    frame["robustness"] = robustness(frame)
    return frame


def _with_stationary(registry, m: Measurement, per_seed: list) -> Measurement:
    claim = registry.get(m.claim_id)
    if claim is None or "stationary" not in claim.requires or "stationary" in m.meets:
        return m
    if len(per_seed) != len(m.values):
        raise RegistryError(f"{m.claim_id!r}: 'stationary' given for {len(per_seed)} seeds")
    return replace(m, meets=m.meets | {"stationary": [bool(v) for v in per_seed]})


def rows_from_registry(path, measurements) -> pd.DataFrame:
    """evaluate() with the registry file of the measurements' paper."""
    return evaluate(load_registry([Path(path)]), measurements)


def table(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS)


def primary(ledger: pd.DataFrame) -> pd.DataFrame:
    """The rows of each claim's primary reading: what the headline counts. A ledger written
    before readings existed has only those."""
    if "primary" not in ledger:
        return ledger
    # a row kept from a ledger written before readings has no value here: it is the primary's
    flag = ledger.primary.fillna("").astype(str).str.lower()
    return ledger[flag.isin(["true", "", "nan"])]


def ledger(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else table([])
