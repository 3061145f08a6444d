"""Reference ledgers: a ledger saved with where it came from (reference/<scale>/claims.csv and
provenance.yaml), and the rows of a new ledger whose value or verdict differs from it.

    python -m l2relu.ledger.reference save LEDGER DEST --wall-time-s S [--overlay FILE ...]
    python -m l2relu.ledger.reference update LEDGER DEST --target T [--target ...] \
        --wall-time-s S ...
    python -m l2relu.ledger.reference table A B --registry workflow/claims/*.yaml [--gaps]

`save` saves LEDGER (a results/claims.csv) as DEST/claims.csv beside DEST/provenance.yaml: the
commit of the working tree, the date, the machine, the device and the wall time of the build.
`update` replaces (or adds) only the rows of the named targets, from a build of those targets,
and records that build in the provenance's `updates`: an intended change to one target's
results regenerates its rows without rebuilding the whole scale. `table` prints two reference
directories' ledgers side by side (markdown, the targets of B), marking each changed verdict;
with --gaps, also each row's largest difference between the two builds' values of one seed."""

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import yaml

from l2relu import yamlfile
from l2relu.ledger.verdict import held

KEY = ["claim_id", "claim", "reading"]
# the columns that carry a verdict, compared exactly; the values are compared per seed
# (n_excluded and robustness only where both ledgers have them: those written before lack them)
EXACT = ["n_hold", "n_seeds", "n_excluded", "status", "robustness"]


def _with_reading(ledger: pd.DataFrame, registry: dict | None = None) -> pd.DataFrame:
    """A ledger's rows with their reading ("" where the entry has one). A ledger written before
    readings has one row per claim and case, the verdict it then read: it stands for the
    entry's primary reading (the registry's, where it is given)."""
    if "reading" not in ledger:
        registry = registry or {}
        primary = [registry[c].reading_names[0] if c in registry else "" for c in ledger.claim_id]
        return ledger.assign(reading=primary)
    return ledger.assign(reading=ledger.reading.fillna(""))


DIFFERENCE_COLUMNS = ["target", "claim_id", "claim", "reading", "field", "reference", "this_run"]


def same_number(a, b, claim, rel_tol: float, refs=(None, None), far=True) -> bool:
    """Whether two builds' values of one seed say the same. Both far inside a one-sided bar
    (registry.FAR_INSIDE; `far`): the same, whatever their digits. Otherwise they may differ by
    the claim's reference_tol (else rel_tol) of the larger. Unmeasured (None) equals only itself."""
    if a is None or b is None:
        return a is None and b is None
    if a == b:
        return True
    if far and claim is not None and all(map(claim.criterion.far_inside, (a, b), refs)):
        return True
    tol = claim.reference_tol if claim is not None and claim.reference_tol else rel_tol
    return abs(a - b) <= tol * max(abs(a), abs(b))


def _values(row: dict, suffix: str) -> list | None:
    text = row.get(f"values{suffix}")
    return json.loads(text) if isinstance(text, str) else None


def _ref(row: dict, suffix: str):
    ref = row.get(f"ref{suffix}")
    return None if ref is None or pd.isna(ref) else float(ref)


def _value_differs(r: dict, claim, rel_tol: float) -> bool:
    """Whether the values (or the criterion's reference) of a row differ; False where either
    ledger has no values for it (written before per-seed values)."""
    mine, theirs = _values(r, ""), _values(r, "_ref")
    if mine is None or theirs is None:
        return False
    refs = (_ref(r, ""), _ref(r, "_ref"))
    if not same_number(*refs, claim, rel_tol, far=False):
        return True
    return len(mine) != len(theirs) or not all(
        same_number(a, b, claim, rel_tol, refs) for a, b in zip(mine, theirs, strict=False)
    )


def _reading_of(claim, reading: str):
    """The claim as one of its readings judges it (its criterion), for comparing values."""
    if claim is None or reading not in claim.reading_names:
        return claim
    return replace(claim, criterion=claim.reading(reading).criterion)


def _same_count(a, b) -> bool:
    """Counts compare as numbers: a side that lacks some rows is read as floats (3.0 is 3)."""
    if pd.isna(a) or pd.isna(b):
        return pd.isna(a) and pd.isna(b)
    return float(a) == float(b)


