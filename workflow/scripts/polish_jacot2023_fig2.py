"""Fig. 2: one depth's networks trained with L2 polished to a stationary point of their
objective, their class maps and tripoints, and the certificate of both the schedule's networks
and the polished ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.jacot2023.classes import ClassesConfig, polish_panels  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import checkpoint_arrays, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint, arrays = checkpoint_arrays(snakemake.input.checkpoint)
config = checkpoint["config"]
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    regions, summary, polished, certificate = polish_panels(
        arrays,
        ClassesConfig(**config["data"]),
        config["width"],
        config["lams"],
        snakemake.params.iterations,
        snakemake.params.device,
    )
    seed = config["data"]["seed"]
    certificate = certificate.assign(depth=config["depth"], seed=seed)
    print(summary.to_string(), certificate.to_string(), sep="\n", file=sys.stderr)
    save_polished(
        snakemake.output.checkpoint,
        checkpoint,
        snakemake.params.iterations,
        polished,
        lams=[float(lam) for lam in summary.lam],
    )
    write_table(regions, snakemake.output.regions)
    write_table(summary.assign(seed=seed), snakemake.output.summary)
    write_table(certificate, snakemake.output.certificate)
