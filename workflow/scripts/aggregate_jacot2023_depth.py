"""The depth sweep: every network's bottleneck rank and ||W||^2 / L, one row per run; and the
ledger rows, each statement read on the schedule's networks and on the same networks polished."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import bottleneck_table, prop4_table  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training import stationarity  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

registry = load_registry([snakemake.input.registry])
readings = registry[ledger.DEPTH_RANK].every_reading
bar = registry[ledger.DEPTH_CERTIFIED].criterion.bounds()[1]


def sweep_of(checkpoints, runs_paths, certificates=None):
    """One row per network and reading, and one per network of Prop. 4's measures; with
    certificates, whether each network is certified."""
    tables, prop4 = [], []
    for n, (checkpoint_path, runs_path) in enumerate(zip(checkpoints, runs_paths, strict=True)):
        checkpoint = load_checkpoint(checkpoint_path)
        arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
        task = LatentTask(**checkpoint["config"]["task"])
        runs = pd.read_csv(runs_path)
        if certificates is not None:
            certificate = pd.read_csv(certificates[n])
            polished = certificate[certificate.network == "polished"].set_index("seed")
            falls = stationarity.settled_falls(polished.loc[list(runs.seed)])
            runs = runs.assign(fall_last_half=falls, certified=[f <= bar for f in falls])
        tables.append(bottleneck_table(arrays, task, runs, readings))
        prop4.append(prop4_table(arrays, task, runs))
    return pd.concat(tables, ignore_index=True), pd.concat(prop4, ignore_index=True), task


sweep, sweep_prop4, task = sweep_of(snakemake.input.checkpoints, snakemake.input.runs)
polished, polished_prop4, _ = sweep_of(
    snakemake.input.polished, snakemake.input.polished_runs, snakemake.input.certificates
)
print(sweep.to_string(), polished.to_string(), polished_prop4.to_string(), file=sys.stderr)
write_table(sweep, snakemake.output.sweep)
write_table(polished, snakemake.output.polished_sweep)
schedule = ledger.depth_claims(sweep, task.true_rank)
one_reading = polished[polished.reading == polished.reading.iloc[0]]
schedule += ledger.depth_certificate_claims(one_reading)
schedule += ledger.prop4_claims(sweep_prop4, registry)
polished_claims = ledger.depth_claims(polished, task.true_rank)
polished_claims += ledger.prop4_claims(polished_prop4, registry)
rows = evaluate_networks(registry, schedule, polished_claims)
write_table(rows, snakemake.output.claims)
