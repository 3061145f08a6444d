"""Collect both variants of timor2022's Fig. 1 sweep; measure its claims."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import write_table  # noqa: E402
from l2relu.timor2022 import ledger  # noqa: E402

runs = pd.concat([pd.read_csv(p) for p in snakemake.input.runs], ignore_index=True)
table, rows = ledger.fig1(runs, snakemake.params.stable_rank_floor)
write_table(table, snakemake.output.table)
write_table(rows, snakemake.output.claims)
