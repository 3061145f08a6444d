"""Kernel ridge regression on Fig. 1's task (the task drawn from each of the claims' seeds) and
the singular values of its Jacobian at test points, against those of every seed's trained deep
network (App. D.1); the constructions' and Remark 2's rows. The statements about trained
networks (Fig. 1's, Remark 2's) are read on the schedule's networks and on the same networks
polished."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2022.ledger import PLATEAU_NETWORK, polished_falls  # noqa: E402
from l2relu.jacot2022.ledger import certified as plateau_certified  # noqa: E402
from l2relu.jacot2023 import ledger  # noqa: E402
from l2relu.jacot2023.data import LatentTask  # noqa: E402
from l2relu.jacot2023.polishing import load_polished  # noqa: E402
from l2relu.jacot2023.regression import krr_spectra, network_spectra  # noqa: E402
from l2relu.ledger.claims import evaluate_networks  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

checkpoint = load_checkpoint(snakemake.input.checkpoint)
arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
task_config = checkpoint["config"]["task"]
task = LatentTask(**task_config)
n_train = checkpoint["config"]["fit"]["n_train"]
params = snakemake.params.krr
runs = pd.read_csv(snakemake.input.runs)
spectra, fits = [], []
for index, seed in enumerate(runs.seed):
    # KRR has no initialization: its seeds are those of the task's random draw
    krr_task = LatentTask(**task_config | {"seed": task_config["seed"] + index})
    for s, f in (
        krr_spectra(krr_task, n_train, params["n_test"], params["ridge"]),
        network_spectra(arrays, index, task, params["n_test"]),
    ):
        spectra.append(s.assign(seed=seed))
        fits.append(f.assign(seed=seed))
spectra, fits = pd.concat(spectra, ignore_index=True), pd.concat(fits, ignore_index=True)
print(fits.to_string(), file=sys.stderr)
write_table(spectra, snakemake.output.spectra)
write_table(fits, snakemake.output.fits)
registry = load_registry([snakemake.input.registry])
measurements = ledger.krr_claims(spectra, task.d_in, task.d_out, task.true_rank, registry)
measurements += ledger.prop3_claims(spectra, runs, "network", registry)
# the same claims on the polished networks: only the entries with a `network` are kept
polished_arrays, polished_runs, certificate = load_polished(
    snakemake.input.polished, snakemake.input.polished_runs, snakemake.input.certificate
)
polished_spectra = pd.concat(
    [
        network_spectra(polished_arrays, index, task, params["n_test"])[0].assign(seed=seed)
        for index, seed in enumerate(polished_runs.seed)
    ],
    ignore_index=True,
)
polished = ledger.krr_claims(
    pd.concat([spectra[spectra.model == "krr"], polished_spectra], ignore_index=True),
    task.d_in,
    task.d_out,
    task.true_rank,
    registry,
)
polished += ledger.prop3_claims(polished_spectra, polished_runs, "network", registry)
certified, _ = ledger.certificate_claims(certificate, registry)
measurements += ledger.construction_claims(pd.read_csv(snakemake.input.constructions))
read = lambda paths: pd.concat(map(pd.read_csv, paths), ignore_index=True)  # noqa: E731
readings = registry[ledger.REMARK2_SMALLER].every_reading
remark2 = snakemake.params.remark2
measurements += ledger.remark2_claims(read(snakemake.input.remark2), **remark2, readings=readings)
# Remark 2 again on every width's network polished, each seed read where all are certified
falls = polished_falls(read(snakemake.input.remark2_certificates), PLATEAU_NETWORK)
measurements += ledger.remark2_certificate_claims(falls, **remark2)
bar = registry[ledger.REMARK2_CERTIFIED].criterion.bounds()[1]
polished += ledger.remark2_claims(
    read(snakemake.input.remark2_polished),
    **remark2,
    readings=readings,
    certified=plateau_certified(falls, PLATEAU_NETWORK, bar),
)
rows = evaluate_networks(registry, measurements, polished, stationary=certified)
write_table(rows, snakemake.output.claims)
