"""Train jacot2022's Fig. 1 network: full-batch GD on three MNIST digits."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig1 import Fig1Config, train  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import save_checkpoint  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    config = snakemake.params.config
    cfg = Fig1Config(**config | {"digits": tuple(config["digits"])})
    seed, arrays, summary = train(cfg, dict(np.load(snakemake.input.data)), snakemake.params.device)
    print(f"final: {summary}", file=sys.stderr)
    save_checkpoint(snakemake.output.checkpoint, config=config | summary, seed=seed, arrays=arrays)
