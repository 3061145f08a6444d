"""jacot2023's experiments, declared once (l2relu.startup.experiment)."""

import itertools
import math

from l2relu.jacot2023.widths import remark2_widths
from l2relu.startup.experiment import (
    Experiment,
    Job,
    Training,
    config_phases,
    phase_steps,
    polishing,
    settling_steps,
)
from l2relu.startup.seeds import first_restarts, restart_sets, seed_list, seeds_from

# Remark 2 trains on jacot2022's Prop. 14 task: X = I_N, Y = B_N
REMARK2_SETTING = "bipartite"


def _task_problem(c) -> str | None:
    task = c["jacot2023"]["task"]
    if task["true_rank"] > task["latent"]:
        return (
            f"config key jacot2023.task.true_rank: {task['true_rank']} is larger than the latent "
            f"dimension jacot2023.task.latent = {task['latent']} (h reads latent coordinates)"
        )
    return None


def _deep_net(c, depth, width) -> tuple[int, ...]:
    task = c["jacot2023"]["task"]
    return (task["d_in"], *[width] * (depth - 1), task["d_out"])


def _fig1_jobs(c) -> list[Job]:
    """One job, the seeds trained together."""
    fig1 = c["jacot2023"]["fig1"]
    return [
        Job(
            f"L={fig1['depth']}",
            c["seeds"],
            _deep_net(c, fig1["depth"], fig1["width"]),
            fig1["n_train"],
            config_phases(fig1["phases"]),
            dtype="float32",
        )
    ]


def _depth_jobs(c) -> list[Job]:
    depth = c["jacot2023"]["depth"]
    return [
        Job(
            f"L={layers} N={n}",
            c["seeds"],
            _deep_net(c, layers, depth["width"]),
            n,
            config_phases(depth["phases"]),
            dtype="float32",
        )
        for layers in depth["depths"]
        for n in depth["n_train"]
    ]


def _rank_study_problem(c) -> str | None:
    study = c["jacot2023"]["rank_study"]
    if study["extra_depth"] <= max(study["depths"]):
        return (
            "config key jacot2023.rank_study.extra_depth: must be larger than every depth of "
            "rank_study.depths (it extends the deepest one's selected setting)"
        )
    return None


def _fig2_problem(c) -> str | None:
    fig2 = c["jacot2023"]["fig2"]
    if fig2["shallow_depth"] >= fig2["deep_depth"]:
        return "config key jacot2023.fig2.deep_depth: must be larger than shallow_depth"
    if min(fig2["lams"]) != 0 or max(fig2["lams"]) <= 0:
        return (
            "config key jacot2023.fig2.lams: must hold 0 and a positive lambda (the figure and its "
            "rows compare networks trained with and without L2)"
        )
    return None


def _fig2_jobs(c) -> list[Job]:
    """One job per depth and seed, every lambda together."""
    fig2 = c["jacot2023"]["fig2"]
    depths = (fig2["shallow_depth"], fig2["deep_depth"])
    return [
        Job(
            f"L={depth} seed {seed}",
            len(fig2["lams"]),
            (2, *[fig2["width"]] * (depth - 1), fig2["classes"]),
            fig2["classes"] * fig2["per_class"],
            config_phases(fig2["phases"]),
            "cross_entropy",
        )
        for depth, seed in itertools.product(depths, range(c["seeds"]))
    ]


def _fig2_study_problem(c) -> str | None:
    fig2, study = c["jacot2023"]["fig2"], c["jacot2023"]["fig2_study"]
    for depth in (fig2["shallow_depth"], fig2["deep_depth"]):
        if depth not in study["depths"]:
            return (
                f"config key jacot2023.fig2_study.depths: must hold Fig. 2's depth {depth} "
                "(the study's claims are about Fig. 2's two depths)"
            )
    names = [f["name"] for f in study["families"]]
    if len(set(names)) < len(names):
        return "config key jacot2023.fig2_study.families: two families have one name"
    for family in study["families"]:
        # the strokes are nearest where steepest: spacing / sqrt(1 + (pi amplitude)^2) apart
        gap = family["spacing"] / math.hypot(1.0, math.pi * family["amplitude"])
        if study["margin"] >= gap:
            return (
                f"config key jacot2023.fig2_study.margin: {study['margin']:g} is not below the "
                f"narrowest gap {gap:.3g} between the strokes of family {family['name']!r}, so "
                "no point where the S is steepest could be kept"
            )
    return None


