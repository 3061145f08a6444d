"""Prop. 4.1's network on three clusters; its first layer, drawn in the plane of the means."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.chen2024 import ledger  # noqa: E402
from l2relu.chen2024.figures import Fig1Config, fig1_tables  # noqa: E402
from l2relu.ledger.claims import rows_from_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

config = dict(snakemake.params.config)
points, geometry, notes = fig1_tables(Fig1Config(**config))
print(geometry.to_string(), notes, file=sys.stderr)
write_table(points, snakemake.output.points)
write_table(geometry, snakemake.output.geometry)
rows = rows_from_registry(snakemake.input.registry, ledger.fig1_claims(points, notes))
write_table(rows, snakemake.output.claims)
