"""Fig. 3's ledger rows: how far deep and shallow autoencoders send noisy or random inputs
from the data, read on the networks training left and on the same networks polished (the
certificates say how near a stationary point the polish came)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402


def summaries(paths, dataset):
    return pd.concat(map(pd.read_csv, paths), ignore_index=True).assign(dataset=dataset)


def summary_of(curve, mnist):
    return pd.concat([summaries(curve, "curve"), summaries(mnist, "mnist")], ignore_index=True)


inputs = snakemake.input
summary = summary_of(inputs.curve, inputs.mnist)
polished = summary_of(inputs.polished_curve, inputs.polished_mnist)
certificates = pd.concat(map(pd.read_csv, inputs.certificates), ignore_index=True)
print(
    summary.to_string(), polished.to_string(), certificates.to_string(), sep="\n", file=sys.stderr
)
write_table(summary, snakemake.output.summary)
schedule = ledger.fig3_claims(summary) + ledger.fig3_certificate_claims(certificates)
rows = evaluate_networks(load_registry([inputs.registry]), schedule, ledger.fig3_claims(polished))
write_table(rows, snakemake.output.claims)
