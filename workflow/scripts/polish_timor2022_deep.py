"""The deep networks of one (theorem, depth) point of timor2022's Theorems 4-5 check polished to
a stationary point of their objective, and the stationarity certificate of both networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.timor2022.data import TeacherConfig  # noqa: E402
from l2relu.timor2022.deep import DeepConfig, polish_run  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    metrics, polished, certificate = polish_run(
        arrays,
        TeacherConfig(**checkpoint["config"]["teacher"]),
        DeepConfig(**checkpoint["config"]["deep"]),
        pd.read_csv(snakemake.input.metrics),
        snakemake.params.iterations,
        snakemake.params.device,
    )
    print(certificate.to_string(), file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(metrics, snakemake.output.metrics)
    write_table(certificate, snakemake.output.certificate)
