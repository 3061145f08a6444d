"""Fig. 3 B/C: one autoencoder (deep or shallow) on the curve, and where it sends random
inputs."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023.autoencoders import Architecture, CurveConfig, curve_experiment  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    wc, params = snakemake.wildcards, snakemake.params
    table, summary = curve_experiment(
        CurveConfig(**params.data),
        Architecture(depth=int(wc.depth), width=int(wc.width)),
        params.lam,
        phases_from_config(params.phases),
        params.device,
    )
    print(summary, file=sys.stderr)
    write_table(table, snakemake.output.outputs)
    write_table(pd.DataFrame([summary | {"seed": params.data["seed"]}]), snakemake.output.summary)
