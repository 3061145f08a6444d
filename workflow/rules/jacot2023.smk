# jacot2023: Jacot, "Implicit bias of large depth networks: a notion of rank for nonlinear
# functions". Low-rank representations of deep L2-regularized networks, their class boundaries
# and autoencoders.

from l2relu.jacot2023.experiments import (
    REMARK2_SETTING,
    SETTLED_BAR,
    fig2_data,
    fig2_study_families,
)
from l2relu.jacot2023.widths import GROUPS as REMARK2_GROUPS

J23 = config["jacot2023"]
J23_TASK = J23["task"]
# The task's description, in every path that depends on it.
J23_TASK_ID = "latent{latent}_in{d_in}_out{d_out}_k{true_rank}_g{width}_s{seed}".format(**J23_TASK)


# paths that more than one experiment's rules use
def autoencoder_runs(run, section, seed):
    """The run paths of Fig. 3's shallow and deep autoencoder on one data set (one seed; None
    where the pattern has none, as the curves' runs, whose every seed trains in one job)."""
    return [run.format(seed=seed, **section[kind]) for kind in ("shallow", "deep")]


def every_seeds_autoencoders(run, section, seeds):
    """autoencoder_runs of every seed, one list."""
    return [path for seed in seeds for path in autoencoder_runs(run, section, seed)]


def architecture_constraints(section):
    """Wildcard constraints that admit exactly the shallow and deep architectures' numbers."""
    return {
        key: "|".join(str(section[kind][key]) for kind in ("shallow", "deep"))
        for key in ("depth", "width")
    }


include: "jacot2023/fig1.smk"
include: "jacot2023/krr.smk"
include: "jacot2023/depth.smk"
include: "jacot2023/fig2.smk"
include: "jacot2023/fig2_study.smk"
include: "jacot2023/fig3.smk"
include: "jacot2023/fig3_study.smk"
include: "jacot2023/rank_study.smk"
