"""The jacot2023 Fig. 2 study, one (family, depth): its networks trained with L2 polished to a
stationary point of their objective, their class maps and tripoints, and the certificate of
both the schedule's networks and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.fig2_study import StudyConfig  # noqa: E402
from l2relu.jacot2023.polishing import polish_fig2_study  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import atomic_path, checkpoint_arrays, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint, arrays = checkpoint_arrays(snakemake.input.checkpoint)
cfg = StudyConfig.from_dict(checkpoint["config"])
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    runs, tripoints, maps, polished, certificate = polish_fig2_study(
        arrays, cfg, snakemake.params.iterations, snakemake.params.device
    )
    print(runs.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(
        snakemake.output.checkpoint,
        checkpoint,
        snakemake.params.iterations,
        polished,
        lams=[float(lam) for lam in runs.lam],
        seeds=[int(seed) for seed in runs.seed],
    )
    write_table(tripoints, snakemake.output.tripoints)
    with atomic_path(snakemake.output.maps) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, maps=maps, pads=np.array(cfg.pads))
    write_table(certificate, snakemake.output.certificate)
    write_table(runs, snakemake.output.networks)
