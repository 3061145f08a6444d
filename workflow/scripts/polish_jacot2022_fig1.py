"""jacot2022's Fig. 1 network of one seed polished to a stationary point of its objective, and
the certificate of both the schedule's network and the polished one."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig1 import Fig1Config, polish  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402
from l2relu.training.polish import save_polished  # noqa: E402

torch.set_num_threads(snakemake.threads)
checkpoint = load_checkpoint(snakemake.input.checkpoint)
config = checkpoint["config"]
cfg = Fig1Config(
    **{k: config[k] for k in Fig1Config.__dataclass_fields__} | {"digits": tuple(config["digits"])}
)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    polished, certificate = polish(
        cfg,
        dict(np.load(snakemake.input.data)),
        arrays,
        snakemake.params.iterations,
        snakemake.params.device,
    )
    certificate = certificate.assign(seed=cfg.seed)
    print(certificate.to_string(), file=sys.stderr)
    after = certificate[certificate.network == "polished"].iloc[0]
    save_polished(
        snakemake.output.checkpoint,
        checkpoint,
        snakemake.params.iterations,
        polished,
        objective=float(after.objective),
        loss=float(after.loss),
    )
    write_table(certificate, snakemake.output.certificate)
