"""Fig. 1's panels from every seed's trained network: singular values of every Z_l and W_l,
the nonlinearity's impact per layer; and the ledger rows over the seeds, each statement about
trained networks read on the schedule's networks and on the same networks polished."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.polishing import load_polished  # noqa: E402
from l2relu.jacot2023.regression import fig1_tables  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

registry = load_registry([snakemake.input.registry])
rank_readings = registry[ledger.MIDDLE_RANK].every_reading
checkpoint = load_checkpoint(snakemake.input.checkpoint)
task = LatentTask(**checkpoint["config"]["task"])
x, _, _ = task.sample(checkpoint["config"]["fit"]["n_train"])


def tables(arrays, runs):
    spectra, layers = [], []
    for index, seed in enumerate(runs.seed):
        s, layer = fig1_tables(
            arrays, x, **snakemake.params.analysis, index=index, rank_readings=rank_readings
        )
        spectra.append(s.assign(seed=seed))
        layers.append(layer.assign(seed=seed))
    return pd.concat(spectra, ignore_index=True), pd.concat(layers, ignore_index=True)


def measurements(arrays, layers, runs):
    ms = ledger.fig1_claims(layers, runs, task.true_rank, rank_readings)
    ms += ledger.prop12_claims(arrays, runs, registry[ledger.PROP12].every_reading)
    ms += ledger.remark6_claims(arrays, runs, registry[ledger.REMARK6].every_reading)
    return ms


runs = pd.read_csv(snakemake.input.runs)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
spectra, layers = tables(arrays, runs)
polished_arrays, polished_runs, certificate = load_polished(
    snakemake.input.polished, snakemake.input.polished_runs, snakemake.input.certificate
)
_, polished_layers = tables(polished_arrays, polished_runs)
print(layers.to_string(), polished_layers.to_string(), certificate.to_string(), file=sys.stderr)
write_table(spectra, snakemake.output.spectra)
write_table(layers, snakemake.output.layers)
schedule = measurements(arrays, layers, runs)
schedule += ledger.norm_trace_claims(pd.read_csv(snakemake.input.trace), runs, registry)
schedule += ledger.three_part_claims(layers, registry)
polished = measurements(polished_arrays, polished_layers, polished_runs)
certified, ms = ledger.certificate_claims(certificate, registry)
rows = evaluate_networks(registry, schedule + ms, polished, stationary=certified)
write_table(rows, snakemake.output.claims)
