"""Fig. 2's ledger rows: tripoints per panel and L2's effect on the partition, read on the
networks training left and, for those trained with L2, on the same networks polished (the
certificates say how near a stationary point the polish came); and the data the figure draws
on top."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.classes import ClassesConfig, data  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402


def runs_of(summary_paths, region_paths):
    """The runs' summaries and class maps, each map with its run's seed (a run's regions and
    summary come in the same order)."""
    summaries = [pd.read_csv(f) for f in summary_paths]
    regions = [
        pd.read_csv(f).assign(seed=s.seed.iloc[0])
        for f, s in zip(region_paths, summaries, strict=True)
    ]
    return pd.concat(summaries, ignore_index=True), pd.concat(regions, ignore_index=True)


def measurements(summary, regions):
    depths = snakemake.params.depths
    ms = ledger.fig2_claims(summary, **depths)
    readings = registry[ledger.L2_EFFECT].every_reading
    return ms + ledger.fig2_l2_claims(regions, summary, **depths, readings=readings)


inputs = snakemake.input
registry = load_registry([inputs.registry])
summary, regions = runs_of(inputs.summaries, inputs.regions)
polished, polished_regions = runs_of(inputs.polished_summaries, inputs.polished_regions)
certificates = pd.concat(map(pd.read_csv, inputs.certificates), ignore_index=True)
print(
    summary.to_string(), polished.to_string(), certificates.to_string(), sep="\n", file=sys.stderr
)
points, labels = data(ClassesConfig(**snakemake.params.data))
write_table(
    pd.DataFrame({"x": points[:, 0], "y": points[:, 1], "label": labels}), snakemake.output.points
)
write_table(summary, snakemake.output.summary)
write_table(polished, snakemake.output.polished)
schedule = measurements(summary, regions) + ledger.fig2_certificate_claims(certificates)
polished_reading = measurements(
    ledger.fig2_polished_runs(summary, polished),
    ledger.fig2_polished_runs(regions, polished_regions),
)
unregularized = ledger.fig2_unregularized(summary, polished, **snakemake.params.depths)
rows = evaluate_networks(registry, schedule, polished_reading, unregularized=unregularized)
write_table(rows, snakemake.output.claims)
