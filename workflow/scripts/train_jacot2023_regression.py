"""Train deep L2-regularized ReLU nets on jacot2023's low-rank regression task (Fig. 1 and the
depth sweep): several seeds of one depth and data size, trained together, their MSE and
||W||^2/L traced."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import FitConfig, fit  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    config = snakemake.params.fit
    cfg = FitConfig(
        **config | {"phases": phases_from_config(config["phases"]), "seeds": tuple(config["seeds"])}
    )
    task = LatentTask(**snakemake.params.task)
    arrays, runs, trace = fit(task, cfg, snakemake.params.device, trace_dir=snakemake.params.resume)
    print(runs.to_string(), file=sys.stderr)
    save_checkpoint(
        snakemake.output.checkpoint,
        config={"task": snakemake.params.task, "fit": config},
        seed=list(runs.init_seed),
        arrays=arrays,
    )
    write_table(runs, snakemake.output.runs)
    write_table(trace, snakemake.output.trace)
