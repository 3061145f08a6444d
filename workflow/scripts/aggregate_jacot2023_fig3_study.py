"""The jacot2023 Fig. 3 study's networks in tables (curves; MNIST, with its PCA
projections) and its ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.claims import evaluate  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import curve_polyline, curve_vertices, polyline_shape  # noqa: E402
from l2relu.jacot2023.fig3_study import intrinsic_dimension  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

width = snakemake.params.curve_width
curves = pd.concat(map(pd.read_csv, snakemake.input.curves), ignore_index=True)
# each trained curve's shape beside its networks, read from the curve itself (not the screen
# that chose it): whether it is injective (a check), its turning and sharpest kink
trained = sorted(int(c) for c in curves.curve.unique())  # a seed as a plain int draws its curve
shapes = pd.DataFrame([{"curve": c} | polyline_shape(curve_vertices(width, c)) for c in trained])
curves = curves.merge(shapes, on="curve", how="left", validate="many_to_one")
# the digits' intrinsic dimension, which a reading of the projection row takes as k
digits = np.load(snakemake.input.data)["x_train"]
mnist = pd.concat(map(pd.read_csv, snakemake.input.mnist), ignore_index=True).assign(
    data_dimension=intrinsic_dimension(digits)
)
projections = pd.concat(map(pd.read_csv, snakemake.input.projections), ignore_index=True)
print(curves.to_string(), mnist.to_string(), sep="\n", file=sys.stderr)
write_table(curves, snakemake.output.curves)
write_table(mnist, snakemake.output.mnist)
write_table(projections, snakemake.output.projections)
# the figure draws the first trained curve
xy = curve_polyline(width, int(trained[0]))
write_table(pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]}), snakemake.output.polyline)
registry = load_registry([snakemake.input.registry])
measurements = ledger.fig3_study_claims(
    curves,
    mnist,
    projections,
    snakemake.params.shallow_depth,
    snakemake.params.deep_from,
    registry,
)
write_table(evaluate(registry, measurements), snakemake.output.claims)
