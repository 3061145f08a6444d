"""Draw the MNIST train and test subsets every later step reads."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402

from l2relu.data import mnist  # noqa: E402
from l2relu.training.io import atomic_path  # noqa: E402

p = snakemake.params
data = mnist.subsets(p.source, p.idx_dir, p.digits, p.n_train, p.n_test, p.seed)
with atomic_path(snakemake.output.data) as tmp, open(tmp, "wb") as f:
    np.savez(f, **data)
