"""Collect jacot2022's proposition checks and plateaus; measure their claims, the plateau onsets
on the schedule's networks and on the same networks polished; Sec. 4.2's ranks on both; Sec. 3.1
item 2's linear networks; App. B.1's bound near infeasible points."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2022 import infeasible, ledger, theory  # noqa: E402
from l2relu.jacot2022.plateau import with_running_best  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
registry = load_registry([snakemake.input.registry])
losses = pd.concat([pd.read_csv(f) for f in snakemake.input.plateaus], ignore_index=True)
onset_readings, onsets = ledger.onset_readings(losses, registry, p.onehot_classes)
measurements = ledger.theory_claims(
    *(pd.read_csv(snakemake.input[k]) for k in ("prop13", "remark23", "prop1", "prop19")),
    onset_readings,
    onsets[onsets.setting == "bipartite"],
    p.lam,
    registry[ledger.PROP19_ENDPOINT].every_reading,
)
measurements += ledger.onehot_root_claims(pd.read_csv(snakemake.input.onehot_root))
measurements += ledger.covariance_claims(
    *(pd.read_csv(snakemake.input[k]) for k in ("reduction", "prop5", "remark23"))
)
measurements += ledger.alignment_claims(
    pd.read_csv(snakemake.input.alignment), registry[ledger.PROPORTIONAL].every_reading
)
measurements += ledger.cp_rank_claims(pd.read_csv(snakemake.input.cp_rank))
# App. B.1's bound near infeasible points, on small random points computed here (about 1.5 s)
measurements += ledger.appb1_claims(infeasible.appb1_table(), registry[ledger.APPB1].every_reading)
# and gradient descent on L^r from feasible starts, without projection (about 2 s)
measurements += ledger.appb1_flow_claims(infeasible.flow_table())
networks = theory.plateau_networks(snakemake.input.plateaus, snakemake.input.networks)
tolerances = ledger.merge_tolerances(registry)
compressed = theory.compression_table(networks, losses, p.onehot_classes, p.lam, tolerances)
measurements += ledger.compression_claims(compressed, onsets, registry)
measurements += ledger.sec42_claims(compressed, onsets, registry, p.onehot_classes)
linear_trained = pd.read_csv(snakemake.input.linear_trained)
measurements += ledger.linear_construction_claims(pd.read_csv(snakemake.input.linear_construction))
measurements += ledger.linear_trained_claims(linear_trained, "schedule", registry)
write_table(with_running_best(losses, [*theory.CURVE, "seed"]), snakemake.output.plateau)
write_table(onsets, snakemake.output.onsets)
write_table(compressed, snakemake.output.compression)
# the onsets again on every width's network polished, each seed read where all are certified
bar = registry[ledger.PLATEAU_CERTIFIED].criterion.bounds()[1]
certificates = pd.concat(map(pd.read_csv, snakemake.input.certificates))
falls = ledger.polished_falls(certificates, ledger.PLATEAU_NETWORK)
measurements += ledger.plateau_certificate_claims(falls, bar)
polished_losses = pd.concat(map(pd.read_csv, snakemake.input.polished), ignore_index=True)
polished_readings, polished_onsets = ledger.onset_readings(
    polished_losses, registry, p.onehot_classes
)
write_table(polished_onsets, snakemake.output.polished_onsets)
polished = ledger.onset_claims(
    polished_readings, ledger.certified(falls, ledger.PLATEAU_NETWORK, bar)
)
# Sec. 4.2 on the bias-free plateau seeds' widest networks, polished
polished_networks = {
    key: arrays
    for key, arrays in theory.plateau_networks(
        snakemake.input.polished, snakemake.input.polished_networks
    ).items()
    if key[0] in ledger.SEC42_SETTINGS
}
compressed_polished = theory.compression_table(
    polished_networks, polished_losses, p.onehot_classes, p.lam, tolerances
)
widest = ledger.widest_certified(falls, compressed_polished, bar)
polished += ledger.sec42_claims(
    compressed_polished, polished_onsets, registry, p.onehot_classes, widest
)
polished += ledger.linear_trained_claims(linear_trained, "polished", registry, bar)
write_table(evaluate_networks(registry, measurements, polished), snakemake.output.claims)
