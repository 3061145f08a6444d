"""The attraction and repulsion forces of one jacot2022 Fig. 1 network, their PCA views, the
neurons' rays and the per-layer measures; and Prop. 1's local-minimum readings of the network
(beside its run's record)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from l2relu.jacot2022 import prop1  # noqa: E402
from l2relu.jacot2022.fig1 import ForcesConfig, analyze  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
config = checkpoint["config"]
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
data = dict(np.load(snakemake.input.data))
tables = analyze(
    arrays,
    data,
    n_rays=len(config["digits"]),  # one ray per class, as in the paper
    cfg=ForcesConfig(**snakemake.params.forces),
    ray_readings=snakemake.params.ray_readings,
)
seed = config["seed"]
tables["layers"] = tables["layers"].assign(seed=seed)
local = prop1.network_readings(arrays, data, config["digits"], config["lam"], seed)
tables["run"] = pd.DataFrame(
    [{k: config[k] for k in ("seed", "diverged", "diverged_step")} | local]
)
for name, table in tables.items():
    write_table(table, snakemake.output[name])
print(tables["layers"].to_string(), file=sys.stderr)