def differences(
    run: pd.DataFrame, reference: pd.DataFrame, rel_tol: float, registry: dict | None = None
) -> pd.DataFrame:
    """Every row of `run` whose verdict (status, n_hold, n_seeds, n_excluded: exactly) or values
    (per seed, by same_number with the registry's criterion) differ from the reference's row of
    the same claim and case, and every row only one of them has, over the targets `run` built (a
    reference may hold more targets than a run builds)."""
    registry = registry or {}
    run, reference = _with_reading(run, registry), _with_reading(reference, registry)
    reference = reference[reference.target.isin(run.target)]
    merged = run.merge(reference, on=KEY, how="outer", suffixes=("", "_ref"), indicator=True)
    out = []
    for r in merged.to_dict("records"):
        base = {k: r[k] for k in KEY} | {
            "target": r["target"] if r["_merge"] != "right_only" else r["target_ref"]
        }
        if r["_merge"] != "both":
            mine = "present" if r["_merge"] == "left_only" else "absent"
            theirs = "absent" if mine == "present" else "present"
            out.append(base | {"field": "row", "reference": theirs, "this_run": mine})
            continue
        for field in EXACT:
            if field not in r or f"{field}_ref" not in r or pd.isna(r[f"{field}_ref"]):
                continue  # a reference row written before the column: nothing to compare
            same = (
                r[field] == r[f"{field}_ref"]
                if field in ("status", "robustness")
                else _same_count(r[field], r[f"{field}_ref"])
            )
            if not same:
                out.append(
                    base | {"field": field, "reference": r[f"{field}_ref"], "this_run": r[field]}
                )
        if _value_differs(r, _reading_of(registry.get(r["claim_id"]), r["reading"]), rel_tol):
            shown = {"reference": r["reproduced_value_ref"], "this_run": r["reproduced_value"]}
            out.append(base | {"field": "values"} | shown)
    return pd.DataFrame(out, columns=DIFFERENCE_COLUMNS)


def rows_without_values(ledger: pd.DataFrame) -> int:
    """How many rows carry no per-seed values (written before the ledger had them), so that
    only their verdicts can be compared."""
    if "values" not in ledger.columns:
        return len(ledger)
    return int(ledger["values"].isna().sum())


def _git(*args) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()


def _cpuinfo(field: str) -> str | None:
    """The first CPU's `field` in /proc/cpuinfo (None where there is none)."""
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        return None
    for line in cpuinfo.read_text().splitlines():
        if line.startswith(field):
            return line.split(":", 1)[1].strip()
    return None


def machine_description() -> str:
    """The CPU model, core count and system of this machine, for a measure's provenance."""
    model = _cpuinfo("model name") or platform.processor() or platform.machine()
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def _device() -> str:
    import torch

    if torch.cuda.is_available():
        return f"cuda: {torch.cuda.get_device_name(0)}"
    return "cpu"


# Settings that make the libraries pick other kernels than the CPU would (a build run under
# them is a build of another machine's arithmetic).
KERNEL_SETTINGS = (
    "OPENBLAS_CORETYPE",
    "ATEN_CPU_CAPABILITY",
    "MKL_ENABLE_INSTRUCTIONS",
    "NUMBA_CPU_NAME",
)


def kernels() -> dict:
    """What decides the last digits of a CPU build: the vector instructions the CPU has, the
    ones PyTorch uses, the BLAS library and the architecture it picked, the library versions,
    and any setting that overrides those choices."""
    import numba
    import numpy
    import torch

    try:
        import threadpoolctl  # comes with scikit-learn, not pinned itself

        libraries = threadpoolctl.threadpool_info()
    except ImportError:
        libraries = []

    flags = set((_cpuinfo("flags") or "").split())
    blas = [
        f"{lib.get('internal_api')} {lib.get('version')} ({lib.get('architecture', '?')})"
        for lib in libraries
        if lib.get("user_api") == "blas"
    ] or ["unknown (threadpoolctl not installed)"]
    return {
        "cpu_flags": " ".join(f for f in ("avx", "avx2", "fma", "avx512f") if f in flags)
        or "none of avx, avx2, fma, avx512f",
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "blas": "; ".join(blas),
        "versions": f"torch {torch.__version__}, numpy {numpy.__version__}, "
        f"numba {numba.__version__}",
        "settings": {k: os.environ[k] for k in KERNEL_SETTINGS if k in os.environ},
    }


