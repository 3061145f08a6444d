"""Collect jacot2022's proposition checks and plateaus; measure their claims."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022 import ledger, theory  # noqa: E402
from l2relu.plateau import with_running_best  # noqa: E402

p = snakemake.params
losses = pd.concat([pd.read_csv(f) for f in snakemake.input.plateaus], ignore_index=True)
onsets = theory.onsets(losses, p.onset_rel_tol)
onsets["expected"] = [
    theory.expected_onset(s, n, p.onehot_classes)
    for s, n in zip(onsets.setting, onsets.N, strict=True)
]
# "near N^2/4": within a factor 2; the number of classes: exactly, up to one width
onsets["tolerance"] = [
    e / 2 if s == "bipartite" else 1 for s, e in zip(onsets.setting, onsets.expected, strict=True)
]
levels = onsets[onsets.setting == "bipartite"]
rows = ledger.theory_claims(
    *(pd.read_csv(snakemake.input[k]) for k in ("prop13", "remark23", "prop1", "prop19")),
    onsets,
    levels,
    p.lam,
)
write_table(with_running_best(losses, theory.CURVE), snakemake.output.plateau)
write_table(onsets, snakemake.output.onsets)
write_table(rows, snakemake.output.claims)
