"""Lowest regularized loss at one group of widths of jacot2023's Remark 2 runs (jacot2022's
Prop. 14 task, deeper networks)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.engine import checkpointing  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022.theory import PlateauConfig, plateau_losses  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    cfg = PlateauConfig(
        **snakemake.params.config | {"widths": tuple(snakemake.params.config["widths"])}
    )
    losses = plateau_losses(cfg, log=lambda msg: print(msg, file=sys.stderr, flush=True))
    write_table(losses.assign(seed=cfg.seed), snakemake.output.losses)
