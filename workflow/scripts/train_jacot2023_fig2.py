"""Fig. 2: one depth's networks (with and without L2) on the four S classes, their class map
on a grid and the tripoints in it, and the trained networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.jacot2023.classes import ClassesConfig, train_panels  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    params = snakemake.params
    regions, summary, arrays = train_panels(
        ClassesConfig(**params.data),
        int(snakemake.wildcards.depth),
        params.width,
        params.lams,
        phases_from_config(params.phases),
        params.device,
    )
    print(summary.to_string(), file=sys.stderr)
    write_table(regions, snakemake.output.regions)
    write_table(summary.assign(seed=params.data["seed"]), snakemake.output.summary)
    config = {
        "data": params.data,
        "depth": int(snakemake.wildcards.depth),
        "width": params.width,
        "lams": list(params.lams),
    }
    save_checkpoint(
        snakemake.output.checkpoint, config=config, seed=config["data"]["seed"], arrays=arrays
    )
