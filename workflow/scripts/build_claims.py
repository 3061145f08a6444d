"""Assemble the replication ledger from every target's rows: the whole table, its headline, the
rows of each kind apart, the report's landing page, and how much of the papers it covers."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.ledger import claims, coverage, verdict  # noqa: E402
from l2relu.ledger.registry import KINDS, load_registry  # noqa: E402
from l2relu.training.io import atomic_path, fail_once, write_table  # noqa: E402

fail_once(snakemake.params.fail_once_marker)

registry = load_registry(snakemake.input.registry)
items = coverage.load_coverage(snakemake.input.coverage)  # checked against the registry at start-up
ledger = claims.ledger([verdict.read_rows(p) for p in snakemake.input.rows])
write_table(ledger, snakemake.output.csv)
for kind in KINDS:
    write_table(ledger[ledger.kind == kind], snakemake.output[kind])
with atomic_path(snakemake.output.md) as tmp:
    tmp.write_text(verdict.claims_markdown(ledger, items))
with atomic_path(snakemake.output.landing) as tmp:
    tmp.write_text(verdict.landing_rst(ledger, registry, snakemake.params.docs, items))
