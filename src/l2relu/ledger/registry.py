"""The claims registry: what each paper states and how a measurement is judged against it.

One YAML file per paper, `workflow/claims/<paper>.yaml`, one entry per claim with the history of
its changes. Pass/fail thresholds live there and nowhere else. Reading it needs only yaml
and re, so the workflow checks it at start-up, before any job runs.

Kinds of claims:
  empirical  depends on training or random data: the replication proper, measured per seed
  exact      a proved statement or an explicit construction checked numerically: fails only if
             the paper or the code is wrong
  check      a sanity or pipeline invariant (no divergence, counts that hold by definition)
"""

import datetime
import hashlib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from l2relu import yamlfile

KINDS = ("empirical", "exact", "check")
# the kinds whose rows can test a statement of the paper (a check tests the pipeline)
MEASURING = KINDS[:2]
ENTRY_FIELDS = {
    "target": "the target whose rules measure it",
    "kind": "empirical, exact or check",
    "where": "section, figure or equation of the paper",
    "quote": "the paper's own words",
    "paper": "the paper's value in short",
    "measure": "what is computed, in one line",
    "criterion": "when the measured value agrees with the paper",
    "why": "why that criterion follows from the words",
    "history": "how the entry came to read as it does: a list of changes, the first 'created'",
}
# an empirical row with fewer measured seeds than this (capped at the seeds run) is inconclusive
MIN_MEASURED = 3
# how many of the measured seeds an empirical claim needs, by what the paper's words quantify:
#   every    a statement of every run or every minimum: a measured seed that breaks it is a
#            counter-example, so it passes only when every measured seed holds
#   typical  what experiments typically show: from 5 measured seeds, 80% holding is a pass
QUANTIFIERS = ("every", "typical")
# an empirical entry's quantifier and the paper's words that decide it (verbatim, tested)
EMPIRICAL_FIELDS = {
    "quantifier": "every or typical: of how many runs the paper's words state the claim",
    "quantifier_words": "the paper's words that decide the quantifier, verbatim",
}
OPTIONAL_FIELDS = {
    "format": "how values are printed, a str.format spec; default {:.4g}",
    "min_measured": (
        f"the fewest measured seeds an empirical row reads a verdict from (capped at the seeds "
        f"run); default {MIN_MEASURED}"
    ),
    "readings": (
        "where the words admit more than one way to measure: a list of readings, the primary "
        "first, each a name, the measure's parameters, an optional criterion (default the "
        "entry's) and why the words allow it; every reading is computed from the same runs"
    ),
    "parameters": (
        "the measure's parameters (a cut-off, a tolerance) where it has one reading; an entry "
        "with readings gives them per reading"
    ),
    "requires": (
        "the preconditions (PRECONDITIONS) a seed must meet to be measured, for an empirical "
        "claim: a seed that fails one is left out and counted"
    ),
    "network": (
        "which network a claim about trained networks reads as its primary: 'polished' (a "
        "statement about minima or optima: the network polished to a stationary point of its "
        "objective, src/l2relu/training/polish.py) or 'schedule' (a statement of what the "
        "paper's training showed, or one true of any weights: the network at the end of the "
        "paper's schedule); the ledger reads both and says whether their statuses agree"
    ),
    "cannot_fail": (
        "where the measure cannot fail whatever was trained or built (true by definition or by "
        "arithmetic there): {cases, why}, cases a list of the rows' cases (a case and the cases "
        f"it begins, 'bipartite' for 'bipartite, N = 4'), or [{'every case'!r}]; such a row "
        "reads 'cannot fail here', and tests no statement (l2relu.ledger.coverage)"
    ),
    "reference_tol": (
        "how far (a share of the larger) a value may move between two builds and still be the "
        "same result, for a value from training that moves with the BLAS kernels; default "
        "the config's reference_rel_tol"
    ),
}
# An entry's history: one item per change, oldest first. What a verdict depends on (STATE_FIELDS)
# is hashed, and the last item records that hash, so that a change without an item is seen
# (tests/test_claims_history.py).
STATE_FIELDS = (
    "kind",
    "network",
    "quote",
    "measure",
    "criterion",
    "quantifier",
    "min_measured",
    "readings",
    "requires",
    "parameters",
    "cannot_fail",
)
# what a history item may say changed: a state field (a precondition is the field requires),
# or how a measure leaves seeds out (before preconditions existed)
CHANGES = (
    "created",
    *(f for f in STATE_FIELDS if f != "requires"),
    "preconditions",
    "exclusion",
)
HISTORY_FIELDS = {
    "date": "when, YYYY-MM-DD",
    "change": "what changed: " + ", ".join(CHANGES),
    "results_seen": "true when the change was made with measured values of the entry known",
    "why": "why it changed",
}
OPTIONAL_HISTORY_FIELDS = {
    "commit": "the commit that made it, where the item was written after it",
    "old": "what the changed field read before",
    "new": "what it reads after",
    "state": "the entry's state hash after the change (entry_state); the last item has it",
}
# what a seed must meet to be measured: a claim about trained networks is not tested by a
# network the claim is not about (it misfits, it computes a constant)
PRECONDITIONS = {
    "fits": "the network fits its training set (training accuracy 1, no divergence)",
    "not_collapsed": "the network is not collapsed (its outputs vary over the inputs)",
    "readable_layer": (
        "the layer has more active neurons than rays (fewer lie on that many rays whatever "
        "they learned)"
    ),
    "fits_data": (
        "the regression network fits its training set: its target's fit check holds for it "
        "(training MSE over the outputs' variance), no divergence"
    ),
    "settled": (
        "the network has settled: its objective moved by at most its target's convergence "
        "check's bar over its last stretch of training"
    ),
    "fit_matched": (
        "the deep network fits its training set about as well as the shallow one it is set "
        "against (its target's fit-match check holds for it), or fails the claim even so: a "
        "worse fit passes less of everything, so it can only flatter a bar on what passes"
    ),
    "at_lowest": (
        "the network, its aligned neurons merged, keeps its outputs to the reading's tolerance "
        "and its objective within the plateau onset's tolerance of its data set's lowest: an "
        "equivalent network at one of the minima the statement is about"
    ),
    "decided": (
        "merging aligned neurons decides the comparison: it reached the bar, or a lower bound "
        "passes it (else another reduction might still reach the bar)"
    ),
    "at_minimum": (
        "the network's objective is within its entry's tolerance (min_tol) of the lowest found "
        "for its data set: a stationary point off the global minimum is not one a statement "
        "about global minimizers is about"
    ),
    "stationary": (
        "the polished network is certified stationary: its objective fell by at most its "
        "target's certificate bar over the polish's second half "
        "(src/l2relu/training/polish.py); a network not yet at a minimum is not one the "
        "statement is about"
    ),
}
# how the ledger names a seed that fails each
FAILED_PRECONDITION = {
    "fits": "misfit",
    "not_collapsed": "collapsed",
    "readable_layer": "with too few active neurons",
    "fits_data": "misfit",
    "settled": "unsettled",
    "fit_matched": "fitting worse than the shallow one",
    "at_lowest": "off the lowest objective or its outputs",
    "decided": "undecided",
    "at_minimum": "off the global minimum",
    "stationary": "not certified stationary",
}
NETWORKS = ("polished", "schedule")
READING_FIELDS = {"name", "parameters", "criterion", "why"}

