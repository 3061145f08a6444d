"""Collect timor2022's theorem checks; measure their claims."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import write_table  # noqa: E402
from l2relu.timor2022 import ledger  # noqa: E402

theorem1 = pd.read_csv(snakemake.input.theorem1)
deep = ledger.mark_best(
    pd.concat([pd.read_csv(p) for p in snakemake.input.deep], ignore_index=True)
)
fig1_runs = pd.concat([pd.read_csv(p) for p in snakemake.input.fig1_runs], ignore_index=True)
rows = ledger.theory_claims(theorem1, deep, fig1_runs, snakemake.params.x1, snakemake.params.x2)
write_table(deep, snakemake.output.deep)
write_table(rows, snakemake.output.claims)
