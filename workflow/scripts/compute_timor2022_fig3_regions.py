"""Regions A_i and F_i of timor2022's Fig. 3 on a grid, and their boundary pieces."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.ledger.claims import rows_from_registry  # noqa: E402
from l2relu.timor2022 import ledger, regions  # noqa: E402
from l2relu.timor2022.data import two_points  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
x, _ = two_points(p.x1, p.x2)
eps0 = p.w0_norm**2 - p.v0_norm**2
table = regions.fig3_table(x[:, 0], x[:, 1], p.w0_norm, eps0, p.extent, p.grid_size)
boundaries = regions.fig3_boundaries(x[:, 0], x[:, 1], p.w0_norm, eps0, p.extent)
write_table(table, snakemake.output.regions)
write_table(boundaries, snakemake.output.boundaries)
measurements = ledger.fig3(table, p.x1, p.x2, p.w0_norm)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