# A value this many times inside a one-sided bar (|v| <= |B| / FAR_INSIDE where 0 passes,
# |v| >= FAR_INSIDE |B| where it does not) says the same whatever its digits: two builds whose
# values both lie there agree (compare_reference).
FAR_INSIDE = 100


class RegistryError(ValueError):
    """A claims registry entry that cannot be used; the message names the entry."""


# ---- criteria ----------------------------------------------------------------------------------
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# a number, or the measurement's reference, possibly plus a number ("ref + 1")
_OPERAND = rf"(?:{_NUMBER}|ref(?:\s*\+\s*{_NUMBER})?)"
_REF = re.compile(rf"\bref(?:\s*\+\s*({_NUMBER}))?")
_GRAMMAR = [
    ("cmp", re.compile(rf"^(<=|>=|<|>)\s*({_OPERAND})$")),
    ("in", re.compile(rf"^in\s*\[\s*({_OPERAND})\s*,\s*({_OPERAND})\s*\]$")),
    ("factor", re.compile(rf"^within\s+factor\s+({_NUMBER})\s+of\s+({_OPERAND})$")),
    ("percent", re.compile(rf"^within\s+({_NUMBER})\s*%\s+of\s+({_OPERAND})$")),
    ("abs", re.compile(rf"^within\s+({_NUMBER})\s+of\s+({_OPERAND})$")),
]
_WORDS = ("ref", "<", "<=", ">", ">=")
CRITERION_GRAMMAR = (
    "'<= X', '>= X', '< X', '> X', 'in [A, B]', 'within T of X', 'within factor F of X' or "
    "'within P% of X', where X, A and B are numbers, 'ref' (a reference the measurement "
    "supplies per case) or 'ref + n'"
)


