"""Try every ordering of Fig. 3's classes against Def. 5.1; build Thm 5.2's network."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.chen2024 import ledger  # noqa: E402
from l2relu.chen2024.figures import Fig3Config, fig3_tables  # noqa: E402
from l2relu.ledger.claims import rows_from_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

config = dict(snakemake.params.config)
boxes = tuple(tuple(box) for box in config.pop("boxes"))
points, steps, orderings, centers, notes = fig3_tables(Fig3Config(boxes, **config))
print(orderings.to_string(), steps.to_string(), notes, sep="\n", file=sys.stderr)
tables = {"points": points, "steps": steps, "orderings": orderings, "centers": centers}
for name, table in tables.items():
    write_table(table, snakemake.output[name])
rows = rows_from_registry(snakemake.input.registry, ledger.fig3_claims(orderings, notes))
write_table(rows, snakemake.output.claims)
