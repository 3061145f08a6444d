# jacot2023: Jacot, "Implicit bias of large depth networks: a notion of rank for nonlinear
# functions". Low-rank representations of deep L2-regularized networks, their class boundaries
# and autoencoders.

from l2relu.jacot2023.widths import GROUPS as REMARK2_GROUPS, remark2_widths

J23 = config["jacot2023"]
J23_TASK = J23["task"]
# The task's description, in every path that depends on it.
J23_TASK_ID = "latent{latent}_in{d_in}_out{d_out}_k{true_rank}_g{width}_s{seed}".format(**J23_TASK)


# job parameters and paths that more than one experiment's rules use
def fit_params(section, depth, n_train, seeds):
    """The training config of one (depth, N) job of Fig. 1 or the depth sweep."""
    return {
        "depth": depth,
        "width": section["width"],
        "n_train": n_train,
        "lam": section["lam"],
        "phases": section["phases"],
        "seeds": seeds,
        "log_every": section["log_every"],
    }


def rank_study_params(study, fig1, depth, seeds):
    """The training config of one job of jacot2023's rank study, less its data scale: Fig. 1's
    width, N and lambda, the study's lambda multiples, phases and seeds."""
    return {k: fig1[k] for k in ("width", "n_train", "lam")} | {
        "depth": depth,
        "lam_factors": study["lam_factors"],
        "phases": study["phases"],
        "seeds": seeds,
        "log_every": study["log_every"],
    }


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


def study_width(section, depth):
    """A depth sweep's width: the section's shallow width at its shallow depth, its deep width
    at every other depth."""
    return section["shallow" if depth == section["shallow"]["depth"] else "deep"]["width"]


include: "jacot2023/fig1.smk"
include: "jacot2023/krr.smk"
include: "jacot2023/depth.smk"
include: "jacot2023/fig2.smk"
include: "jacot2023/fig2_study.smk"
include: "jacot2023/fig3.smk"
include: "jacot2023/fig3_study.smk"
include: "jacot2023/rank_study.smk"
