"""Train one MNIST autoencoder of the jacot2023 Fig. 3 study per seed, together, and measure
the noise each passes and the noise PCA projections of the digits pass; save the trained
networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import Settling  # noqa: E402
from l2relu.jacot2023.fig3_study import train_mnist  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
study = snakemake.params.study
# a killed job resumes from its last save on the next run; the saves go once the output is in
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks, projections, arrays = train_mnist(
        dict(np.load(snakemake.input.data)),
        phases=phases_from_config(snakemake.params.phases),
        device=snakemake.params.device,
        settling=Settling(**snakemake.params.settling),
        **study,
    )
    print(networks.to_string(), file=sys.stderr)
    write_table(networks, snakemake.output.networks)
    write_table(projections, snakemake.output.projections)
    save_checkpoint(
        snakemake.output.checkpoint, config={"study": study}, seed=study["seeds"], arrays=arrays
    )
