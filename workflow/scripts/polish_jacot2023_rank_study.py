"""The rank study's networks of one checkpoint (every lambda and seed of a data scale and depth)
polished to a stationary point of their own objective, and the certificate of both the
schedule's networks and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.polishing import polish_study  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
runs = pd.read_csv(snakemake.input.runs)
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    polished, polished_runs, certificate = polish_study(
        arrays,
        runs,
        LatentTask(**checkpoint["config"]["task"]),
        snakemake.params.iterations,
        snakemake.params.device,
    )
    print(certificate.to_string(), file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(polished_runs, snakemake.output.runs)
    write_table(certificate, snakemake.output.certificate)
