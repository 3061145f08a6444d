"""The attraction and repulsion forces of one jacot2022 Fig. 1 network, their PCA views, the
neurons' rays and the per-layer measures."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.jacot2022.fig1 import ForcesConfig, analyze  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
tables = analyze(
    arrays,
    dict(np.load(snakemake.input.data)),
    n_rays=len(checkpoint["config"]["digits"]),  # one ray per class, as in the paper
    cfg=ForcesConfig(**snakemake.params.forces),
    ray_readings=snakemake.params.ray_readings,
)
seed = checkpoint["config"]["seed"]
tables["layers"] = tables["layers"].assign(seed=seed)
tables["run"] = pd.DataFrame(
    [{k: checkpoint["config"][k] for k in ("seed", "diverged", "diverged_step")}]
)
for name, table in tables.items():
    write_table(table, snakemake.output[name])
print(tables["layers"].to_string(), file=sys.stderr)
