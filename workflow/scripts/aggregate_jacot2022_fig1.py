"""jacot2022 Fig. 1's ledger rows over every seed's network, each statement read on the network
the paper's schedule left and on the same network polished (the certificate says which
polished networks are stationary)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2022 import ledger  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

registry = load_registry([snakemake.input.registry])
read = lambda paths: pd.concat(map(pd.read_csv, paths), ignore_index=True)  # noqa: E731


def measurements(layers, runs):
    print(layers.to_string(), runs.to_string(), sep="\n", file=sys.stderr)
    return ledger.fig1_claims(layers, runs, snakemake.params.n_rays, snakemake.params.ray_readings)


schedule = measurements(read(snakemake.input.layers), read(snakemake.input.runs))
polished = measurements(read(snakemake.input.polished_layers), read(snakemake.input.polished_runs))
certificates = read(snakemake.input.certificates)
print(certificates.to_string(), file=sys.stderr)
bar = registry[ledger.FIG1_CERTIFIED].criterion.bounds()[1]
certified, ms = ledger.fig1_certificate_claims(certificates, bar)
rows = evaluate_networks(registry, schedule + ms, polished, stationary=certified)
write_table(rows, snakemake.output.claims)
