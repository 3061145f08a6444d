"""One width of jacot2022's Fig. 2 sweep polished to a stationary point of each network's
objective: the table as training wrote it with the polished networks' losses, the polished
networks, and the certificate of both networks of every row."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2022.fig2 import polish_width  # noqa: E402
from l2relu.training.engine import checkpointing  # noqa: E402
from l2relu.training.io import load_checkpoint, save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    checkpoint = load_checkpoint(snakemake.input.networks)
    arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
    runs = pd.read_csv(snakemake.input.runs)
    seed = checkpoint["seed"]
    table, polished, certificate = polish_width(
        snakemake.wildcards.dataset,
        dict(np.load(snakemake.input.data)),
        runs,
        arrays,
        snakemake.params.iterations,
    )
    certificate = certificate.assign(dataset=snakemake.wildcards.dataset, width=runs.width[0])
    print(certificate.to_string(), file=sys.stderr)
    write_table(table, snakemake.output.runs)
    write_table(certificate, snakemake.output.certificate)
    # the training's config, and the budget that carried its networks on
    config = checkpoint["config"] | {"polish_iterations": snakemake.params.iterations}
    save_checkpoint(snakemake.output.networks, config=config, seed=seed, arrays=polished)
