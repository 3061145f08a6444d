"""Fig. 3 A: one autoencoder (deep or shallow) on MNIST, its outputs for noisy held-out
digits, and the trained network."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import Architecture, NoiseConfig, mnist_experiment  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import atomic_path, save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    wc, params = snakemake.wildcards, snakemake.params
    images, summary, arrays = mnist_experiment(
        dict(np.load(snakemake.input.data)),
        Architecture(depth=int(wc.depth), width=int(wc.width)),
        params.lam,
        phases_from_config(params.phases),
        NoiseConfig(**params.noise),
        device=params.device,
    )
    print(summary, file=sys.stderr)
    with atomic_path(snakemake.output.images) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **images)
    write_table(pd.DataFrame([summary | {"seed": params.noise["seed"]}]), snakemake.output.summary)
    config = {
        "lam": params.lam,
        "noise": params.noise,
        "depth": int(wc.depth),
        "width": int(wc.width),
    }
    save_checkpoint(
        snakemake.output.checkpoint, config=config, seed=params.noise["seed"], arrays=arrays
    )
