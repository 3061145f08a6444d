"""chen2024's experiments, declared once (l2relu.startup.experiment)."""

from l2relu.startup.experiment import Experiment, Job, Training


def _gd_jobs(c) -> list[Job]:
    """Gradient descent from random starts on each (M, Q) of the theory checks."""
    theory = c["chen2024"]["theory"]
    return [
        Job(
            f"M={m} Q={q}",
            theory["gd_restarts"],
            (m, *[m] * q, q),
            q * min(theory["per_class"]),
            (("adam", theory["gd_adam_steps"], False), ("gd", theory["gd_steps"], True)),
            "mse_half_sum",
        )
        for m, q in theory["dims"]
    ]


def _gd_params(c, reading) -> dict:
    # the constructions' family and Prop. 3.2's networks are not the training's: changing them
    # reruns no training
    not_trained = ("family_members", "prop32_networks")
    return {"config": {k: v for k, v in c["chen2024"]["theory"].items() if k not in not_trained}}


def _fig3_problem(c) -> str | None:
    for k, (x0, x1, y0, y1) in enumerate(c["chen2024"]["fig3"]["boxes"]):
        if not (x0 < x1 and y0 < y1):
            return f"config key chen2024.fig3.boxes.{k}: needs x0 < x1 and y0 < y1"
    return None


def _theory_problem(c) -> str | None:
    for m, q in c["chen2024"]["theory"]["dims"]:
        if q > m:
            return f"config key chen2024.theory.dims: [{m}, {q}] has Q > M (needs Q <= M classes)"
    return None


EXPERIMENTS = (
    Experiment("chen2024_fig1", ("fig1",)),
    Experiment("chen2024_fig2", ("fig2",)),
    Experiment("chen2024_fig3", ("fig3",), check=_fig3_problem),
    Experiment(
        "chen2024_theory",
        ("theory",),
        (Training("train_chen2024_gd", jobs=_gd_jobs, params=_gd_params),),
        check=_theory_problem,
    ),
)
