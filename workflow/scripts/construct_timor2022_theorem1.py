"""Build timor2022's Theorem 1 network on random 2-point data sets."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.timor2022.theory import theorem1_table  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

write_table(theorem1_table(snakemake.params.n_datasets), snakemake.output.table)