def _fig3_problem(c) -> str | None:
    for data in ("curve", "mnist"):
        pair = c["jacot2023"]["fig3"][data]
        if pair["shallow"]["depth"] >= pair["deep"]["depth"]:
            return (
                f"config key jacot2023.fig3.{data}.deep.depth: must be larger than "
                f"{data}.shallow.depth"
            )
    return None


def _fig3_mnist(c) -> dict[str, dict]:
    mnist = c["jacot2023"]["fig3"]["mnist"]
    # no test set: noisy copies of training digits are shown
    subset = {"digits": list(range(10)), "n_train": mnist["n_train"], "n_test": 0}
    return {"jacot2023.fig3.mnist": subset | {"seed": mnist["seed"]}}


def _fig3_curve_jobs(c) -> list[Job]:
    """One job per architecture, every seed's curve together."""
    curve = c["jacot2023"]["fig3"]["curve"]
    return [
        Job(
            f"curve {kind}",
            c["seeds"],
            (2, *[curve[kind]["width"]] * (curve[kind]["depth"] - 1), 2),
            curve["n_train"],
            config_phases(curve["phases"]),
        )
        for kind in ("deep", "shallow")
    ]


def _fig3_mnist_jobs(c) -> list[Job]:
    mnist = c["jacot2023"]["fig3"]["mnist"]
    return [
        Job(
            f"mnist {kind} seed {seed}",
            1,
            (784, *[mnist[kind]["width"]] * (mnist[kind]["depth"] - 1), 784),
            mnist["n_train"],
            config_phases(mnist["phases"]),
            dtype="float32",
        )
        for kind, seed in itertools.product(("deep", "shallow"), range(c["seeds"]))
    ]


def _fig3_study_problem(c) -> str | None:
    curve, study = c["jacot2023"]["fig3"]["curve"], c["jacot2023"]["fig3_study"]["curve"]
    needed = {
        "Fig. 3's shallow depth": curve["shallow"]["depth"],
        "Fig. 3's deep depth": curve["deep"]["depth"],
        "deep_from": study["deep_from"],
    }
    for name, depth in needed.items():
        if depth not in study["depths"]:
            return (
                f"config key jacot2023.fig3_study.curve.depths: must hold {name} {depth} "
                "(the study sweeps the figure's depths and its rows start at deep_from)"
            )
    if study["deep_from"] <= curve["shallow"]["depth"]:
        return (
            "config key jacot2023.fig3_study.curve.deep_from: must be larger than Fig. 3's "
            "shallow depth"
        )
    return None


# ---------------------------------------------------------------- the jobs' parameters


def _fit(section, depth, n_train, seeds) -> dict:
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


def _fig1_params(c, reading) -> dict:
    j23 = c["jacot2023"]
    fig1 = j23["fig1"]
    seeds = seeds_from(c, fig1["seed"])
    return {"task": j23["task"], "fit": _fit(fig1, fig1["depth"], fig1["n_train"], seeds)}


def _fig1_polish_params(c, reading) -> dict:
    return {"seeds": lambda wc: [int(wc.seed)]}


def _depth_params(c, reading) -> dict:
    j23 = c["jacot2023"]
    seeds = seeds_from(c, 0)
    return {
        "task": j23["task"],
        "fit": lambda wc: _fit(j23["depth"], int(wc.depth), int(wc.n_train), seeds),
    }


def _remark2_params(c, reading) -> dict:
    """A Remark 2 job's PlateauConfig fields but the seed, from its group, and its seeds: each
    seed set's first restart (training and polish)."""
    remark2 = c["jacot2023"]["remark2"]
    return {
        "config": lambda wc: {
            "setting": REMARK2_SETTING,
            "n": remark2["N"],
            "classes": 0,  # one-hot outputs only
            "widths": remark2_widths(remark2["N"], wc.group),
            "lam": remark2["lam"],
            "restarts": remark2["restarts"],
            "steps": remark2["steps"],
            "depth": remark2["depth"],
        },
        "seeds": first_restarts(restart_sets(c, remark2["seed"], remark2["restarts"])),
    }


def _rank_study(c, depth) -> dict:
    """The training config of one job of the rank study, less its data scale: Fig. 1's width,
    N and lambda, the study's lambda multiples, phases and seeds."""
    fig1, study = c["jacot2023"]["fig1"], c["jacot2023"]["rank_study"]
    return {k: fig1[k] for k in ("width", "n_train", "lam")} | {
        "depth": depth,
        "lam_factors": study["lam_factors"],
        "phases": study["phases"],
        "seeds": seed_list(fig1["seed"], study["n_seeds"]),
        "log_every": study["log_every"],
    }


