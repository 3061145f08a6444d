"""jacot2023's experiments, declared once (l2relu.startup.experiment)."""

import itertools
import math

from l2relu.startup.experiment import (
    Experiment,
    Job,
    Training,
    config_phases,
    phase_steps,
    settling_steps,
)


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


def _phases_of(section: str):
    return lambda c: phase_steps(c["jacot2023"][section]["phases"])


def _settling_of(data: str):
    return lambda c: settling_steps(c["jacot2023"]["fig3_study"][data])


EXPERIMENTS = (
    Experiment(
        "jacot2023_fig1",
        ("task", "fig1"),
        (Training("train_jacot2023_fig1", jobs=_fig1_jobs),),
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
            ),
        ),
        check=_task_problem,
    ),
    Experiment(
        "jacot2023_depth",
        ("task", "depth"),
        (Training("train_jacot2023_depth", jobs=_depth_jobs),),
        check=_task_problem,
    ),
    Experiment(
        "jacot2023_rank_study",
        ("task", "fig1", "krr", "rank_study"),
        (
            Training("train_jacot2023_rank_study", steps=_phases_of("rank_study")),
            Training("train_jacot2023_rank_study_selected", steps=_phases_of("rank_study")),
        ),
        check=_rank_study_problem,
    ),
    Experiment(
        "jacot2023_fig2",
        ("fig2",),
        (Training("train_jacot2023_fig2", jobs=_fig2_jobs),),
        check=_fig2_problem,
    ),
    Experiment(
        "jacot2023_fig2_study",
        ("fig2", "fig2_study"),
        (Training("train_jacot2023_fig2_study", steps=_phases_of("fig2_study")),),
        check=_fig2_study_problem,
    ),
    Experiment(
        "jacot2023_fig3",
        ("fig3",),
        (
            Training("train_jacot2023_fig3_curve", jobs=_fig3_curve_jobs),
            Training("train_jacot2023_fig3_mnist", jobs=_fig3_mnist_jobs),
        ),
        check=_fig3_problem,
        mnist=_fig3_mnist,
    ),
    Experiment(
        "jacot2023_fig3_study",
        ("fig3", "fig3_study"),
        (
            Training("train_jacot2023_fig3_study_curve", steps=_settling_of("curve")),
            Training("train_jacot2023_fig3_study_mnist", steps=_settling_of("mnist")),
        ),
        check=_fig3_study_problem,
    ),
)
