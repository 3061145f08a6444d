"""The jacot2023 Fig. 3 study's networks in two tables (curves, MNIST) and its ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import rows_from_registry  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import curve_polyline  # noqa: E402

curves = pd.concat(map(pd.read_csv, snakemake.input.curves), ignore_index=True)
mnist = pd.concat(map(pd.read_csv, snakemake.input.mnist), ignore_index=True)
print(curves.to_string(), mnist.to_string(), sep="\n", file=sys.stderr)
write_table(curves, snakemake.output.curves)
write_table(mnist, snakemake.output.mnist)
first = snakemake.params.first_curve  # the figure draws it
xy = curve_polyline(first["curve_width"], first["seed"])
write_table(pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]}), snakemake.output.polyline)
measurements = ledger.fig3_study_claims(
    curves, mnist, snakemake.params.shallow_depth, snakemake.params.deep_from
)
write_table(rows_from_registry(snakemake.input.registry, measurements), snakemake.output.claims)
