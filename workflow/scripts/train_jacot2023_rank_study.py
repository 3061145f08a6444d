"""Train the rank study's networks of one (data scale, depth): every lambda and seed together,
||W||^2/L traced. The extra depth's job reads its setting from the selection's file."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.rank_study import StudyFit, fit  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
study = dict(snakemake.params.study)
if "setting" in snakemake.input.keys():
    setting = json.loads(open(snakemake.input.setting).read())
    print(f"setting selected at the deepest swept depth: {setting}", file=sys.stderr)
    study |= {"scale": setting["scale"], "lam_factors": [setting["lam_factor"]]}
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    cfg = StudyFit(
        depth=study["depth"],
        width=study["width"],
        n_train=study["n_train"],
        lams=tuple(study["lam"] * factor for factor in study["lam_factors"]),
        phases=phases_from_config(study["phases"]),
        seeds=tuple(study["seeds"]),
        log_every=study["log_every"],
    )
    task = LatentTask(**snakemake.params.task | {"scale": study["scale"]})
    arrays, runs, trace = fit(task, cfg, snakemake.params.device, snakemake.params.resume)
    factors = dict(zip(cfg.lams, study["lam_factors"], strict=True))
    runs.insert(0, "lam_factor", runs.lam.map(factors))
    runs.insert(0, "scale", study["scale"])
    print(runs.to_string(), file=sys.stderr)
    save_checkpoint(
        snakemake.output.checkpoint,
        config={"task": task.__dict__, "study": study},
        seed=list(runs.init_seed),
        arrays=arrays,
    )
    write_table(runs, snakemake.output.runs)
    write_table(trace, snakemake.output.trace)