@dataclass(frozen=True)
class Criterion:
    """A parsed criterion: the interval [lo, hi] (open ends where strict) a value must lie in."""

    text: str  # as written in the registry
    form: str  # cmp, in, factor, percent or abs
    args: tuple  # the numbers and 'ref's of the text, in order

    @classmethod
    def parse(cls, text) -> "Criterion":
        text = str(text).strip()
        for form, pattern in _GRAMMAR:
            match = pattern.match(text)
            if match:
                args = tuple(
                    a if a in _WORDS or a.startswith("ref") else float(a) for a in match.groups()
                )
                criterion = cls(text, form, args)
                if form == "factor" and args[0] < 1:
                    raise ValueError(f"a factor below 1 in {text!r}")
                if form in ("abs", "percent") and args[0] < 0:
                    raise ValueError(f"a negative tolerance in {text!r}")
                return criterion
        raise ValueError(f"{text!r} is not a criterion: write {CRITERION_GRAMMAR}")

    @property
    def needs_ref(self) -> bool:
        return any(isinstance(a, str) and a.startswith("ref") for a in self.args)

    def bounds(self, ref=None) -> tuple[float, float, bool, bool]:
        """(lo, hi, lo_strict, hi_strict) with 'ref' replaced by `ref`."""
        args = [_with_ref(a, ref) for a in self.args]
        if any(a is None for a in args):
            raise ValueError(f"criterion {self.text!r} needs a reference value")
        if self.form == "cmp":
            op, x = args
            if op.startswith("<"):
                return -math.inf, x, False, op == "<"
            return x, math.inf, op == ">", False
        if self.form == "in":
            return args[0], args[1], False, False
        tol, x = args
        if self.form == "factor":
            return x / tol, x * tol, False, False
        if self.form == "percent":
            return x - abs(x) * tol / 100, x + abs(x) * tol / 100, False, False
        return x - tol, x + tol, False, False

    def holds(self, value, ref=None) -> bool:
        if not finite(value):
            return False
        lo, hi, lo_strict, hi_strict = self.bounds(ref)
        value = float(value)
        above = value > lo if lo_strict else value >= lo
        below = value < hi if hi_strict else value <= hi
        return above and below

    def far_inside(self, value, ref=None) -> bool:
        """Whether `value` passes a one-sided bar B != 0 by a factor FAR_INSIDE: within
        |B|/FAR_INSIDE of zero where zero passes ('<= 1e-12'), beyond FAR_INSIDE |B| where it
        does not ('>= 0.5')."""
        if self.form != "cmp" or not self.holds(value, ref):
            return False
        bar = _with_ref(self.args[1], ref)
        if bar == 0:
            return False
        if self.holds(0.0, ref):
            return abs(float(value)) <= abs(bar) / FAR_INSIDE
        return abs(float(value)) >= abs(bar) * FAR_INSIDE

    def describe(self, ref=None, spec="{:.4g}") -> str:
        """The criterion with its reference filled in, as the ledger prints it."""
        if not self.needs_ref:
            return self.text
        return _REF.sub(lambda m: fmt(ref + float(m.group(1) or 0), spec), self.text)


