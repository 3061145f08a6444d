"""jacot2022 Fig. 1's ledger rows, over every seed's network."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022 import ledger  # noqa: E402

layers = pd.concat(map(pd.read_csv, snakemake.input.layers), ignore_index=True)
runs = pd.concat(map(pd.read_csv, snakemake.input.runs), ignore_index=True)
print(layers.to_string(), runs.to_string(), sep="\n", file=sys.stderr)
measurements = ledger.fig1_claims(
    layers, runs, snakemake.params.n_rays, snakemake.params.ray_readings
)
rows = rows_from_registry(snakemake.input.registry, measurements)
write_table(rows, snakemake.output.claims)
