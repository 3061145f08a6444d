"""Fig. 1's panels from the trained network: singular values of every Z_l and W_l, the
nonlinearity's impact per layer, and the ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import fig1_tables  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
task = LatentTask(**checkpoint["config"]["task"])
x, _, _ = task.sample(checkpoint["config"]["fit"]["n_train"])
spectra, layers = fig1_tables(arrays, x, **snakemake.params.analysis)
print(layers.to_string(), file=sys.stderr)
write_table(spectra, snakemake.output.spectra)
write_table(layers, snakemake.output.layers)
runs = pd.read_csv(snakemake.input.runs)
rows = ledger.fig1_claims(layers, runs, task.true_rank, **snakemake.params.thresholds)
write_table(rows, snakemake.output.claims)
