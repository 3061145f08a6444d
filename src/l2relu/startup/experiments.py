"""Every experiment of the four papers (each paper's `experiments` module declares its own),
and what the workflow derives from them before any job starts: the config's cross-field checks,
the MNIST subsets to draw, the steps a training job runs, every job's shape and the parameters
each training and polishing rule passes its jobs."""

from dataclasses import replace

from l2relu.chen2024.experiments import EXPERIMENTS as CHEN2024
from l2relu.jacot2022.experiments import EXPERIMENTS as JACOT2022
from l2relu.jacot2023.experiments import EXPERIMENTS as JACOT2023
from l2relu.startup.experiment import Experiment, Job, Training
from l2relu.timor2022.experiments import EXPERIMENTS as TIMOR2022

EXPERIMENTS: dict[str, tuple[Experiment, ...]] = {
    "timor2022": TIMOR2022,
    "jacot2022": JACOT2022,
    "chen2024": CHEN2024,
    "jacot2023": JACOT2023,
}


def experiments() -> list[Experiment]:
    return [e for declared in EXPERIMENTS.values() for e in declared]


def config_problem(config: dict) -> str | None:
    """The first cross-field problem of the config, experiment by experiment (a check that
    several experiments share runs once)."""
    checks = dict.fromkeys(e.check for e in experiments() if e.check is not None)
    return next(filter(None, (check(config) for check in checks)), None)


def mnist_subsets(config: dict) -> dict[str, dict]:
    """Every MNIST subset the config asks for, by the config key that asks: its digits, train
    and test sizes and seed. All are drawn by one rule from the source the config key
    jacot2022.data.mnist_source names."""
    return {key: s for e in experiments() for key, s in e.mnist(config).items()}


def steps_per_job(config: dict) -> dict[str, int]:
    """The steps a job of each training rule runs under `config` (the most, where its jobs
    differ)."""
    return {rule: t.steps_per_job(config) for rule, t in trainings().items() if t.measured}


def trainings() -> dict[str, Training]:
    """Every training and polishing rule's declaration, by rule name."""
    declared = [t for e in experiments() for t in e.trainings]
    by_rule = {t.rule: t for t in declared}
    if len(by_rule) < len(declared):
        raise ValueError("a training rule is declared twice")
    return by_rule


def training_jobs(config: dict) -> list[Job]:
    """Every PyTorch training job whose shape is declared, with the rule that trains it and the
    target it serves."""
    return [
        replace(job, rule=t.rule, target=e.target)
        for e in experiments()
        for t in e.trainings
        if t.jobs is not None
        for job in t.jobs(config)
    ]
