"""Train one depth of the jacot2023 Fig. 3 study on curves: every (curve, seed) autoencoder
together, to convergence, and measure each; save the trained networks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from l2relu.jacot2023.autoencoders import Settling  # noqa: E402
from l2relu.jacot2023.fig3_study import CurveStudyConfig, train_curves  # noqa: E402
from l2relu.training.engine import checkpointing, phases_from_config  # noqa: E402
from l2relu.training.io import save_checkpoint, write_table  # noqa: E402

torch.set_num_threads(snakemake.threads)
study = snakemake.params.study
screen = pd.read_csv(snakemake.input.screen)
curves = tuple(int(c) for c in screen.curve[screen.admitted])
cfg = CurveStudyConfig(**study | {"curves": curves, "seeds": tuple(study["seeds"])})
# a killed job resumes from its last save on the next run; the saves go once the outputs are in
with checkpointing(snakemake.params.resume, snakemake.config["checkpoint_every_s"]):
    networks, outputs, arrays = train_curves(
        cfg,
        phases_from_config(snakemake.params.phases),
        snakemake.params.device,
        settling=Settling(**snakemake.params.settling),
    )
    print(networks.to_string(), file=sys.stderr)
    write_table(networks, snakemake.output.networks)
    write_table(outputs, snakemake.output.outputs)
    config = {"study": study | {"curves": list(curves)}}
    save_checkpoint(snakemake.output.checkpoint, config=config, seed=study["seeds"], arrays=arrays)
