"""One plateau job's networks (each width's best restart, every seed of the job in turn)
polished to a stationary point of their objective: the plateau read on them, and the
certificate of every width's two networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.polishing import polish_plateau  # noqa: E402
from l2relu.jacot2022.theory import PlateauConfig  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import atomic_path, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
fields = snakemake.params.config | {"widths": tuple(snakemake.params.config["widths"])}
i, o = snakemake.input, snakemake.output
seeds = zip(
    snakemake.params.seeds, i.losses, i.networks, o.losses, o.networks, o.certificate, strict=True
)
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    for seed, losses_in, networks_in, losses_out, networks_out, certificate_out in seeds:
        cfg = PlateauConfig(**fields, seed=seed)
        print(f"[seed {seed}]", file=sys.stderr)
        table, networks, certificate = polish_plateau(
            cfg, np.load(networks_in), pd.read_csv(losses_in), snakemake.params.iterations
        )
        print(certificate.to_string(), file=sys.stderr)
        write_table(table, losses_out)
        write_table(
            certificate.assign(setting=cfg.setting, N=cfg.n, seed=cfg.seed), certificate_out
        )
        with atomic_path(networks_out) as tmp, open(tmp, "wb") as f:
            np.savez(f, **networks)
