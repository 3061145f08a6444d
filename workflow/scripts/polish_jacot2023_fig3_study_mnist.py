"""The jacot2023 Fig. 3 study's MNIST autoencoders of one architecture, each polished on the
training digits to a stationary point of its objective: the noise each passes, and the
certificate of both the schedule's networks and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.polishing import polish_mnist_study  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import checkpoint_arrays, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint, arrays = checkpoint_arrays(snakemake.input.checkpoint)
study = checkpoint["config"]["study"]
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks, polished, certificate = polish_mnist_study(
        arrays,
        pd.read_csv(snakemake.input.networks),
        np.load(snakemake.input.data)["x_train"],
        study["lam"],
        (study["noise"], study["n_noisy"]),
        snakemake.params.iterations,
        snakemake.params.device,
    )
    certificate = certificate.assign(data="mnist")
    print(networks.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(certificate, snakemake.output.certificate)
    write_table(networks, snakemake.output.networks)