def _with_ref(arg, ref):
    """A criterion's argument with 'ref' (or 'ref + x') replaced by the reference."""
    if not (isinstance(arg, str) and arg.startswith("ref")):
        return arg
    if ref is None:
        return None
    offset = _REF.fullmatch(" ".join(arg.split())).group(1)
    return ref + float(offset or 0)


# ---- the registry ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Claim:
    """One registry entry: a statement of a paper and how it is judged."""

    id: str  # <paper>.<figure>.<name>, stable
    target: str  # the target id whose rules measure it
    kind: str  # empirical, exact or check
    where: str  # section, figure or equation
    quote: str  # the paper's words
    paper: str  # the paper's value in short
    measure: str  # what is computed
    criterion: Criterion
    why: str  # why the criterion follows from the words
    format: str = "{:.4g}"
    reference_tol: float | None = None  # see OPTIONAL_FIELDS
    min_measured: int = MIN_MEASURED  # see OPTIONAL_FIELDS
    quantifier: str | None = None  # every or typical, for an empirical claim (QUANTIFIERS)
    quantifier_words: str = ""  # the paper's words that decide it
    history: tuple = ()  # the changes, oldest first, as dicts of HISTORY_FIELDS
    readings: tuple = ()  # Readings, the primary first; () where the measure has one reading
    requires: tuple = ()  # PRECONDITIONS a seed must meet to be measured
    parameters: dict | None = None  # the measure's parameters, where it has one reading
    network: str | None = None  # NETWORKS: which network is primary, where both are read
    cannot_fail: "CannotFail | None" = None  # see OPTIONAL_FIELDS

    @property
    def every_reading(self) -> tuple:
        """The readings, primary first; an entry without readings has one, named ""."""
        return self.readings or (Reading("", dict(self.parameters or {}), self.criterion, ""),)

    def reading(self, name: str) -> "Reading":
        for r in self.every_reading:
            if r.name == name:
                return r
        raise RegistryError(f"{self.id!r} has no reading {name!r}")

    @property
    def reading_names(self) -> list[str]:
        return [r.name for r in self.every_reading]

    @property
    def recorded_state(self) -> str:
        """The state hash the last history item records."""
        return self.history[-1]["state"] if self.history else ""


@dataclass(frozen=True)
class Reading:
    """One fair way to measure an entry: the measure's parameters and the criterion it reads."""

    name: str
    parameters: dict
    criterion: Criterion
    why: str


EVERY_CASE = "every case"


@dataclass(frozen=True)
class CannotFail:
    """The cases where an entry's measure cannot fail, and why."""

    cases: tuple[str, ...]
    why: str

    @property
    def every_case(self) -> bool:
        return self.cases == (EVERY_CASE,)

    def covers(self, case: str) -> bool:
        return self.every_case or any(case == c or case.startswith(f"{c}, ") for c in self.cases)


