"""The rank study: every network's fit, ||W||^2/L and its settling, Prop. 3's floor and the
ranks, one row per network, on the networks training left and on the same networks polished;
the norm traces; the ledger rows, one case per setting, each statement read on both networks
(the certificates say which polished networks are stationary)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.rank_study import network_table  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

registry = load_registry([snakemake.input.registry])
readings = {
    "middle": registry[ledger.RANK_STUDY_MIDDLE].every_reading,
    "jacobian": registry[ledger.RANK_STUDY_JACOBIAN].every_reading,
}
settling_share = registry[ledger.RANK_STUDY_SETTLED].parameters["share"]
n_test = snakemake.params.n_test


def measured_networks(checkpoints, runs_paths, trace_paths, traced=True):
    """One table row per network of every run (the last input is the extra depth's run, in
    the selected setting), and the traces with each network's setting. A network not
    `traced` (a polished one: the trace is its training's) has no norm drift."""
    tables, traces = [], []
    inputs = zip(checkpoints, runs_paths, trace_paths, strict=True)
    for index, (checkpoint_path, runs_path, trace_path) in enumerate(inputs):
        checkpoint = load_checkpoint(checkpoint_path)
        arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
        task = LatentTask(**checkpoint["config"]["task"])
        runs = pd.read_csv(runs_path).assign(selected=index == len(runs_paths) - 1)
        trace = pd.read_csv(trace_path)
        trace = trace if traced else trace.iloc[:0]
        tables.append(network_table(arrays, runs, trace, task, n_test, readings, settling_share))
        keys = runs[["network", "scale", "lam_factor", "lam", "depth", "seed", "selected"]]
        traces.append(trace.merge(keys, on="network"))
        print(f"{checkpoint_path}: measured", file=sys.stderr)
    return pd.concat(tables, ignore_index=True), pd.concat(traces, ignore_index=True), task


inputs = snakemake.input
networks, traces, task = measured_networks(inputs.checkpoints, inputs.runs, inputs.traces)
# a polished network's settling is its certificate's
polished, _, _ = measured_networks(inputs.polished, inputs.polished_runs, inputs.traces, False)
certificates = pd.concat(map(pd.read_csv, inputs.certificates), ignore_index=True)
shown = lambda t: t.drop(columns=[c for c in t if ":" in c]).to_string()  # noqa: E731
print(shown(networks), shown(polished), certificates.to_string(), sep="\n", file=sys.stderr)
bar = registry[ledger.RANK_STUDY_CERTIFIED].criterion.bounds()[1]
certified = ledger.rank_study_certified(certificates, bar)
polished["certified"] = [certified[key] for key in ledger.rank_study_keys(polished)]
write_table(networks, snakemake.output.networks)
write_table(polished, snakemake.output.polished)
write_table(traces, snakemake.output.traces)
schedule = ledger.rank_study_claims(networks, task.true_rank, registry)
schedule += ledger.rank_study_certificate_claims(certificates, snakemake.params.selected_depth)
at_polish = ledger.rank_study_claims(polished, task.true_rank, registry, certified)
rows = evaluate_networks(registry, schedule, at_polish)
write_table(rows, snakemake.output.claims)
