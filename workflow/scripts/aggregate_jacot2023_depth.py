"""The depth sweep: every network's bottleneck rank and ||W||^2 / L, one row per run."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import evaluate  # noqa: E402
from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import bottleneck_table  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

registry = load_registry([snakemake.input.registry])
readings = registry[ledger.DEPTH_RANK].every_reading

tables = []
for checkpoint_path, runs_path in zip(
    snakemake.input.checkpoints, snakemake.input.runs, strict=True
):
    checkpoint = load_checkpoint(checkpoint_path)
    arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
    task = LatentTask(**checkpoint["config"]["task"])
    runs = pd.read_csv(runs_path)
    tables.append(bottleneck_table(arrays, task, runs, readings))
sweep = pd.concat(tables, ignore_index=True)
print(sweep.to_string(), file=sys.stderr)
write_table(sweep, snakemake.output.sweep)
measurements = ledger.depth_claims(sweep, task.true_rank)
write_table(evaluate(registry, measurements), snakemake.output.claims)
