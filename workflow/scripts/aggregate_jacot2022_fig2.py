"""Collect jacot2022's Fig. 2 sweep; measure its plateau onsets, test-to-training loss ratios
and App. A's GD against Adam per trial; the statements about trained networks read on the
schedule's networks and on the same networks polished."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2022 import fig2, ledger  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

runs = pd.concat([pd.read_csv(f) for f in snakemake.input.runs], ignore_index=True)
registry = load_registry([snakemake.input.registry])
measurements = ledger.fig2_claims(
    runs,
    registry[ledger.ONSET_FIG2].every_reading,
    registry[ledger.TEST_BELOW_TRAIN].every_reading,
)
measurements += ledger.easier_claims(runs, registry[ledger.EASIER].every_reading)
measurements += ledger.gd_lower_claims(runs)
certificates = pd.concat(map(pd.read_csv, snakemake.input.certificates))
falls = ledger.polished_falls(certificates, ledger.FIG2_NETWORK)
measurements += ledger.fig2_certificate_claims(falls)
bar = registry[ledger.FIG2_CERTIFIED].criterion.bounds()[1]
polished = ledger.fig2_claims(
    pd.concat(map(pd.read_csv, snakemake.input.polished), ignore_index=True),
    registry[ledger.ONSET_FIG2].every_reading,
    registry[ledger.TEST_BELOW_TRAIN].every_reading,
    ledger.certified(falls, ledger.FIG2_NETWORK, bar),
)
write_table(fig2.curves(runs), snakemake.output.curves)
write_table(fig2.diverged_runs(runs), snakemake.output.diverged)
rows = evaluate_networks(registry, measurements, polished)
write_table(rows, snakemake.output.claims)
