"""Train one setting (inputs, lambda) of the jacot2022 Fig. 1 study: Fig. 1's network from each
of the study's seeds, in one batch."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig1_study import KEPT, StudyConfig, train  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
config = snakemake.params.config
cfg = StudyConfig(**config | {"digits": tuple(config["digits"]), "seeds": tuple(config["seeds"])})
# a killed job resumes from its last save on the next run; the saves go once the outputs are in
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    data = np.load(snakemake.input.data)
    arrays, kept, runs, reduced = train(
        cfg,
        data["x_train"].T,
        data["y_train"],
        snakemake.params.device,
        keep_dir=snakemake.params.resume,
    )
    print(runs.to_string(), file=sys.stderr)
    save_checkpoint(
        snakemake.output.checkpoint,
        config=config,
        seed=list(cfg.seeds),
        arrays=arrays | {f"{KEPT}{k}": v for k, v in (kept or {}).items()} | {"inputs": reduced},
    )
    write_table(runs, snakemake.output.runs)
