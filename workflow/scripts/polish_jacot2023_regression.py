"""Trained networks of Fig. 1's task (Fig. 1's, the depth sweep's) polished to a stationary point
of their objective, and the stationarity certificate of both the schedule's networks and the
polished ones: the networks of the seeds `params.seeds` of one checkpoint."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.polishing import polish_fit  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
runs = pd.read_csv(snakemake.input.runs)
seeds = [int(s) for s in snakemake.params.seeds]
indices = [list(runs.seed).index(s) for s in seeds]
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    polished, summary, certificate = polish_fit(
        arrays,
        LatentTask(**checkpoint["config"]["task"]),
        checkpoint["config"]["fit"],
        snakemake.params.iterations,
        indices,
        snakemake.params.device,
    )
    run = runs.iloc[indices].reset_index(drop=True)
    summary = pd.concat(
        [
            run[["seed", "init_seed", "depth", "n_train"]],
            summary,
            run[["diverged", "diverged_step"]],
        ],
        axis=1,
    )
    certificate = certificate.assign(seed=[int(runs.seed[i]) for i in certificate["index"]])
    print(certificate.to_string(), file=sys.stderr)
    saved_seeds = [checkpoint["seed"][i] for i in indices]
    save_checkpoint(
        snakemake.output.checkpoint,
        config=checkpoint["config"] | {"polish_iterations": snakemake.params.iterations},
        seed=saved_seeds[0] if len(saved_seeds) == 1 else saved_seeds,
        arrays=polished,
    )
    write_table(summary, snakemake.output.runs)
    write_table(certificate, snakemake.output.certificate)
