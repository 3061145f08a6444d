"""Fig. 2's ledger rows: tripoints per panel, and the data the figure draws on top."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.claims import evaluate  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.classes import ClassesConfig, data  # noqa: E402
from l2relu.registry import load_registry  # noqa: E402

summaries = [pd.read_csv(f) for f in snakemake.input.summaries]
summary = pd.concat(summaries, ignore_index=True)
# each run's class map, with its seed (a run's regions and summary come in the same order)
regions = pd.concat(
    [
        pd.read_csv(f).assign(seed=s.seed.iloc[0])
        for f, s in zip(snakemake.input.regions, summaries, strict=True)
    ],
    ignore_index=True,
)
print(summary.to_string(), file=sys.stderr)
points, labels = data(ClassesConfig(**snakemake.params.data))
write_table(
    pd.DataFrame({"x": points[:, 0], "y": points[:, 1], "label": labels}), snakemake.output.points
)
write_table(summary, snakemake.output.summary)
measurements = ledger.fig2_claims(summary, **snakemake.params.depths)
registry = load_registry([snakemake.input.registry])
measurements += ledger.fig2_l2_claims(
    regions, summary, **snakemake.params.depths, readings=registry[ledger.L2_EFFECT].every_reading
)
write_table(evaluate(registry, measurements), snakemake.output.claims)
