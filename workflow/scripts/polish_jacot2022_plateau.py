"""One plateau job's networks (each width's best restart) polished to a stationary point of
their objective: the plateau read on them, and the certificate of every width's two networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.engine import checkpointing  # noqa: E402
from l2relu.io import atomic_path, write_table  # noqa: E402
from l2relu.jacot2022.polishing import polish_plateau  # noqa: E402
from l2relu.jacot2022.theory import PlateauConfig  # noqa: E402

torch.set_num_threads(snakemake.threads)
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    cfg = PlateauConfig(
        **snakemake.params.config | {"widths": tuple(snakemake.params.config["widths"])}
    )
    losses = pd.read_csv(snakemake.input.losses)
    table, networks, certificate = polish_plateau(
        cfg,
        np.load(snakemake.input.networks),
        losses,
        snakemake.params.iterations,
    )
    print(certificate.to_string(), file=sys.stderr)
    write_table(table, snakemake.output.losses)
    write_table(
        certificate.assign(setting=cfg.setting, N=cfg.n, seed=cfg.seed),
        snakemake.output.certificate,
    )
    with atomic_path(snakemake.output.networks) as tmp, open(tmp, "wb") as f:
        np.savez(f, **networks)
