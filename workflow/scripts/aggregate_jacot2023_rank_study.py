"""The rank study: every network's fit, ||W||^2/L and its settling, Prop. 3's floor and the
ranks, one row per network; the norm traces; the ledger rows, one case per setting."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import evaluate  # noqa: E402
from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.rank_study import network_table  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

registry = load_registry([snakemake.input.registry])
readings = {
    "middle": registry[ledger.RANK_STUDY_MIDDLE].every_reading,
    "jacobian": registry[ledger.RANK_STUDY_JACOBIAN].every_reading,
}
settling_share = registry[ledger.RANK_STUDY_SETTLED].parameters["share"]
tables, traces = [], []
inputs = zip(snakemake.input.checkpoints, snakemake.input.runs, snakemake.input.traces, strict=True)
for index, (checkpoint_path, runs_path, trace_path) in enumerate(inputs):
    checkpoint = load_checkpoint(checkpoint_path)
    arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
    task = LatentTask(**checkpoint["config"]["task"])
    runs = pd.read_csv(runs_path)
    # the last input is the extra depth's run, in the selected setting
    runs["selected"] = index == len(snakemake.input.runs) - 1
    trace = pd.read_csv(trace_path)
    n_test = snakemake.params.n_test
    tables.append(network_table(arrays, runs, trace, task, n_test, readings, settling_share))
    keys = runs[["network", "scale", "lam_factor", "lam", "depth", "seed", "selected"]]
    traces.append(trace.merge(keys, on="network"))
    print(f"{runs_path}: measured", file=sys.stderr)
networks = pd.concat(tables, ignore_index=True)
print(networks.drop(columns=[c for c in networks if ":" in c]).to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
write_table(pd.concat(traces, ignore_index=True), snakemake.output.traces)
measurements = ledger.rank_study_claims(networks, task.true_rank, registry)
write_table(evaluate(registry, measurements), snakemake.output.claims)