def _rank_study_params(c, reading) -> dict:
    return {
        "task": c["jacot2023"]["task"],
        "study": lambda wc: _rank_study(c, int(wc.depth)) | {"scale": wc.scale},
    }


def _rank_study_selected_params(c, reading) -> dict:
    extra = c["jacot2023"]["rank_study"]["extra_depth"]
    return {"task": c["jacot2023"]["task"], "study": _rank_study(c, extra)}


def fig2_data(c) -> dict:
    """Fig. 2's data set but its seed."""
    fig2 = c["jacot2023"]["fig2"]
    return {
        k: fig2[k]
        for k in ("classes", "per_class", "amplitude", "spacing", "noise", "seed", "grid")
    }


def _fig2_params(c, reading) -> dict:
    fig2 = c["jacot2023"]["fig2"]
    return {
        "data": lambda wc: fig2_data(c) | {"seed": int(wc.seed)},
        "width": fig2["width"],
        "lams": fig2["lams"],
        "phases": fig2["phases"],
    }


def fig2_study_families(c) -> dict[str, dict]:
    """The study's data families by name."""
    return {f["name"]: f for f in c["jacot2023"]["fig2_study"]["families"]}


def _fig2_study_params(c, reading) -> dict:
    fig2, study = c["jacot2023"]["fig2"], c["jacot2023"]["fig2_study"]
    return {
        "study": lambda wc: (
            {
                "family": fig2_study_families(c)[wc.family],
                "depth": int(wc.depth),
                "width": int(wc.width),
                "seeds": seed_list(fig2["seed"], study["n_seeds"]),
                "pads": study["pads"],
                "margin": study["margin"],
            }
            | {k: fig2[k] for k in ("classes", "per_class", "noise", "lams", "grid")}
        ),
        "phases": study["phases"],
    }


def _fig3_curve_params(c, reading) -> dict:
    fig3 = c["jacot2023"]["fig3"]
    curve = fig3["curve"]
    return {
        "data": {k: curve[k] for k in ("curve_width", "n_train", "n_random")},
        "seeds": seeds_from(c, curve["seed"]),
        "lam": fig3["lam"],
        "phases": curve["phases"],
    }


def _fig3_mnist_params(c, reading) -> dict:
    fig3 = c["jacot2023"]["fig3"]
    mnist = fig3["mnist"]
    return {
        "lam": fig3["lam"],
        "phases": mnist["phases"],
        "noise": lambda wc: {k: mnist[k] for k in ("noise", "n_noisy")} | {"seed": int(wc.seed)},
    }


# the registry's bar for a Fig. 3 study network to have settled: (claim, reading parameter)
SETTLED_BAR = ("jacot2023.fig3study.converged", "bar")


def _settling(reading, study) -> dict:
    """When a study's training repeats its last phase: until it has settled, at most
    max_repeats times."""
    return {"bar": reading(*SETTLED_BAR), "max_repeats": study["max_repeats"]}


def _study_width(curve, depth) -> int:
    """The curve study's width: Fig. 3's shallow width at its shallow depth, its deep width at
    every other depth."""
    return curve["shallow" if depth == curve["shallow"]["depth"] else "deep"]["width"]


def _fig3_study_curve_params(c, reading) -> dict:
    fig3, study = c["jacot2023"]["fig3"], c["jacot2023"]["fig3_study"]["curve"]
    curve = fig3["curve"]
    return {
        "study": lambda wc: {
            "curve_width": study["curve_width"],
            "seeds": seed_list(0, study["n_seeds"]),
            "n_train": curve["n_train"],
            "n_random": curve["n_random"],
            "depth": int(wc.depth),
            "width": _study_width(curve, int(wc.depth)),
            "lam": fig3["lam"],
        },
        "phases": study["phases"],
        "settling": _settling(reading, study),
    }


def _fig3_study_mnist_params(c, reading) -> dict:
    fig3, study = c["jacot2023"]["fig3"], c["jacot2023"]["fig3_study"]["mnist"]
    mnist = fig3["mnist"]
    # Fig. 3's shallow autoencoder, and a deep one of the study's own
    architectures = {"shallow": mnist["shallow"], "deep": study["deep"]}
    return {
        "study": lambda wc: (
            architectures[wc.kind]
            | {
                "lam": fig3["lam"],
                "noise": mnist["noise"],
                "n_noisy": mnist["n_noisy"],
                "seeds": seed_list(mnist["seed"], study["n_seeds"]),
            }
        ),
        "phases": study["phases"],
        "settling": _settling(reading, study),
    }


