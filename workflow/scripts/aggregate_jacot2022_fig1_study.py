"""The jacot2022 Fig. 1 study's measures per network and layer, and its ledger rows, read on
the networks training left and on the same networks polished (the certificates say how near a
stationary point the polish came)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2022 import ledger  # noqa: E402
from l2relu.jacot2022.fig1_study import settled_scores  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import checkpoint_arrays, write_table  # noqa: E402

params = snakemake.params


def networks_of(checkpoints, runs):
    """One row per network and hidden layer: its run's record and the layer's scores."""
    tables = []
    for checkpoint, run in zip(checkpoints, runs, strict=True):
        _, arrays = checkpoint_arrays(checkpoint)
        per_layer = settled_scores(arrays, params.n_rays, params.ray_readings)
        run = pd.read_csv(run).reset_index(names="network")
        tables.append(run.merge(per_layer, on="network"))
    return pd.concat(tables, ignore_index=True).drop(columns="network")


inputs = snakemake.input
networks = networks_of(inputs.checkpoints, inputs.runs)
polished = networks_of(inputs.polished_checkpoints, inputs.polished_runs)
certificates = pd.concat(map(pd.read_csv, inputs.certificates), ignore_index=True)
for table in (networks, polished, certificates):
    print(table.to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
write_table(polished, snakemake.output.polished)
schedule = ledger.fig1_study_claims(networks, params.n_rays, params.ray_readings)
schedule += ledger.fig1_study_certificate_claims(certificates)
rows = evaluate_networks(
    load_registry([inputs.registry]),
    schedule,
    ledger.fig1_study_claims(polished, params.n_rays, params.ray_readings),
)
write_table(rows, snakemake.output.claims)
