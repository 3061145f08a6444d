"""One experiment (a figure, a study, a sweep) declared once: the config sections it reads,
their cross-field checks, the MNIST subset it draws, and its training and polishing rules with
each job's shape, steps and parameters. Resources, config checks, the paper-shapes benchmarks and
the training rules' parameters derive from these."""

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Job:
    """One PyTorch training job at its real shape, as the engine benchmark times it."""

    name: str  # which job of the rule
    batch: int  # networks trained together
    widths: tuple[int, ...]  # layer widths, input to output
    n_points: int
    # (optimizer, steps, halving GD) in order, as engine.Phase has them
    phases: tuple[tuple[str, int, bool], ...]
    loss: str = "mse"  # engine.network_losses' name
    bias: bool = True
    dtype: str = "float64"
    # the rule that trains it and the target it serves: its Training's and Experiment's, set by
    # l2relu.startup.experiments.training_jobs
    rule: str = ""
    target: str = ""

    @property
    def steps(self) -> int:
        return sum(steps for _, steps, _ in self.phases)

    def flops_per_step(self) -> float:
        """Forward (2), backward (4) multiply-adds of every layer's product, every network."""
        weights = sum(a * b for a, b in zip(self.widths[:-1], self.widths[1:], strict=True))
        return 6.0 * self.batch * self.n_points * weights


Config = dict
# a parameter of a claim's primary reading in the registry: reading(claim_id, name)
Reading = Callable[[str, str], object]
# A job's parameters by name, from the config (and the registry's readings): each a value, or
# a function of the job's wildcards (read as attributes, wildcards.seed), as Snakemake's params.
Params = Callable[[Config, Reading], dict]


def no_params(config: Config, reading: Reading) -> dict:
    return {}


@dataclass(frozen=True)
class Training:
    """A training or polishing rule and the parameters its jobs receive. A training rule's
    steps per job (the most, where its jobs differ) are its jobs' when their shapes are
    declared, else `steps`; it asks the scheduler for what its measures say these steps take. A
    polishing rule (seconds of work) declares neither."""

    rule: str
    jobs: Callable[[Config], list[Job]] | None = None
    steps: Callable[[Config], int] | None = None
    params: Params = no_params

    def __post_init__(self):
        if self.jobs is not None and self.steps is not None:
            raise ValueError(f"{self.rule}: declare its jobs or its steps, not both")
        if self.rule.startswith("train_") and not self.measured:
            raise ValueError(f"{self.rule}: a training rule declares its jobs or its steps")

    @property
    def measured(self) -> bool:
        return self.jobs is not None or self.steps is not None

    def steps_per_job(self, config: Config) -> int:
        if self.jobs is not None:
            return max((job.steps for job in self.jobs(config)), default=0)
        return self.steps(config)


def polishing(rule: str, section: Callable[[Config], dict], params: Params = no_params):
    """A polishing rule: its `iterations` from its config section's polish_iterations, after
    the other parameters it declares."""

    def with_iterations(config: Config, reading: Reading) -> dict:
        return params(config, reading) | {"iterations": section(config)["polish_iterations"]}

    return Training(rule, params=with_iterations)


@dataclass(frozen=True)
class Experiment:
    target: str  # the target it builds (workflow/rules registers it)
    sections: tuple[str, ...]  # the paper's config sections it reads
    trainings: tuple[Training, ...] = ()
    # cross-field checks the schema cannot express: "config key <key>: <problem>" or None;
    # a check shared by several experiments (a shared section's) runs once
    check: Callable[[Config], str | None] | None = None
    # the MNIST subsets it draws, by the config key that asks: digits, n_train, n_test, seed
    mnist: Callable[[Config], dict[str, dict]] = field(default=lambda config: {})


def phase_steps(phases) -> int:
    """The steps of a config's phase list."""
    return sum(phase["steps"] for phase in phases)


def settling_steps(section) -> int:
    """The most steps of a training that repeats its last phase up to max_repeats times."""
    return phase_steps(section["phases"]) + section["max_repeats"] * section["phases"][-1]["steps"]


def config_phases(phases) -> tuple:
    """A config's phase list as Job has it (engine.phases_from_config: GD halves on a rise)."""
    return tuple((p["optimizer"], p["steps"], p["optimizer"] == "gd") for p in phases)
