"""Train one width of jacot2022's Fig. 2 sweep: every lambda and trial together."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.engine import checkpointing  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022.fig2 import Fig2Config, run  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    data = dict(np.load(snakemake.input.data))
    cfg = Fig2Config(**snakemake.params.config | {"lams": tuple(snakemake.params.config["lams"])})
    write_table(run(cfg, data, device=snakemake.params.device), snakemake.output.runs)
