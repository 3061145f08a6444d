"""jacot2022's exact constructions and identities: Props. 1, 3, 5, 7, 8, 13 (and a search for
its CP-rank), 19, Lemma 10, Remark 23, Sec. 3.1's aligned neurons; Sec. 3.1 item 2's deep
linear networks (the balanced SVD construction, and small networks trained and polished)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.jacot2022 import alignment, covariances, linear, theory  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

p = snakemake.params
write_table(theory.prop13_table(p.bipartite_n), snakemake.output.prop13)
write_table(theory.remark23_table(p.bipartite_n), snakemake.output.remark23)
write_table(theory.prop1_table(p.prop1_trials), snakemake.output.prop1)
prop19 = theory.Prop19Config(**p.prop19 | {"outputs": tuple(p.prop19["outputs"])})
write_table(theory.prop19_table(prop19), snakemake.output.prop19)
write_table(theory.onehot_square_root(p.onehot_root_sizes), snakemake.output.onehot_root)
reduction = covariances.ReductionConfig(**p.reduction | {"widths": tuple(p.reduction["widths"])})
write_table(covariances.reduction_table(reduction), snakemake.output.reduction)
write_table(covariances.convexity_table(reduction, p.prop5_segments), snakemake.output.prop5)
write_table(alignment.alignment_table(p.prop1_trials), snakemake.output.alignment)
cp_search = theory.CpSearchConfig(**p.cp_rank | {"graphs": tuple(p.cp_rank["graphs"])})
write_table(theory.cp_rank_table(cp_search), snakemake.output.cp_rank)
linear_cfg = linear.LinearConfig(**p.linear | {"depths": tuple(p.linear["depths"])})
write_table(linear.construction_table(linear_cfg), snakemake.output.linear_construction)
write_table(
    linear.trained_table(linear_cfg, log=lambda line: print(line, file=sys.stderr)),
    snakemake.output.linear_trained,
)
