"""jacot2022's exact constructions and identities: Prop. 13, Remark 23, Prop. 1, Prop. 19."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.io import write_table  # noqa: E402
from l2relu.jacot2022 import theory  # noqa: E402

p = snakemake.params
write_table(theory.prop13_table(p.bipartite_n), snakemake.output.prop13)
write_table(theory.remark23_table(p.bipartite_n), snakemake.output.remark23)
write_table(theory.prop1_table(p.prop1_trials), snakemake.output.prop1)
prop19 = theory.Prop19Config(**p.prop19 | {"outputs": tuple(p.prop19["outputs"])})
write_table(theory.prop19_table(prop19), snakemake.output.prop19)
write_table(theory.onehot_square_root(p.onehot_root_sizes), snakemake.output.onehot_root)
