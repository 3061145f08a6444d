"""List the ledger rows that differ from the reference ledger of the scale in use."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import write_table  # noqa: E402
from l2relu.reference import differences, has_values  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

run = pd.read_csv(snakemake.input.ledger)
ref = pd.read_csv(snakemake.input.reference)
registry = load_registry(snakemake.input.registry)
diff = differences(run, ref, snakemake.params.rel_tol, registry)
print(
    f"{len(diff)} difference(s) from {snakemake.input.reference} over {run.target.nunique()} "
    f"targets, {len(run)} rows",
    file=sys.stderr,
)
if not has_values(ref):
    print("the reference has no per-seed values: verdicts compared, values not", file=sys.stderr)
print(diff.to_string(), file=sys.stderr)
write_table(diff, snakemake.output[0])
