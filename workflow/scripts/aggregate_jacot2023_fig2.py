"""Fig. 2's ledger rows: tripoints per panel, and the data the figure draws on top."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.classes import ClassesConfig, data  # noqa: E402

summary = pd.concat(map(pd.read_csv, snakemake.input.summaries), ignore_index=True)
print(summary.to_string(), file=sys.stderr)
points, labels = data(ClassesConfig(**snakemake.params.data))
write_table(
    pd.DataFrame({"x": points[:, 0], "y": points[:, 1], "label": labels}), snakemake.output.points
)
write_table(summary, snakemake.output.summary)
measurements = ledger.fig2_claims(summary, **snakemake.params.depths)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
