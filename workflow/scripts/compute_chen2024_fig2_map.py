"""Carry a grid of the plane through Lemma 3.4's layer for chen2024's Fig. 2, and check Section 3's
lemmas on random constructions in higher dimensions."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.chen2024 import ledger  # noqa: E402
from l2relu.chen2024.figures import Fig2Config, fig2_grid  # noqa: E402
from l2relu.chen2024.lemmas import AnyDimensionConfig  # noqa: E402
from l2relu.ledger.claims import evaluate  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

config = dict(snakemake.params.config)
checks = config.pop("any_dimension")
grid, layer = fig2_grid(Fig2Config(**config | {"base_point": tuple(config["base_point"])}))
print(f"W = {layer['w'].tolist()}, b = {layer['b'].tolist()}", file=sys.stderr)
write_table(grid, snakemake.output.grid)
measurements = ledger.fig2_claims(grid, layer["p"], layer["h"], layer["theta"])
registry = load_registry([snakemake.input.registry])
measurements += ledger.any_dimension_claims(
    AnyDimensionConfig(**checks | {"dims": tuple(checks["dims"])}),
    registry["chen2024.fig2.remark21_class_average"].every_reading,
)
write_table(evaluate(registry, measurements), snakemake.output.claims)
