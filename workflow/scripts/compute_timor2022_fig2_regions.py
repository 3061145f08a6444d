"""Regions D, S, S1, S2 of timor2022's Fig. 2 on a grid, from their definitions."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.ledger.claims import rows_from_registry  # noqa: E402
from l2relu.timor2022 import ledger, regions  # noqa: E402
from l2relu.timor2022.data import two_points  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
x, _ = two_points(p.x1, p.x2)
table = regions.fig2_table(x[:, 0], x[:, 1], p.extent, p.grid_size)
write_table(table, snakemake.output.regions)
measurements = ledger.fig2(table, p.x1, p.x2, p.extent, p.grid_size)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