def _cannot_fail(value, kind, where) -> CannotFail | None:
    if value is None:
        return None
    cases = value.get("cases") if isinstance(value, dict) else None
    why = value.get("why") if isinstance(value, dict) else None
    if (
        set(value) != {"cases", "why"}
        or not isinstance(cases, list)
        or not cases
        or not all(isinstance(c, str) and c.strip() for c in cases)
        or (EVERY_CASE in cases and len(cases) > 1)
        or not isinstance(why, str)
        or not why.strip()
    ):
        raise RegistryError(
            f"{where}: cannot_fail is {{cases: a list of the rows' cases, or [{EVERY_CASE}], "
            "why: a sentence}"
        )
    if kind not in MEASURING:
        raise RegistryError(f"{where}: cannot_fail marks an empirical or exact claim's rows")
    return CannotFail(tuple(cases), " ".join(why.split()))


def entry_state(claim: Claim) -> str:
    """A hash of what a verdict depends on (STATE_FIELDS), to tell a change from none."""
    # readings, preconditions and parameters enter only where an entry has them, so that an
    # entry without them hashes as it did before they existed
    optional = ("readings", "requires", "parameters", "network", "cannot_fail")
    values = {name: getattr(claim, name) for name in STATE_FIELDS if name not in optional}
    values["criterion"] = claim.criterion.text
    if claim.readings:
        values["readings"] = [[r.name, r.parameters, r.criterion.text] for r in claim.readings]
    if claim.requires:
        values["requires"] = list(claim.requires)
    if claim.parameters:
        values["parameters"] = claim.parameters
    if claim.network:
        values["network"] = claim.network
    if claim.cannot_fail:
        values["cannot_fail"] = list(claim.cannot_fail.cases)
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:12]


# the coverage index (l2relu.ledger.coverage) sits beside the registry files and is not one of them
COVERAGE_FILE = "coverage.yaml"


def registry_files(directory) -> list[Path]:
    """The registry files of a claims directory (workflow/claims), one per paper."""
    return sorted(p for p in Path(directory).glob("*.yaml") if p.name != COVERAGE_FILE)


def load_registry(paths) -> dict[str, Claim]:
    """Every entry of the registry files, checked: an unknown or missing field, an unknown kind,
    an empty quote, a criterion that does not parse, an id outside its paper's namespace or a
    target of another paper is an error naming the entry. (That every target is registered is
    checked by the workflow, which knows the registered targets.) The coverage index, if a glob
    of the directory passes it, is skipped."""
    registry = {}
    for path in (p for p in map(Path, paths) if p.name != COVERAGE_FILE):
        paper = path.stem
        entries = yamlfile.load(path) or {}
        if not isinstance(entries, dict):
            raise RegistryError(f"{path}: expected a mapping of claim ids to entries")
        for claim_id, entry in entries.items():
            where = f"claims registry {path.name}, entry {claim_id!r}"
            if claim_id in registry:
                raise RegistryError(f"{where}: the id is used twice")
            registry[claim_id] = _entry(claim_id, entry, paper, where)
    return registry


