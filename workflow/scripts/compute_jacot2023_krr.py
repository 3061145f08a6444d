"""Kernel ridge regression on Fig. 1's task and the singular values of its Jacobian at test
points, against those of the trained deep network (App. D.1)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.io import load_checkpoint, write_table  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.regression import jacobian_comparison  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
task = LatentTask(**checkpoint["config"]["task"])
params = snakemake.params.krr
spectra, fits = jacobian_comparison(
    arrays, task, checkpoint["config"]["fit"]["n_train"], params["n_test"], params["ridge"]
)
print(fits.to_string(), file=sys.stderr)
write_table(spectra, snakemake.output.spectra)
write_table(fits, snakemake.output.fits)
rows = ledger.krr_claims(
    spectra,
    task.d_in,
    task.d_out,
    task.true_rank,
    params["exact_rel_tol"],
    params["approx_rel_tol"],
    snakemake.params.rank_tolerance,
)
write_table(rows, snakemake.output.claims)
