"""Train one variant of timor2022's Fig. 1 sweep (all seeds at once)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.timor2022.fig1 import Fig1Config, config_dict, run  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

params = snakemake.params.config
cfg = Fig1Config(**params | {"x1": tuple(params["x1"]), "x2": tuple(params["x2"])})
runs, arrays = run(cfg, threads=snakemake.threads, log_every=snakemake.params.log_every)
print(
    f"converged {int(runs.converged.sum())}/{len(runs)}, diverged {int(runs.diverged.sum())}",
    file=sys.stderr,
)
save_checkpoint(
    snakemake.output.checkpoint, config=config_dict(cfg), seed=cfg.first_seed, arrays=arrays
)
write_table(runs, snakemake.output.runs)
