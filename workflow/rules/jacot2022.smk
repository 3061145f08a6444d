# jacot2022: Jacot, Golikov, Hongler, Gabriel, "Feature learning in L2-regularized DNNs:
# attraction/repulsion and sparsity". Numerical checks of its propositions.

from l2relu.jacot2022.experiments import fig1_study_lams, fig1_study_schedules


include: "jacot2022/theory.smk"
include: "jacot2022/fig1.smk"
include: "jacot2022/fig2.smk"
include: "jacot2022/fig1_study.smk"
