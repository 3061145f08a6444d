"""The jacot2023 Fig. 2 study's networks, tripoints and class maps in one file each (the maps in
the networks table's row order), those of the polished networks, every seed's data of each
family (for the figure), and the study's ledger rows: read on the networks training left and,
for those trained with L2, on the same networks polished (the certificates say how near a
stationary point the polish came)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.fig2_study import Family, margin_classes  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import atomic_path, write_table  # noqa: E402

read = lambda paths: pd.concat(map(pd.read_csv, paths), ignore_index=True)  # noqa: E731

inputs = snakemake.input
networks, tripoints = read(inputs.networks), read(inputs.tripoints)
polished, polished_tripoints = read(inputs.polished_networks), read(inputs.polished_tripoints)
certificates = read(inputs.certificates)
print(
    networks.to_string(), polished.to_string(), certificates.to_string(), sep="\n", file=sys.stderr
)
write_table(networks, snakemake.output.networks)
write_table(tripoints, snakemake.output.tripoints)
write_table(polished, snakemake.output.polished)
write_table(polished_tripoints, snakemake.output.polished_tripoints)
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
shallow, deep = snakemake.params.depths["shallow"], snakemake.params.depths["deep"]
schedule = ledger.fig2_study_claims(networks, tripoints, shallow, deep)
schedule += ledger.fig2_study_certificate_claims(certificates)
polished_reading = ledger.fig2_study_claims(
    ledger.fig2_polished_runs(networks, polished),
    ledger.fig2_polished_runs(tripoints, polished_tripoints),
    shallow,
    deep,
)
unregularized = ledger.fig2_study_unregularized(networks, tripoints, polished, shallow, deep)
rows = evaluate_networks(
    load_registry([inputs.registry]), schedule, polished_reading, unregularized=unregularized
)
write_table(rows, snakemake.output.claims)