def _build(wall_time_s: float, overlays: list[str]) -> dict:
    """Where a build ran: the commit of the working tree, the date, machine, device, wall time."""
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {
        "commit": _git("rev-parse", "HEAD") + (" (with uncommitted changes)" if dirty else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_description(),
        "device": _device(),
        "kernels": kernels(),
        "wall_time_s": round(float(wall_time_s), 1),
        "config_overlays": list(overlays),
    }


def save(ledger: Path, dest: Path, wall_time_s: float, overlays: list[str]) -> Path:
    """Copy the ledger to dest/claims.csv and write dest/provenance.yaml beside it."""
    build = _build(wall_time_s, overlays)  # before writing: the reference is not a change
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ledger, dest / "claims.csv")
    provenance = build | {"rows": len(pd.read_csv(ledger))}
    path = dest / "provenance.yaml"
    path.write_text(yaml.safe_dump(provenance, sort_keys=False))
    return path


def update(
    ledger: Path, dest: Path, targets: list[str], wall_time_s: float, overlays: list[str]
) -> Path:
    """Replace the reference's rows of `targets` by the ledger's (targets it lacks are added at
    the end) and append the build to the provenance's `updates`."""
    new = pd.read_csv(ledger, dtype=str, keep_default_na=False)  # cells as written
    missing = sorted(set(targets) - set(new.target))
    if missing:
        raise ValueError(f"{ledger} has no rows of {', '.join(missing)}")
    build = _build(wall_time_s, overlays)  # before writing: the reference is not a change
    old = pd.read_csv(dest / "claims.csv", dtype=str, keep_default_na=False)
    kept = old[~old.target.isin(targets)]
    order = list(dict.fromkeys([*old.target, *targets]))
    # the new ledger's columns first, in its order (a column the old rows lack is empty there)
    columns = [*new.columns, *(c for c in old.columns if c not in new.columns)]
    parts = [p for p in (kept, new[new.target.isin(targets)]) if len(p)]
    rows = pd.concat(parts, ignore_index=True).reindex(columns=columns)
    rows = rows.iloc[rows.target.map(order.index).argsort(kind="stable")]
    rows.to_csv(dest / "claims.csv", index=False)
    path = dest / "provenance.yaml"
    provenance = yamlfile.load(path)
    provenance["updates"] = provenance.get("updates", []) + [{"targets": list(targets)} | build]
    provenance["rows"] = len(rows)
    path.write_text(yaml.safe_dump(provenance, sort_keys=False))
    return path


def _cell(text) -> str:
    return str(text).replace("|", "\\|")  # a | inside a cell would end it


def _shown(row: dict, side: str, width: int) -> str:
    if not isinstance(row[f"status{side}"], str):
        return "—"
    value = str(row[f"reproduced_value{side}"])
    value = value if len(value) <= width else value[: width - 1] + "…"
    counts = SimpleNamespace(
        **{k: row.get(f"{k}{side}") for k in ("n_hold", "n_seeds", "n_excluded")}
    )
    counts.n_hold, counts.n_seeds = int(counts.n_hold), int(counts.n_seeds)
    return _cell(f"{value} ({held(counts)}, {row[f'status{side}']})")


def _with_case(ledger: pd.DataFrame, measures: dict) -> pd.DataFrame:
    """The ledger with its case (the claim less the registry's measure; for a row written under
    an older measure text, what follows the claim's last comma) and its position."""

    def case(claim_id, claim):
        measure = measures.get(claim_id)
        if measure is not None and claim.startswith(measure):
            return claim.removeprefix(measure).removeprefix(", ")
        return claim.rsplit(", ", 1)[1] if ", " in claim else ""

    cases = [case(i, c) for i, c in zip(ledger.claim_id, ledger.claim, strict=True)]
    return ledger.assign(case=cases, position=range(len(ledger)))