def _entry(claim_id, entry, paper, where) -> Claim:
    if not re.fullmatch(rf"{re.escape(paper)}\.[a-z0-9]+\.[a-z0-9_]+", str(claim_id)):
        raise RegistryError(f"{where}: an id is '{paper}.<figure>.<name>' (lower case, digits, _)")
    if not isinstance(entry, dict):
        raise RegistryError(f"{where}: expected a mapping with {', '.join(ENTRY_FIELDS)}")
    unknown = set(entry) - set(ENTRY_FIELDS) - set(OPTIONAL_FIELDS) - set(EMPIRICAL_FIELDS)
    if unknown:
        raise RegistryError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    for name, meaning in ENTRY_FIELDS.items():
        value = entry.get(name)
        if name == "history":
            continue
        if not isinstance(value, str) or not value.strip():
            raise RegistryError(f"{where}: field {name!r} ({meaning}) is missing or empty")
    if entry["kind"] not in KINDS:
        raise RegistryError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
    if entry["kind"] != "check" and entry["quote"].lower().startswith("none"):
        raise RegistryError(f"{where}: an {entry['kind']} claim quotes the paper's words")
    if not entry["target"].startswith(f"{paper}_"):
        raise RegistryError(f"{where}: target {entry['target']!r} is not a target of {paper}")
    try:
        criterion = Criterion.parse(entry["criterion"])
    except ValueError as err:
        raise RegistryError(f"{where}: {err}") from None
    fmt = entry.get("format", "{:.4g}")
    try:
        fmt.format(1.5)
    except (ValueError, IndexError, KeyError):
        raise RegistryError(f"{where}: format {fmt!r} does not format a number") from None
    tol = entry.get("reference_tol")
    if tol is not None and not (isinstance(tol, int | float) and 0 < tol < 1):
        raise RegistryError(
            f"{where}: reference_tol {tol!r} is not a share in (0, 1) (write 0.03 or 3.0e-2)"
        )
    quantifier = _quantifier(entry, where)
    least = entry.get("min_measured", MIN_MEASURED)
    if not (isinstance(least, int) and not isinstance(least, bool) and least >= 1):
        raise RegistryError(f"{where}: min_measured {least!r} is not a whole number >= 1")
    history = _history(entry.get("history"), where)
    readings = _readings(entry.get("readings", []), criterion, where)
    requires = entry.get("requires", [])
    if not isinstance(requires, list) or set(requires) - set(PRECONDITIONS):
        raise RegistryError(
            f"{where}: requires {requires!r} is not a list of {', '.join(PRECONDITIONS)}"
        )
    if requires and entry["kind"] != "empirical":
        raise RegistryError(f"{where}: only an empirical claim has preconditions")
    network = entry.get("network")
    if network is not None and network not in NETWORKS:
        raise RegistryError(f"{where}: network {network!r} is not one of {', '.join(NETWORKS)}")
    if network is None and "stationary" in requires:
        raise RegistryError(f"{where}: 'stationary' is a precondition of a polished network")
    parameters = entry.get("parameters")
    if parameters is not None and (readings or not _measure_parameters(parameters)):
        raise RegistryError(
            f"{where}: parameters are a mapping of names to numbers or words, for an entry "
            "without readings (readings give their own)"
        )
    fields = {
        k: " ".join(entry[k].split()) for k in ENTRY_FIELDS if k not in ("criterion", "history")
    }
    return Claim(
        id=claim_id,
        criterion=criterion,
        format=fmt,
        reference_tol=tol,
        min_measured=least,
        quantifier=quantifier,
        quantifier_words=" ".join(str(entry.get("quantifier_words", "")).split()),
        history=history,
        readings=readings,
        requires=tuple(requires),
        parameters=parameters,
        network=network,
        cannot_fail=_cannot_fail(entry.get("cannot_fail"), entry["kind"], where),
        **fields,
    )


def _readings(items, criterion, where) -> tuple:
    """An entry's readings, checked: two or more (one is the entry itself), unique names,
    parameters a mapping of names to numbers, a criterion that parses, a why."""
    if items == []:
        return ()
    if not isinstance(items, list) or len(items) < 2:
        raise RegistryError(f"{where}: readings are a list of two or more (one is no choice)")
    readings, names = [], set()
    for n, item in enumerate(items, 1):
        at = f"{where}, reading {n}"
        if not isinstance(item, dict) or set(item) - READING_FIELDS:
            raise RegistryError(f"{at}: a reading has {', '.join(sorted(READING_FIELDS))}")
        name, parameters, why = item.get("name"), item.get("parameters"), item.get("why")
        if not isinstance(name, str) or not name.strip() or name in names:
            raise RegistryError(f"{at}: a reading has a name of its own")
        if not _measure_parameters(parameters):
            raise RegistryError(f"{at}: parameters are a mapping of names to numbers or words")
        if not isinstance(why, str) or not why.strip():
            raise RegistryError(f"{at}: 'why' (why the words allow this reading) is missing")
        try:
            own = Criterion.parse(item["criterion"]) if "criterion" in item else criterion
        except ValueError as err:
            raise RegistryError(f"{at}: {err}") from None
        if own.needs_ref != criterion.needs_ref:
            raise RegistryError(f"{at}: its criterion and the entry's both use 'ref', or neither")
        names.add(name)
        readings.append(Reading(name, dict(parameters), own, " ".join(why.split())))
    return tuple(readings)


