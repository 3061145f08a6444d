"""Fig. 3's ledger rows: how far deep and shallow autoencoders send noisy or random inputs
from the data."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402


def summaries(paths, dataset):
    return pd.concat(map(pd.read_csv, paths), ignore_index=True).assign(dataset=dataset)


summary = pd.concat(
    [
        summaries(snakemake.input.curve, "curve"),
        summaries(snakemake.input.mnist, "mnist"),
    ],
    ignore_index=True,
)
print(summary.to_string(), file=sys.stderr)
write_table(summary, snakemake.output.summary)
write_table(
    rows_from_registry(snakemake.input.registry, ledger.fig3_claims(summary)),
    snakemake.output.claims,
)
