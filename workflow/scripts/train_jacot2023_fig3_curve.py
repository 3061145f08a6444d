"""Fig. 3 B/C: the autoencoders of one architecture (deep or shallow), one per seed on that
seed's curve, trained together; where each sends random inputs, and the trained networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import Architecture, CurveData, figure_curves  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    wc, params = snakemake.wildcards, snakemake.params
    networks, outputs, arrays = figure_curves(
        CurveData(**params.data),
        params.seeds,
        Architecture(depth=int(wc.depth), width=int(wc.width)),
        params.lam,
        phases_from_config(params.phases),
        params.device,
    )
    print(networks.to_string(), file=sys.stderr)
    write_table(networks, snakemake.output.networks)
    write_table(outputs, snakemake.output.outputs)
    config = {
        "data": params.data,
        "lam": params.lam,
        "depth": int(wc.depth),
        "width": int(wc.width),
    }
    save_checkpoint(snakemake.output.checkpoint, config=config, seed=params.seeds, arrays=arrays)
