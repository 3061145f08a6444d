"""The jacot2023 Fig. 2 study's networks, tripoints and class maps in one file each (the maps in
the networks table's row order), every seed's data of each family (for the figure), and the
study's ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import atomic_path, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.fig2_study import Family, margin_classes  # noqa: E402

networks = pd.concat(map(pd.read_csv, snakemake.input.networks), ignore_index=True)
tripoints = pd.concat(map(pd.read_csv, snakemake.input.tripoints), ignore_index=True)
print(networks.to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
write_table(tripoints, snakemake.output.tripoints)
loaded = [np.load(path) for path in snakemake.input.maps]
with atomic_path(snakemake.output.maps) as tmp:
    with open(tmp, "wb") as f:
        np.savez_compressed(
            f, maps=np.concatenate([m["maps"] for m in loaded]), pads=loaded[0]["pads"]
        )
data = snakemake.params.data
points = []
for family in snakemake.params.families:
    for seed in snakemake.params.seeds:
        xy, labels = margin_classes(
            Family(**family),
            data["classes"],
            data["per_class"],
            data["noise"],
            snakemake.params.margin,
            seed,
        )
        points.append(
            pd.DataFrame(
                {
                    "family": family["name"],
                    "seed": seed,
                    "x": xy[:, 0],
                    "y": xy[:, 1],
                    "label": labels,
                }
            )
        )
write_table(pd.concat(points, ignore_index=True), snakemake.output.points)
depths = snakemake.params.depths
measurements = ledger.fig2_study_claims(networks, tripoints, depths["shallow"], depths["deep"])
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
