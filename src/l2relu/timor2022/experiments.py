"""timor2022's experiments, declared once (l2relu.startup.experiment)."""

from l2relu.startup.experiment import Experiment, Job, Training, polishing
from l2relu.startup.seeds import fmt_lam


def fig1_runs_in_all(c) -> int:
    """A seed of Fig. 1's claims is a sweep of n_runs runs: all of them train in one job."""
    return c["timor2022"]["fig1"]["n_runs"] * c["seeds"]


def deep_networks(c) -> int:
    """A seed of Theorems 4-5's claims is `restarts` initializations: all train in one job."""
    return c["timor2022"]["theory"]["deep"]["restarts"] * c["seeds"]


def deep_lams(c) -> dict[int, float]:
    """lambda by theorem."""
    deep = c["timor2022"]["theory"]["deep"]
    return {4: deep["lam_theorem4"], 5: deep["lam_theorem5"]}


def deep_points(c) -> list[tuple[int, int, int]]:
    """Every (theorem, depth, width) trained for Theorems 4-5: the sweep's depths at its width,
    then the other widths at their depths (Secs. 4-5's "does not depend on the width")."""
    deep = c["timor2022"]["theory"]["deep"]
    return [(thm, depth, deep["width"]) for thm in (4, 5) for depth in deep["depths"]] + [
        (thm, depth, width)
        for thm in (4, 5)
        for width in deep["other_widths"]
        for depth in deep["other_width_depths"]
    ]


def deep_jobs(c, seeds: str, sweep_width: bool) -> dict[str, list]:
    """The deep networks' jobs at the sweep's width (or, sweep_width False, at the other widths),
    as expand's zipped wildcards; `seeds` the jobs' seed range."""
    width, lams = c["timor2022"]["theory"]["deep"]["width"], deep_lams(c)
    points = [p for p in deep_points(c) if (p[2] == width) == sweep_width]
    return {
        "theorem": [t for t, _, _ in points],
        "depth": [d for _, d, _ in points],
        "lam": [fmt_lam(lams[t]) for t, _, _ in points],
        "width": [w for _, _, w in points],
        "seeds": [seeds] * len(points),
    }


def _fig1_params(c, reading) -> dict:
    fig1 = c["timor2022"]["fig1"]
    return {
        "config": lambda wc: (
            {k: v for k, v in fig1.items() if k != "log_every"}
            | {"variant": wc.variant, "n_runs": fig1_runs_in_all(c)}
        ),
        "log_every": fig1["log_every"],
    }


def _deep_params(c, reading) -> dict:
    theory = c["timor2022"]["theory"]
    # what the polishing and the aggregation read, not the training
    not_trained = (
        "depths",
        "other_widths",
        "other_width_depths",
        "lam_theorem4",
        "lam_theorem5",
        "restarts",
        "polish_iterations",
    )
    return {
        "teacher": lambda wc: theory["teacher"] | {"theorem": int(wc.theorem)},
        "deep": lambda wc: (
            {k: v for k, v in theory["deep"].items() if k not in not_trained}
            | {
                "depth": int(wc.depth),
                "width": int(wc.width),
                "lam": deep_lams(c)[int(wc.theorem)],
                "n_seeds": deep_networks(c),
            }
        ),
    }


def _deep_jobs(c) -> list[Job]:
    """Theorems 4 (square loss) and 5 (logistic loss): one job per theorem, depth and width,
    every restart of every seed together, without biases."""
    deep, teacher = c["timor2022"]["theory"]["deep"], c["timor2022"]["theory"]["teacher"]
    return [
        Job(
            f"thm{thm} L={depth}" + ("" if width == deep["width"] else f" w={width}"),
            deep_networks(c),
            (teacher["input_dim"], *[width] * (depth - 1), 1),
            teacher["n_points"],
            (("adam", deep["adam_steps"], False), ("gd", deep["gd_steps"], False)),
            "mse_half_sum" if thm == 4 else "logistic",
            bias=False,
        )
        for thm, depth, width in deep_points(c)
    ]


def _theory_problem(c) -> str | None:
    theory = c["timor2022"]["theory"]
    deep, least = theory["deep"], theory["teacher"]["width"]
    if deep["width"] < least:
        return (
            "config key timor2022.theory.deep.width: must be >= timor2022.theory.teacher."
            "width (Theorems 4-5 need m' >= m)"
        )
    if min(deep["other_widths"]) < least or deep["width"] in deep["other_widths"]:
        return (
            "config key timor2022.theory.deep.other_widths: each must be >= timor2022.theory."
            "teacher.width (Theorems 4-5 need m' >= m) and differ from timor2022.theory.deep.width"
        )
    if not set(deep["other_width_depths"]) <= set(deep["depths"]):
        return (
            "config key timor2022.theory.deep.other_width_depths: must be among "
            "timor2022.theory.deep.depths"
        )
    return None


EXPERIMENTS = (
    Experiment(
        "timor2022_fig1",
        ("fig1",),
        # the compiled 2x2x2 loop (l2relu.training.twolayer): no PyTorch job to time at its shape
        (
            Training(
                "train_timor2022_fig1",
                steps=lambda c: c["timor2022"]["fig1"]["steps"],
                params=_fig1_params,
            ),
        ),
    ),
    Experiment("timor2022_fig2", ("regions",)),
    Experiment("timor2022_fig3", ("regions",)),
    Experiment(
        "timor2022_theory",
        ("theory",),
        (
            Training("train_timor2022_deep", jobs=_deep_jobs, params=_deep_params),
            polishing("polish_timor2022_deep", lambda c: c["timor2022"]["theory"]["deep"]),
        ),
        check=_theory_problem,
    ),
)
