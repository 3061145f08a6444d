"""timor2022's experiments, declared once (l2relu.startup.experiment)."""

from l2relu.startup.experiment import Experiment, Job, Training


def _deep_jobs(c) -> list[Job]:
    """Theorems 4 (square loss) and 5 (logistic loss): one job per theorem and depth, every
    restart of every seed together, without biases."""
    deep, teacher = c["timor2022"]["theory"]["deep"], c["timor2022"]["theory"]["teacher"]
    return [
        Job(
            f"thm{thm} L={depth}",
            deep["restarts"] * c["seeds"],
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
        (Training("train_timor2022_fig1", steps=lambda c: c["timor2022"]["fig1"]["steps"]),),
    ),
    Experiment("timor2022_fig2", ("regions",)),
    Experiment("timor2022_fig3", ("regions",)),
    Experiment(
        "timor2022_theory",
        ("theory",),
        (Training("train_timor2022_deep", jobs=_deep_jobs),),
        check=_theory_problem,
    ),
)
