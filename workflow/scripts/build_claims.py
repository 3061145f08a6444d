"""Assemble the replication ledger from every target's rows: the whole table, its headline, the
rows of each kind apart, and the report's landing page."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu import claims, verdict  # noqa: E402
from l2relu.io import atomic_path, fail_once, write_table  # noqa: E402
from l2relu.registry import KINDS, load_registry  # noqa: E402

fail_once(snakemake.params.fail_once_marker)

ledger = claims.ledger([verdict.read_rows(p) for p in snakemake.input.rows])
write_table(ledger, snakemake.output.csv)
for kind in KINDS:
    write_table(ledger[ledger.kind == kind], snakemake.output[kind])
with atomic_path(snakemake.output.md) as tmp:
    tmp.write_text(verdict.claims_markdown(ledger))
registry = load_registry(snakemake.input.registry)
with atomic_path(snakemake.output.landing) as tmp:
    tmp.write_text(verdict.landing_rst(ledger, registry, snakemake.params.docs))
