"""Train one width of jacot2022's Fig. 2 sweep: every lambda and trial together; the table and
the trained networks (one per row)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig2 import Fig2Config, train_width  # noqa: E402
from l2relu.training.engine import checkpointing, stacked_arrays  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    data = dict(np.load(snakemake.input.data))
    cfg = Fig2Config(**snakemake.params.config | {"lams": tuple(snakemake.params.config["lams"])})
    table, model = train_width(cfg, data, device=snakemake.params.device)
    save_checkpoint(
        snakemake.output.networks,
        config=snakemake.params.config,
        seed=cfg.seed,
        arrays=stacked_arrays(model),
    )
    write_table(table, snakemake.output.runs)
