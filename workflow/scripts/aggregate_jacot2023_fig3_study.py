"""The jacot2023 Fig. 3 study's networks in tables (curves; MNIST, with its PCA
projections), the same networks polished, and its ledger rows: read on the networks training
left and on the same networks polished (the certificates say which polished networks are
stationary)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import curve_polyline, curve_vertices, polyline_shape  # noqa: E402
from l2relu.jacot2023.fig3_study import intrinsic_dimension  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

inputs = snakemake.input
read = lambda paths: pd.concat(map(pd.read_csv, paths), ignore_index=True)  # noqa: E731
registry = load_registry([inputs.registry])
width = snakemake.params.curve_width
curves = read(inputs.curves)
# each trained curve's shape beside its networks, read from the curve itself (not the screen
# that chose it): whether it is injective (a check), its turning and sharpest kink
trained = sorted(int(c) for c in curves.curve.unique())  # a seed as a plain int draws its curve
shapes = pd.DataFrame([{"curve": c} | polyline_shape(curve_vertices(width, c)) for c in trained])


def with_shapes(table):
    return table.merge(shapes, on="curve", how="left", validate="many_to_one")


# the digits' intrinsic dimension, which a reading of the projection row takes as k
dimension = intrinsic_dimension(np.load(inputs.data)["x_train"])
certificates = read(inputs.certificates)
bar = registry[ledger.FIG3_STUDY_CERTIFIED].criterion.bounds()[1]
curves, mnist = with_shapes(curves), read(inputs.mnist).assign(data_dimension=dimension)
polished_curves = ledger.fig3_study_polished(
    with_shapes(read(inputs.polished_curves)),
    certificates[certificates.data == "curves"],
    ["depth", "curve", "seed"],
    bar,
)
polished_mnist = ledger.fig3_study_polished(
    read(inputs.polished_mnist).assign(data_dimension=dimension),
    certificates[certificates.data == "mnist"],
    ["depth", "seed"],
    bar,
)
projections = read(inputs.projections)
print(
    curves.to_string(),
    mnist.to_string(),
    polished_curves.to_string(),
    polished_mnist.to_string(),
    certificates.to_string(),
    sep="\n",
    file=sys.stderr,
)
write_table(curves, snakemake.output.curves)
write_table(mnist, snakemake.output.mnist)
write_table(polished_curves, snakemake.output.polished_curves)
write_table(polished_mnist, snakemake.output.polished_mnist)
write_table(projections, snakemake.output.projections)
# the figure draws the first trained curve
xy = curve_polyline(width, int(trained[0]))
write_table(pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]}), snakemake.output.polyline)
depths = (snakemake.params.shallow_depth, snakemake.params.deep_from)
schedule = ledger.fig3_study_claims(curves, mnist, projections, *depths, registry)
schedule += ledger.fig3_study_certificate_claims(certificates)
polished = ledger.fig3_study_claims(polished_curves, polished_mnist, projections, *depths, registry)
write_table(evaluate_networks(registry, schedule, polished), snakemake.output.claims)
