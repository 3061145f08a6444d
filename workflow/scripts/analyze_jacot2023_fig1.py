"""Fig. 1's panels from every seed's trained network: singular values of every Z_l and W_l,
the nonlinearity's impact per layer; and the ledger rows over the seeds."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import evaluate  # noqa: E402
from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import fig1_tables  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

registry = load_registry([snakemake.input.registry])
rank_readings = registry[ledger.MIDDLE_RANK].every_reading
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
task = LatentTask(**checkpoint["config"]["task"])
x, _, _ = task.sample(checkpoint["config"]["fit"]["n_train"])
runs = pd.read_csv(snakemake.input.runs)
spectra, layers = [], []
for index, seed in enumerate(runs.seed):
    s, layer = fig1_tables(
        arrays, x, **snakemake.params.analysis, index=index, rank_readings=rank_readings
    )
    spectra.append(s.assign(seed=seed))
    layers.append(layer.assign(seed=seed))
spectra, layers = pd.concat(spectra, ignore_index=True), pd.concat(layers, ignore_index=True)
print(layers.to_string(), file=sys.stderr)
write_table(spectra, snakemake.output.spectra)
write_table(layers, snakemake.output.layers)
measurements = ledger.fig1_claims(layers, runs, task.true_rank, rank_readings)
measurements += ledger.prop12_claims(arrays, runs, registry[ledger.PROP12].every_reading)
measurements += ledger.remark6_claims(arrays, runs, registry[ledger.REMARK6].every_reading)
measurements += ledger.norm_trace_claims(pd.read_csv(snakemake.input.trace), runs, registry)
measurements += ledger.three_part_claims(layers, registry)
write_table(evaluate(registry, measurements), snakemake.output.claims)