def largest_gap(a: list | None, b: list | None) -> str:
    """The largest difference between two builds' values of one seed, as a share of the larger
    of the two (0 where every value is equal to the bit); "—" where a side has no values."""
    if a is None or b is None:
        return "—"
    if len(a) != len(b):
        return f"{len(a)} vs {len(b)} values"
    if any((x is None) != (y is None) for x, y in zip(a, b, strict=True)):
        return "measured on one side only"
    gaps = [
        abs(x - y) / max(abs(x), abs(y))
        for x, y in zip(a, b, strict=True)
        if x is not None and x != y
    ]
    return f"{max(gaps):.1e}" if gaps else "0"


def side_by_side(a: Path, b: Path, registry_paths, width: int = 48, gaps: bool = False) -> str:
    """A markdown table of the rows of b's targets in the references a and b, matched by claim
    and case, in b's order (a's rows b lacks after them): each side's value (n_hold/n_seeds,
    status), the verdict's change, and with `gaps` the largest gap between a seed's values."""
    from l2relu.ledger.registry import load_registry

    registry = load_registry([Path(p) for p in registry_paths])
    measures = {k: c.measure for k, c in registry.items()}
    left, right = (
        _with_case(_with_reading(pd.read_csv(d / "claims.csv"), registry), measures) for d in (a, b)
    )
    # a ledger written before n_excluded lacks it, and the merge suffixes only shared columns
    left, right = (t if "n_excluded" in t else t.assign(n_excluded=None) for t in (left, right))
    left = left[left.target.isin(right.target)]
    merged = left.merge(
        right, on=["claim_id", "case", "reading"], how="outer", suffixes=("_a", "_b")
    )
    merged["target"] = merged.target_b.fillna(merged.target_a)
    order = list(dict.fromkeys(right.target))
    merged = merged.assign(
        target_order=merged.target.map(order.index),
        side=merged.position_b.isna(),
        position=merged.position_b.fillna(merged.position_a),
    ).sort_values(["target_order", "side", "position"], kind="stable")
    gap_header = " largest gap of a seed's value |" if gaps else ""
    lines = [
        f"| claim | case | {a.name} | {b.name} | verdict |{gap_header}",
        "|---|---|---|---|---|" + ("---|" if gaps else ""),
    ]
    for r in merged.to_dict("records"):
        before, after = r["status_a"], r["status_b"]
        if before == after:
            change = "same"
        elif not isinstance(before, str) or not isinstance(after, str):
            change = f"only in {b.name if isinstance(after, str) else a.name}"
        else:
            change = f"**{before} → {after}**"
        case = " ".join(filter(None, [r["case"], f"[{r['reading']}]" if r["reading"] else ""]))
        gap = f" {largest_gap(_values(r, '_a'), _values(r, '_b'))} |" if gaps else ""
        lines.append(
            f"| `{r['claim_id']}` | {_cell(case)} | {_shown(r, '_a', width)} | "
            f"{_shown(r, '_b', width)} | {change} |{gap}"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    saving = sub.add_parser("save", help="save a ledger as a reference, with its provenance")
    updating = sub.add_parser("update", help="replace the rows of some targets of a reference")
    updating.add_argument("--target", action="append", required=True)
    table = sub.add_parser("table", help="two references side by side, as markdown")
    table.add_argument("a", type=Path)
    table.add_argument("b", type=Path)
    table.add_argument("--registry", nargs="+", required=True)
    table.add_argument("--gaps", action="store_true", help="add each row's largest value gap")
    for command in (saving, updating):
        command.add_argument("ledger", type=Path)
        command.add_argument("dest", type=Path)
        command.add_argument("--wall-time-s", type=float, required=True)
        command.add_argument("--overlay", action="append", default=[])
    args = parser.parse_args(argv)
    if args.command == "table":
        print(side_by_side(args.a, args.b, args.registry, gaps=args.gaps))
    elif args.command == "save":
        print(save(args.ledger, args.dest, args.wall_time_s, args.overlay))
    else:
        print(update(args.ledger, args.dest, args.target, args.wall_time_s, args.overlay))


if __name__ == "__main__":
    main()
