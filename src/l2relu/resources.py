"""What a training job asks a scheduler for, from its rule's measures at paper shape."""

import math


def _phases(phases) -> int:
    return sum(phase["steps"] for phase in phases)


def _settling(section) -> int:
    """The most steps of a training that repeats its last phase up to max_repeats times."""
    return _phases(section["phases"]) + section["max_repeats"] * section["phases"][-1]["steps"]


def steps_per_job(config: dict) -> dict[str, int]:
    """The steps a job of each training rule runs under `config` (the most, where its jobs
    differ)."""
    timor, j22, chen, j23 = (config[p] for p in ("timor2022", "jacot2022", "chen2024", "jacot2023"))
    deep, fig2, fig3, study = timor["theory"]["deep"], j22["fig2"], j23["fig3"], j23["fig3_study"]
    return {
        "train_timor2022_fig1": timor["fig1"]["steps"],
        "train_timor2022_deep": deep["adam_steps"] + deep["gd_steps"],
        "train_jacot2022_fig1": j22["fig1"]["steps"],
        "train_jacot2022_fig1_study": max(s["steps"] for s in j22["fig1_study"]["schedules"]),
        # Adam, GD, then Adam run on for GD's steps from the Adam phase's end (jacot2022.fig2.run)
        "train_jacot2022_fig2": max(
            fig2[data]["adam_steps"] + 2 * fig2[data]["gd_steps"] for data in ("mnist", "teacher")
        ),
        # three phases of `steps` each (jacot2022.theory.plateau_phases), every seed in turn
        "train_jacot2022_plateau": 3 * j22["theory"]["steps"] * config["seeds"],
        "train_chen2024_gd": chen["theory"]["gd_adam_steps"] + chen["theory"]["gd_steps"],
        "train_jacot2023_fig1": _phases(j23["fig1"]["phases"]),
        "train_jacot2023_depth": _phases(j23["depth"]["phases"]),
        # jacot2022's plateau phases (three of `steps` each), every seed in turn
        "train_jacot2023_remark2": 3 * j23["remark2"]["steps"] * config["seeds"],
        "train_jacot2023_rank_study": _phases(j23["rank_study"]["phases"]),
        "train_jacot2023_rank_study_selected": _phases(j23["rank_study"]["phases"]),
        "train_jacot2023_fig2": _phases(j23["fig2"]["phases"]),
        "train_jacot2023_fig2_study": _phases(j23["fig2_study"]["phases"]),
        "train_jacot2023_fig3_curve": _phases(fig3["curve"]["phases"]),
        "train_jacot2023_fig3_mnist": _phases(fig3["mnist"]["phases"]),
        "train_jacot2023_fig3_study_curve": _settling(study["curve"]),
        "train_jacot2023_fig3_study_mnist": _settling(study["mnist"]),
    }


def asked(measured: dict, steps: int, memory_margin: float, runtime_margin: float, attempt: int):
    """(mem_mb, runtime in minutes) for a job of `steps` steps of a rule measured as `measured`
    (peak_mb, startup_s, step_s): the measure times the margin times the attempt, so that a
    retry after a kill for time or memory asks for more."""
    mem_mb = math.ceil(measured["peak_mb"] * memory_margin * attempt)
    seconds = measured["startup_s"] + measured["step_s"] * steps
    return mem_mb, math.ceil(seconds * runtime_margin * attempt / 60)
