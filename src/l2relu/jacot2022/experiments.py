"""jacot2022's experiments, declared once (l2relu.startup.experiment)."""

from l2relu.startup.experiment import Experiment, Job, Training, polishing
from l2relu.startup.seeds import first_restarts, fmt_lam, restart_sets, seed_list


def plateau_widths(setting: str, n: int, classes: int) -> list[int]:
    """Hidden widths of the plateau runs: 1 up to a little past twice the predicted onset
    (N^2/4 for Y = B_N, the number of classes for one-hot Y, 4N for 1-D data)."""
    top = {"bipartite": n**2 // 2 + 2, "onehot": 2 * classes + 2, "oned": 4 * n + 2}[setting]
    return list(range(1, top + 1))


def _fig1_mnist(c) -> dict[str, dict]:
    fig1 = c["jacot2022"]["fig1"]
    subset = {"digits": list(fig1["digits"]), "n_train": fig1["n_train"], "n_test": 0}
    return {"jacot2022.fig1": subset | {"seed": fig1["seed"]}}


def _fig1_jobs(c) -> list[Job]:
    fig1 = c["jacot2022"]["fig1"]
    return [
        Job(
            f"GD seed {seed}",
            1,
            (784, fig1["width"], fig1["width"], len(fig1["digits"])),
            fig1["n_train"],
            (("gd", fig1["steps"], False),),
            "cross_entropy",
        )
        for seed in range(c["seeds"])
    ]


def _fig1_training(c) -> dict:
    """Fig. 1's training config but the seed (the study's too, but its lambda and schedule)."""
    fig1 = c["jacot2022"]["fig1"]
    return {k: fig1[k] for k in ("digits", "width", "lam", "lr", "steps", "log_every")}


def _fig1_params(c, reading) -> dict:
    return {"config": lambda wc: _fig1_training(c) | {"seed": int(wc.seed)}}


def fig1_study_schedules(c) -> dict[tuple[str, str], dict]:
    """The study's GD schedules by their (lr, steps) as the paths name them."""
    schedules = c["jacot2022"]["fig1_study"]["schedules"]
    return {(fmt_lam(s["lr"]), str(s["steps"])): s for s in schedules}


def fig1_study_lams(c) -> list[str]:
    """The study's lambdas as the paths name them, in the config's order."""
    return [fmt_lam(lam) for lam in c["jacot2022"]["fig1_study"]["lams"]]


def _fig1_study_params(c, reading) -> dict:
    study = c["jacot2022"]["fig1_study"]
    lams = fig1_study_lams(c)
    return {
        "config": lambda wc: (
            _fig1_training(c)
            | {
                "lam": study["lams"][lams.index(wc.lam)],
                "inputs": wc.inputs,
                "seeds": seed_list(c["jacot2022"]["fig1"]["seed"], study["n_seeds"]),
            }
            | fig1_study_schedules(c)[(wc.lr, wc.steps)]
        ),
    }


def _fig1_study_problem(c) -> str | None:
    """The study reads its networks a second time at four fifths of each schedule's steps, at
    a progress line: fig1.log_every must divide that step."""
    every = c["jacot2022"]["fig1"]["log_every"]
    for i, schedule in enumerate(c["jacot2022"]["fig1_study"]["schedules"]):
        read_at = 4 * (schedule["steps"] // 5)
        if every == 0 or read_at % every:
            return (
                f"config key jacot2022.fig1_study.schedules[{i}].steps: four fifths of it "
                f"({read_at}) is not a multiple of jacot2022.fig1.log_every ({every}), where "
                "the study reads whether training had settled"
            )
    return None


def _fig2_mnist(c) -> dict[str, dict]:
    mnist = c["jacot2022"]["fig2"]["mnist"]
    subset = {"digits": list(range(10)), "n_train": mnist["n_train"], "n_test": mnist["n_test"]}
    return {"jacot2022.fig2.mnist": subset | {"seed": mnist["seed"]}}


def _fig2_jobs(c) -> list[Job]:
    """One job per data set and width, every lambda of every seed together: Adam, GD, then
    Adam run on for GD's steps from the Adam phase's end (l2relu.jacot2022.fig2.run)."""
    fig2, jobs = c["jacot2022"]["fig2"], []
    for width in fig2["widths"]:
        for dataset, loss, d_in, d_out in (
            ("mnist", "cross_entropy", 784, 10),
            ("teacher", "mse", fig2["teacher"]["widths"][0], fig2["teacher"]["widths"][-1]),
        ):
            p = fig2[dataset]
            phases = ("adam", p["adam_steps"], False), ("gd", p["gd_steps"], True)
            jobs.append(
                Job(
                    f"{dataset} w={width}",
                    len(p["lams"]) * c["seeds"],
                    (d_in, width, width, d_out),
                    p["n_train"],
                    (*phases, ("adam", p["gd_steps"], False)),
                    loss,
                    dtype=fig2["dtype"],
                )
            )
    return jobs


def _fig2_params(c, reading) -> dict:
    fig2 = c["jacot2022"]["fig2"]
    return {
        "config": lambda wc: (
            {k: v for k, v in fig2[wc.dataset].items() if k not in ("n_train", "n_test", "widths")}
            | {
                "dataset": wc.dataset,
                "width": int(wc.width),
                "log_every": fig2["log_every"],
                "dtype": fig2["dtype"],
                "trials": c["seeds"],
            }
        ),
    }


def _plateau_params(c, reading) -> dict:
    """A plateau job's PlateauConfig fields but the seed, from its wildcards, and its seeds:
    each seed set's first restart (training and polish)."""
    theory = c["jacot2022"]["theory"]
    return {
        "config": lambda wc: {
            "setting": wc.setting,
            "n": int(wc.n),
            "classes": theory["onehot_classes"],
            "widths": plateau_widths(wc.setting, int(wc.n), theory["onehot_classes"]),
            "lam": theory["lam"],
            "restarts": theory["restarts"],
            "steps": theory["steps"],
        },
        "seeds": first_restarts(restart_sets(c, theory["seed"], theory["restarts"])),
    }


def _plateau_jobs(c) -> list[Job]:
    """One job per data set: all its widths in one batch, padded to the widest, every seed's
    batch in turn, three phases of `steps` each (l2relu.jacot2022.theory.plateau_phases)."""
    theory, seeds, jobs = c["jacot2022"]["theory"], c["seeds"], []
    classes = theory["onehot_classes"]
    for setting in ("bipartite", "onehot", "oned"):
        for n in theory[f"{setting}_N"]:
            d_in, d_out = {"bipartite": (n, n), "onehot": (n, classes), "oned": (1, 1)}[setting]
            widths = plateau_widths(setting, n, classes)
            steps = theory["steps"] * seeds
            jobs.append(
                Job(
                    f"{setting} N={n}, {seeds} seeds in turn",
                    theory["restarts"] * len(widths),
                    (d_in, max(widths), d_out),
                    n,
                    (("adam", 2 * steps, False), ("gd", steps, False)),
                    bias=setting == "oned",
                )
            )
    return jobs


EXPERIMENTS = (
    Experiment(
        "jacot2022_fig1",
        ("data", "fig1"),
        (
            Training("train_jacot2022_fig1", jobs=_fig1_jobs, params=_fig1_params),
            polishing("polish_jacot2022_fig1", lambda c: c["jacot2022"]["fig1"]),
        ),
        mnist=_fig1_mnist,
    ),
    Experiment(
        "jacot2022_fig1_study",
        ("data", "fig1", "fig1_study"),
        (
            Training(
                "train_jacot2022_fig1_study",
                steps=lambda c: max(s["steps"] for s in c["jacot2022"]["fig1_study"]["schedules"]),
                params=_fig1_study_params,
            ),
            polishing("polish_jacot2022_fig1_study", lambda c: c["jacot2022"]["fig1_study"]),
        ),
        check=_fig1_study_problem,
    ),
    Experiment(
        "jacot2022_fig2",
        ("data", "fig2"),
        (
            Training("train_jacot2022_fig2", jobs=_fig2_jobs, params=_fig2_params),
            polishing("polish_jacot2022_fig2", lambda c: c["jacot2022"]["fig2"]),
        ),
        mnist=_fig2_mnist,
    ),
    Experiment(
        "jacot2022_theory",
        ("theory",),
        (
            Training("train_jacot2022_plateau", jobs=_plateau_jobs, params=_plateau_params),
            polishing(
                "polish_jacot2022_plateau", lambda c: c["jacot2022"]["theory"], _plateau_params
            ),
        ),
    ),
)
