"""Collect both variants of timor2022's Fig. 1 sweep; measure its claims per seed (a seed of
the claims is one sweep of n_runs runs)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.ledger.claims import rows_from_registry, seed_of_claim  # noqa: E402
from l2relu.timor2022 import ledger  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
runs = pd.concat([pd.read_csv(f) for f in snakemake.input.runs], ignore_index=True)
runs["claim_seed"] = seed_of_claim(runs.seed, p.first_seed, p.runs_per_seed)
table, measurements = ledger.fig1(runs)
write_table(table, snakemake.output.table)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
