"""The jacot2022 Fig. 1 study's measures per network and layer, and its ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2022 import ledger  # noqa: E402
from l2relu.jacot2022.fig1_study import settled_scores  # noqa: E402

tables = []
for checkpoint, runs in zip(snakemake.input.checkpoints, snakemake.input.runs, strict=True):
    arrays = {k: v.numpy() for k, v in load_checkpoint(checkpoint)["arrays"].items()}
    runs = pd.read_csv(runs)
    per_layer = settled_scores(arrays, snakemake.params.n_rays, snakemake.params.ray_readings)
    tables.append(runs.reset_index(names="network").merge(per_layer, on="network"))
networks = pd.concat(tables, ignore_index=True).drop(columns="network")
print(networks.to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
readings = snakemake.params.ray_readings
rows = rows_from_registry(
    snakemake.input.registry, ledger.fig1_study_claims(networks, snakemake.params.n_rays, readings)
)
write_table(rows, snakemake.output.claims)