# ---------------------------------------------------------------- the experiments


def _section(*keys):
    """The config section at jacot2023.<keys>."""

    def section(c):
        for key in ("jacot2023", *keys):
            c = c[key]
        return c

    return section


def _phases_of(section: str):
    return lambda c: phase_steps(c["jacot2023"][section]["phases"])


def _settling_of(data: str):
    return lambda c: settling_steps(c["jacot2023"]["fig3_study"][data])


EXPERIMENTS = (
    Experiment(
        "jacot2023_fig1",
        ("task", "fig1"),
        (
            Training("train_jacot2023_fig1", jobs=_fig1_jobs, params=_fig1_params),
            polishing("polish_jacot2023_fig1", _section("fig1"), _fig1_polish_params),
        ),
        check=_task_problem,
    ),
    Experiment(
        "jacot2023_krr",
        ("task", "fig1", "krr", "constructions", "remark2"),
        # jacot2022's plateau phases (three of `steps` each), every seed in turn
        (
            Training(
                "train_jacot2023_remark2",
                steps=lambda c: 3 * c["jacot2023"]["remark2"]["steps"] * c["seeds"],
                params=_remark2_params,
            ),
            polishing("polish_jacot2023_remark2", _section("remark2"), _remark2_params),
        ),
        check=_task_problem,
    ),
    Experiment(
        "jacot2023_depth",
        ("task", "depth"),
        (
            Training("train_jacot2023_depth", jobs=_depth_jobs, params=_depth_params),
            polishing(
                "polish_jacot2023_depth",
                _section("depth"),
                lambda c, reading: {"seeds": seeds_from(c, 0)},
            ),
        ),
        check=_task_problem,
    ),
    Experiment(
        "jacot2023_rank_study",
        ("task", "fig1", "krr", "rank_study"),
        (
            Training(
                "train_jacot2023_rank_study",
                steps=_phases_of("rank_study"),
                params=_rank_study_params,
            ),
            Training(
                "train_jacot2023_rank_study_selected",
                steps=_phases_of("rank_study"),
                params=_rank_study_selected_params,
            ),
            polishing("polish_jacot2023_rank_study", _section("rank_study")),
        ),
        check=_rank_study_problem,
    ),
    Experiment(
        "jacot2023_fig2",
        ("fig2",),
        (
            Training("train_jacot2023_fig2", jobs=_fig2_jobs, params=_fig2_params),
            polishing("polish_jacot2023_fig2", _section("fig2")),
        ),
        check=_fig2_problem,
    ),
    Experiment(
        "jacot2023_fig2_study",
        ("fig2", "fig2_study"),
        (
            Training(
                "train_jacot2023_fig2_study",
                steps=_phases_of("fig2_study"),
                params=_fig2_study_params,
            ),
            polishing("polish_jacot2023_fig2_study", _section("fig2_study")),
        ),
        check=_fig2_study_problem,
    ),
    Experiment(
        "jacot2023_fig3",
        ("fig3",),
        (
            Training(
                "train_jacot2023_fig3_curve", jobs=_fig3_curve_jobs, params=_fig3_curve_params
            ),
            Training(
                "train_jacot2023_fig3_mnist", jobs=_fig3_mnist_jobs, params=_fig3_mnist_params
            ),
            polishing("polish_jacot2023_fig3_curve", _section("fig3")),
            polishing("polish_jacot2023_fig3_mnist", _section("fig3")),
        ),
        check=_fig3_problem,
        mnist=_fig3_mnist,
    ),
    Experiment(
        "jacot2023_fig3_study",
        ("fig3", "fig3_study"),
        (
            Training(
                "train_jacot2023_fig3_study_curve",
                steps=_settling_of("curve"),
                params=_fig3_study_curve_params,
            ),
            Training(
                "train_jacot2023_fig3_study_mnist",
                steps=_settling_of("mnist"),
                params=_fig3_study_mnist_params,
            ),
            polishing("polish_jacot2023_fig3_study_curve", _section("fig3_study")),
            polishing("polish_jacot2023_fig3_study_mnist", _section("fig3_study")),
        ),
        check=_fig3_study_problem,
    ),
)
