"""Lowest regularized loss against width, and the network that reaches it, for one data set
of jacot2022's Props. 14-15 (and of jacot2023's Remark 2, deeper networks on Prop. 14's): every
seed (a set of restarts) of the job in turn, each to its own files."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.theory import PlateauConfig, train_plateau  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import atomic_path, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
fields = snakemake.params.config | {"widths": tuple(snakemake.params.config["widths"])}
outputs = zip(
    snakemake.params.seeds, snakemake.output.losses, snakemake.output.networks, strict=True
)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    for seed, losses_path, networks_path in outputs:
        cfg = PlateauConfig(**fields, seed=seed)
        print(f"[seed {seed}: restarts {seed}-{seed + cfg.restarts - 1}]", file=sys.stderr)
        losses, networks = train_plateau(
            cfg, log=lambda msg: print(msg, file=sys.stderr, flush=True)
        )
        write_table(losses.assign(seed=cfg.seed), losses_path)
        with atomic_path(networks_path) as tmp, open(tmp, "wb") as f:
            np.savez(f, **networks)
