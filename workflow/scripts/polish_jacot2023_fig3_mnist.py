"""Fig. 3 A's MNIST autoencoder of one seed and architecture polished on its training digits to
a stationary point of its objective: how much of the noise the polished network passes, and the
certificate of both the schedule's network and the polished one."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import NoiseConfig  # noqa: E402
from l2relu.jacot2023.polishing import polish_mnist  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
config = checkpoint["config"]
(summary,) = pd.read_csv(snakemake.input.summary).to_dict("records")
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    summary, polished, certificate = polish_mnist(
        arrays,
        summary,
        dict(np.load(snakemake.input.data)),
        config["lam"],
        NoiseConfig(**config["noise"]),
        snakemake.params.iterations,
        snakemake.params.device,
    )
    certificate = certificate.assign(dataset="mnist", seed=summary["seed"], depth=summary["depth"])
    print(summary, certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(pd.DataFrame([summary]), snakemake.output.summary)
    write_table(certificate, snakemake.output.certificate)
