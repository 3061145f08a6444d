"""The attraction and repulsion forces of jacot2022's Fig. 1 network, their PCA views, the
neurons' rays and the ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402

from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2022 import ledger  # noqa: E402
from l2relu.jacot2022.fig1 import ForcesConfig, analyze  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
tables = analyze(
    arrays,
    dict(np.load(snakemake.input.data)),
    n_rays=len(checkpoint["config"]["digits"]),  # one ray per class, as in the paper
    cfg=ForcesConfig(**snakemake.params.forces),
)
for name, table in tables.items():
    write_table(table, snakemake.output[name])
print(tables["layers"].to_string(), file=sys.stderr)
rows = ledger.fig1_claims(
    tables["layers"],
    checkpoint["config"]["diverged"],
    checkpoint["config"]["diverged_step"],
    ray_angle_deg=snakemake.params.forces["ray_angle_deg"],
    **snakemake.params.thresholds,
)
write_table(rows, snakemake.output.claims)
