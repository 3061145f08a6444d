"""jacot2023's constructions (Claim 1, Example 1, Cor. 1, App. D.1's rank formula, Sec. 5, Prop.
5, App. F's true rank), built on random instances."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.jacot2023 import constructions  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params.constructions
cfg = constructions.ConstructionsConfig(**p | {"leaky_slopes": tuple(p["leaky_slopes"])})
write_table(constructions.constructions_table(cfg), snakemake.output.table)
