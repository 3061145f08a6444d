"""Train chen2024's Thm 5.2 architecture from random starts on the same data (beyond the paper)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.chen2024.theory import TheoryConfig, gradient_descent  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
# a killed job resumes from its last save on the next run
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    config = snakemake.params.config
    cfg = TheoryConfig(
        **config
        | {"dims": tuple(map(tuple, config["dims"])), "per_class": tuple(config["per_class"])}
    )
    runs = gradient_descent(cfg, snakemake.params.device, log=lambda m: print(m, file=sys.stderr))
    print(runs.groupby(["M", "Q"]).cost.describe().to_string(), file=sys.stderr)
    write_table(runs, snakemake.output.runs)
