"""The jacot2023 Fig. 3 study's curve autoencoders of one depth, each polished on its own curve
to a stationary point of its objective: their measures, and the certificate of both the
schedule's networks and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import CurveData  # noqa: E402
from l2relu.jacot2023.polishing import polish_curves  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import checkpoint_arrays, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint, arrays = checkpoint_arrays(snakemake.input.checkpoint)
study = checkpoint["config"]["study"]
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks, _, polished, certificate = polish_curves(
        arrays,
        pd.read_csv(snakemake.input.networks),
        CurveData(study["curve_width"], study["n_train"], study["n_random"]),
        study["lam"],
        snakemake.params.iterations,
        snakemake.params.device,
    )
    certificate = certificate.assign(data="curves")
    print(networks.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(snakemake.output.checkpoint, checkpoint, snakemake.params.iterations, polished)
    write_table(certificate, snakemake.output.certificate)
    write_table(networks, snakemake.output.networks)
