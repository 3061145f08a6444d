"""timor2022's experiments, declared once (l2relu.startup.experiment)."""

from l2relu.startup.experiment import Experiment, Job, Training, polishing


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
    not_trained = ("depths", "lam_theorem4", "lam_theorem5", "restarts", "polish_iterations")
    return {
        "teacher": lambda wc: theory["teacher"] | {"theorem": int(wc.theorem)},
        "deep": lambda wc: (
            {k: v for k, v in theory["deep"].items() if k not in not_trained}
            | {
                "depth": int(wc.depth),
                "lam": deep_lams(c)[int(wc.theorem)],
                "n_seeds": deep_networks(c),
            }
        ),
    }


def _deep_jobs(c) -> list[Job]:
    """Theorems 4 (square loss) and 5 (logistic loss): one job per theorem and depth, every
    restart of every seed together, without biases."""
    deep, teacher = c["timor2022"]["theory"]["deep"], c["timor2022"]["theory"]["teacher"]
    return [
        Job(
            f"thm{thm} L={depth}",
            deep_networks(c),
            (teacher["input_dim"], *[deep["width"]] * (depth - 1), 1),
            teacher["n_points"],
            (("adam", deep["adam_steps"], False), ("gd", deep["gd_steps"], False)),
            "mse_half_sum" if thm == 4 else "logistic",
            bias=False,
        )
        for thm in (4, 5)
        for depth in deep["depths"]
    ]


def _theory_problem(c) -> str | None:
    theory = c["timor2022"]["theory"]
    if theory["deep"]["width"] < theory["teacher"]["width"]:
        return (
            "config key timor2022.theory.deep.width: must be >= timor2022.theory.teacher."
            "width (Theorems 4-5 need m' >= m)"
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
