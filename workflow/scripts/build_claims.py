"""Assemble the replication ledger from every target's rows: the whole table, its headline, and
the rows of each kind apart."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu import claims  # noqa: E402
from l2relu.io import atomic_path, fail_once, write_table  # noqa: E402
from l2relu.registry import KINDS  # noqa: E402

fail_once(snakemake.params.fail_once_marker)

ledger = claims.ledger([pd.read_csv(p, dtype=str) for p in snakemake.input.rows])
write_table(ledger, snakemake.output.csv)
for kind in KINDS:
    write_table(ledger[ledger.kind == kind], snakemake.output[kind])
with atomic_path(snakemake.output.md) as tmp:
    tmp.write_text(claims.summary_markdown(ledger))
