"""Train one (family, depth) of the jacot2023 Fig. 2 study: every seed and lambda together, and
count each network's tripoints."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import torch  # noqa: E402

from l2relu.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2023.fig2_study import Family, StudyConfig, train  # noqa: E402

torch.set_num_threads(snakemake.threads)
study = snakemake.params.study
cfg = StudyConfig(
    **study
    | {
        "family": Family(**study["family"]),
        "lams": tuple(study["lams"]),
        "seeds": tuple(study["seeds"]),
    }
)
# a killed job resumes from its last save on the next run; the saves go once the output is in
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks = train(cfg, phases_from_config(snakemake.params.phases), snakemake.params.device)
    print(networks.to_string(), file=sys.stderr)
    write_table(networks, snakemake.output.networks)
