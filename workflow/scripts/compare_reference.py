"""List the ledger rows that differ from the reference ledger of the scale in use."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.ledger.reference import differences, rows_without_values  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

run = pd.read_csv(snakemake.input.ledger)
ref = pd.read_csv(snakemake.input.reference)
registry = load_registry(snakemake.input.registry)
diff = differences(run, ref, snakemake.params.rel_tol, registry)
print(
    f"{len(diff)} difference(s) from {snakemake.input.reference} over {run.target.nunique()} "
    f"targets, {len(run)} rows",
    file=sys.stderr,
)
bare = rows_without_values(ref[ref.target.isin(run.target)])
if bare:
    print(
        f"{bare} reference rows have no per-seed values (saved before the ledger had them): "
        "their verdicts are compared, their values not",
        file=sys.stderr,
    )
print(diff.to_string(), file=sys.stderr)
write_table(diff, snakemake.output[0])
