"""One setting of the jacot2022 Fig. 1 study: every seed's network polished to a stationary
point of its objective, and the certificate of both the schedule's networks and the polished
ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig1_study import StudyConfig, polish_study  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import checkpoint_arrays, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint, arrays = checkpoint_arrays(snakemake.input.checkpoint)
config = checkpoint["config"]
cfg = StudyConfig(**config | {"digits": tuple(config["digits"]), "seeds": tuple(config["seeds"])})
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    polished, runs, certificate = polish_study(
        arrays,
        pd.read_csv(snakemake.input.runs),
        cfg,
        np.load(snakemake.input.data)["y_train"],
        snakemake.params.iterations,
        snakemake.params.device,
    )
    print(runs.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(runs, snakemake.output.runs)
    write_table(certificate, snakemake.output.certificate)