def _measure_parameters(parameters) -> bool:
    return isinstance(parameters, dict) and all(
        isinstance(v, int | float | str) and not isinstance(v, bool) for v in parameters.values()
    )


def _history(items, where) -> tuple:
    """The entry's changes, checked: a list whose first item is 'created', each item with the
    known fields, and a state hash on the last."""
    if not isinstance(items, list) or not items:
        raise RegistryError(f"{where}: field 'history' ({ENTRY_FIELDS['history']}) is missing")
    checked = []
    for n, item in enumerate(items, 1):
        at = f"{where}, history item {n}"
        if not isinstance(item, dict):
            raise RegistryError(f"{at}: expected a mapping with {', '.join(HISTORY_FIELDS)}")
        unknown = set(item) - set(HISTORY_FIELDS) - set(OPTIONAL_HISTORY_FIELDS)
        missing = set(HISTORY_FIELDS) - set(item)
        if unknown or missing:
            raise RegistryError(
                f"{at}: "
                + "; ".join(
                    f"{what} field(s) {', '.join(sorted(names))}"
                    for what, names in (("unknown", unknown), ("missing", missing))
                    if names
                )
            )
        if not isinstance(item["date"], datetime.date):
            raise RegistryError(f"{at}: date {item['date']!r} is not YYYY-MM-DD")
        if item["change"] not in CHANGES:
            raise RegistryError(
                f"{at}: change {item['change']!r} is not one of {', '.join(CHANGES)}"
            )
        if (n == 1) != (item["change"] == "created"):
            raise RegistryError(f"{at}: the first item, and only it, is 'created'")
        if n > 1 and not {"old", "new"} <= set(item):
            raise RegistryError(f"{at}: a change says what the field read before and after")
        if not isinstance(item["results_seen"], bool):
            raise RegistryError(f"{at}: results_seen is true or false")
        if not str(item["why"]).strip():
            raise RegistryError(f"{at}: 'why' is empty")
        checked.append(
            {
                k: v if k in ("date", "results_seen") else " ".join(str(v).split())
                for k, v in item.items()
            }
        )
    if any(not isinstance(item.get("state", ""), str) for item in items):
        raise RegistryError(f"{where}: a history 'state' is a quoted string ('0a1b2c3d4e5f')")
    if "state" not in checked[-1]:
        raise RegistryError(f"{where}: the last history item records the entry's 'state'")
    return tuple(checked)


def _quantifier(entry, where) -> str | None:
    """An empirical entry states its quantifier and the words that decide it; others have none."""
    if entry["kind"] != "empirical":
        extra = sorted(set(EMPIRICAL_FIELDS) & set(entry))
        if extra:
            raise RegistryError(f"{where}: only an empirical entry has {', '.join(extra)}")
        return None
    for name, meaning in EMPIRICAL_FIELDS.items():
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip():
            raise RegistryError(f"{where}: field {name!r} ({meaning}) is missing or empty")
    if entry["quantifier"] not in QUANTIFIERS:
        raise RegistryError(
            f"{where}: quantifier {entry['quantifier']!r} is not one of {', '.join(QUANTIFIERS)}"
        )
    return entry["quantifier"]


def fmt(value, spec: str = "{:.4g}") -> str:
    """A value as the ledger prints it."""
    if isinstance(value, str):
        return value
    if not finite(value):
        return "not measured" if value is None else str(value)
    value = float(value)
    if "d" in spec:
        value = int(round(value))
    return spec.format(value)


def finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
