"""Screen the jacot2023 Fig. 3 study's random curves by Section 5's premise, before any
training: the first n injective curves are trained, and every curve looked at is listed with
its shape."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023.data import screen_curves  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
screen = pd.DataFrame(screen_curves(p.curve_width, p.first, p.n_curves))
print(screen.to_string(), file=sys.stderr)
write_table(screen, snakemake.output.screen)
