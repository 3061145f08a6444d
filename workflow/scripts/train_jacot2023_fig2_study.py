"""Train one (family, depth) of the jacot2023 Fig. 2 study: every seed and lambda together; save
each network's fit, its class maps in every box and their tripoints, and the trained networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.fig2_study import StudyConfig, train  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import atomic_path, save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
cfg = StudyConfig.from_dict(snakemake.params.study)
resume = snakemake.params.resume
# a killed job resumes from its last save on the next run; the saves go once the output is in
with checkpointing(resume, snakemake.config["checkpoint_every_s"]):
    runs, tripoints, maps, arrays = train(
        cfg,
        phases_from_config(snakemake.params.phases),
        snakemake.params.device,
        snapshot_dir=resume,
    )
    print(runs.to_string(), file=sys.stderr)
    write_table(tripoints, snakemake.output.tripoints)
    with atomic_path(snakemake.output.maps) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, maps=maps, pads=np.array(cfg.pads))
    save_checkpoint(
        snakemake.output.checkpoint, config=cfg.as_dict(), seed=list(cfg.seeds), arrays=arrays
    )
    write_table(runs, snakemake.output.networks)
