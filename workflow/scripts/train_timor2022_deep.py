"""Train the deep L2-regularized networks of one (theorem, depth) point of timor2022's
Theorems 4-5 check."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.timor2022.data import TeacherConfig  # noqa: E402
from l2relu.timor2022.deep import DeepConfig, run  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    teacher, deep = snakemake.params.teacher, snakemake.params.deep
    metrics, arrays, seeds = run(
        TeacherConfig(**teacher), DeepConfig(**deep), device=snakemake.params.device
    )
    save_checkpoint(
        snakemake.output.checkpoint,
        config={"teacher": teacher, "deep": deep},
        seed=seeds,
        arrays=arrays,
    )
    write_table(metrics, snakemake.output.metrics)
