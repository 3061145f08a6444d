"""jacot2023's constructions (Claim 1, Example 1, Cor. 1, App. D.1's rank formula, Sec. 5, Prop.
5, App. F's true rank) and Thm. 2's rate, built on random instances."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import constructions, tsp  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params.constructions
cfg = constructions.ConstructionsConfig(**p | {"leaky_slopes": tuple(p["leaky_slopes"])})
tables = [constructions.constructions_table(cfg), tsp.rate_table()]
write_table(pd.concat(tables, ignore_index=True), snakemake.output.table)
