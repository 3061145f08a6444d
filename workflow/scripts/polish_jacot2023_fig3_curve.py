"""Fig. 3 B/C's autoencoders of one architecture, each polished on its own curve to a stationary
point of its objective: where the polished networks send the random inputs, and the certificate
of both the schedule's networks and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import CurveData  # noqa: E402
from l2relu.jacot2023.polishing import polish_curves  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
config = checkpoint["config"]
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks, outputs, polished, certificate = polish_curves(
        arrays,
        pd.read_csv(snakemake.input.networks),
        CurveData(**config["data"]),
        config["lam"],
        snakemake.params.iterations,
        snakemake.params.device,
    )
    certificate = certificate.assign(dataset="curve")
    print(networks.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(networks, snakemake.output.networks)
    write_table(outputs, snakemake.output.outputs)
    write_table(certificate, snakemake.output.certificate)
