"""Draw the teacher data set of jacot2022's Fig. 2 (right)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402

from l2relu.jacot2022.data import teacher_data  # noqa: E402
from l2relu.training.io import atomic_path  # noqa: E402

p = snakemake.params
data = teacher_data(p.n_train, p.n_test, p.widths, p.seed)
with atomic_path(snakemake.output.data) as tmp, open(tmp, "wb") as f:
    np.savez(f, **data)
