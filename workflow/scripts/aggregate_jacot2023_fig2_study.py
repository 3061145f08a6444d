"""The jacot2023 Fig. 2 study's networks in one table, the first seed's data of each family
(for the figure), and the study's ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import s_classes  # noqa: E402

networks = pd.concat(map(pd.read_csv, snakemake.input.networks), ignore_index=True)
print(networks.to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
data = snakemake.params.data
points = []
for family in snakemake.params.families:
    xy, labels = s_classes(
        data["classes"],
        data["per_class"],
        family["amplitude"],
        family["spacing"],
        data["noise"],
        data["seed"],
    )
    points.append(
        pd.DataFrame({"family": family["name"], "x": xy[:, 0], "y": xy[:, 1], "label": labels})
    )
write_table(pd.concat(points, ignore_index=True), snakemake.output.points)
depths = snakemake.params.depths
measurements = ledger.fig2_study_claims(
    networks, depths["shallow"], depths["deep"], snakemake.params.pad
)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
