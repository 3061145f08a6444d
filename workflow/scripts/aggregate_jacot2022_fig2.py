"""Collect jacot2022's Fig. 2 sweep; measure its plateau onsets."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022 import fig2, ledger  # noqa: E402

runs = pd.concat([pd.read_csv(f) for f in snakemake.input.runs], ignore_index=True)
chosen = fig2.curves(runs)
rows = ledger.fig2_claims(runs, chosen, **snakemake.params)
write_table(chosen, snakemake.output.curves)
write_table(fig2.diverged_runs(runs), snakemake.output.diverged)
write_table(rows, snakemake.output.claims)
