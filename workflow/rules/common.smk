# Config validation, the target registry and the helpers every paper's rules share.
# Parse time stays cheap: nothing here imports torch, numba or pandas.
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# The workflow's own directory: src/, notebooks/ and scripts are found from here, whatever the
# working directory (`--directory runs/paper` keeps a scale's results apart). The package is
# imported from its src/, here and in every job (scripts and notebook kernels inherit
# PYTHONPATH), so it need not be installed where the jobs run.
WORKFLOW_DIR = Path(workflow.basedir)
SRC = WORKFLOW_DIR / "src"
sys.path.insert(0, str(SRC))
os.environ.update(
    PYTHONPATH=os.pathsep.join([str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])
)

from l2relu.codedeps import imported_files
from l2relu.configcheck import (
    chen2024_problem,
    explain,
    jacot2022_problem,
    jacot2023_problem,
    mnist_problem,
    mnist_subsets,
    unwritable,
)
from l2relu.jacot2022.sweeps import plateau_widths
from l2relu.jacot2023.widths import GROUPS as REMARK2_GROUPS, remark2_widths
from l2relu import coverage
from l2relu.registry import COVERAGE_FILE, RegistryError, load_registry, registry_files
from l2relu.resources import asked, steps_per_job
from l2relu.verdict import figure_title, paper_of

# The jobs' software environment for `--sdm conda`: the runtime pins of pyproject.toml only.
ENV = "../envs/l2relu.yaml"


def _check_config():
    """Fail before any job runs, with one line naming the key and the problem."""
    schema_path = workflow.source_path("../schemas/config.schema.yaml")
    with open(schema_path) as f:
        schema = yaml.safe_load(f)
    problem = explain(config, schema)
    if problem is None:
        deep = config["timor2022"]["theory"]
        if deep["deep"]["width"] < deep["teacher"]["width"]:
            problem = (
                "config key timor2022.theory.deep.width: must be >= timor2022.theory.teacher."
                "width (Theorems 4-5 need m' >= m)"
            )
    if problem is None:
        problem = mnist_problem(config)
    if problem is None:
        problem = chen2024_problem(config["chen2024"])
    if problem is None:
        problem = jacot2022_problem(config["jacot2022"])
    if problem is None:
        problem = jacot2023_problem(config["jacot2023"])
    if problem is None:
        problem = unwritable(["results", "figures", "logs"])
    if problem is not None:
        raise WorkflowError(problem)
    validate(config, schema_path)


_check_config()


def _scale_of_config_files():
    """The scale the loaded config files build: the last of them that sets `scale`."""
    scale = None
    for path in [WORKFLOW_DIR / "config/config.yaml", *workflow.config_settings.configfiles]:
        with open(path) as f:
            scale = (yaml.safe_load(f) or {}).get("scale", scale)
    return scale


def _how_to_build(scale):
    """What to type instead of --config scale=<scale>."""
    if scale == "default":
        return "leave out the overlays (config/config.yaml is the default scale)"
    overlay = WORKFLOW_DIR / "config" / f"{scale}.yaml"
    if overlay.exists():
        # the overlay's header shows how it is loaded (after which other overlays)
        loads = re.search(r"--configfile [^\n]+", overlay.read_text())
        return "load " + (loads[0].strip() if loads else f"--configfile config/{scale}.yaml")
    return "the scales are " + ", ".join(_scales())


def _scales():
    """Every scale: the default and each overlay of config/ (config.yaml is the default's)."""
    overlays = sorted(p.stem for p in (WORKFLOW_DIR / "config").glob("*.yaml"))
    return ["default", *(s for s in overlays if s != "config")]


def _check_command_line():
    """`scale` is what the config files build, never a label set on the command line (a build
    labelled paper would be compared against the paper reference); zero cores or jobs would
    wait forever for a job that cannot start. One line each, before any job."""
    given, built = workflow.config_settings.config.get("scale"), _scale_of_config_files()
    if given is not None and given != built:
        raise WorkflowError(
            f"config key scale: {given!r} set with --config, but the loaded config files build "
            f"the {built!r} scale; a scale is chosen by its config file, not by --config: "
            + _how_to_build(given)
        )
    # Snakemake reads a local run's --jobs as --cores, so the two are named together
    settings = workflow.resource_settings
    if 0 in (settings.cores, settings.nodes):
        raise WorkflowError("--cores 0 (or --jobs 0): no job could ever start; give 1 or more")


_check_command_line()


def existing_reference(path):
    """`path` (a reference ledger) when it exists; else the one-line error that says which
    scales have one."""
    if not Path(path).exists():
        # other references (a GPU build of the paper scale, say) are not scales
        scales = [s for s in _scales() if (WORKFLOW_DIR / "reference" / s / "claims.csv").exists()]
        raise WorkflowError(
            f"compare_reference: scale {config['scale']!r} has no reference ledger ({path}); "
            f"the scales with one are {', '.join(scales)}"
        )
    return path


def _check_executor():
    """A SLURM run on a machine without SLURM stops before its first job, with one line."""
    plugin = workflow.executor_plugin
    if plugin is not None and plugin.cli_prefix == "slurm" and shutil.which("sbatch") is None:
        raise WorkflowError(
            "the slurm executor (profiles/slurm) needs SLURM's sbatch, and none is on PATH: "
            "run on a machine of the cluster (a login node), or use profiles/local"
        )


# The executor is known only once the workflow starts, after parsing.
onstart:
    _check_executor()


# What a training job asks the scheduler for, from its rule's measures at paper shape
# (workflow/resources.yaml, written by benchmarks/measure_resources.py from the `benchmark:`
# files and logs of a paper-shapes build) and its steps under this config: the measure times
# the config's margin times the attempt. PyTorch jobs also ask for GPUs (the SLURM plugin's
# `gpu` resource, sbatch --gpus); with 0 they ask for none.
MEASURED = yaml.safe_load((WORKFLOW_DIR / "workflow" / "resources.yaml").read_text())["rules"]
STEPS_PER_JOB = steps_per_job(config)


def job_log(run):
    """A training job's log: logs/<run>.log."""
    return f"logs/{run}.log"


def job_benchmark(rule_name, run):
    """A training job's benchmark (wall time, peak memory): by rule, then the run its log is
    named by, so that benchmarks/measure_resources.py finds the log (its step rates) from it."""
    return f"logs/benchmarks/{rule_name}/{run}.tsv"


def training_resources(rule_name, torch=True):
    """mem_mb and runtime (minutes) of a job of `rule_name`, from its measures and its steps
    under this config."""
    if rule_name not in MEASURED:
        raise WorkflowError(
            f"workflow/resources.yaml has no measures of {rule_name} (run "
            "benchmarks/measure_resources.py on a paper-shapes build)"
        )
    measured, margins = MEASURED[rule_name], config["resources"]
    steps = STEPS_PER_JOB[rule_name]

    def ask(attempt):
        return asked(measured, steps, margins["memory_margin"], margins["runtime_margin"], attempt)

    def mem_mb(wildcards, attempt):
        return ask(attempt)[0]

    def runtime(wildcards, attempt):
        return ask(attempt)[1]

    gpus = {"gpu": config["resources"]["train_gpus"]} if torch else {}
    return {"mem_mb": mem_mb, "runtime": runtime} | gpus


# Where a PyTorch training job keeps its periodic saves: beside its first output, so that a
# killed job resumes on the next run; the job removes it once its outputs are written.
def resume_dir(wildcards, output):
    first = Path(output[0])
    return str(first.with_name(f".{first.name}.resume"))


# The figure registry. Each paper's rules file ends by registering its targets; targets.smk
# makes every registered target's notebook rule and target rule, and the config's `targets`
# are checked against it. A target id is written once, in its register_target call.
@dataclass(frozen=True)
class Target:
    id: str  # <paper>_<figure>: notebooks/<id>.ipynb, workflow/report/<id>.rst, figures/<id>.*
    doc: str  # the paper's figure or statement it regenerates (--list-target-rules)
    tables: dict  # the notebook's named inputs, as the paper's rules write them
    parameters: dict  # further notebook parameters (values, not paths)

    @property
    def paper(self):
        return paper_of(self.id)


TARGETS = {}


def register_target(target_id, doc, tables, **parameters):
    if target_id in TARGETS:
        raise WorkflowError(f"target {target_id!r} is registered twice")
    if "{" in doc or "}" in doc:  # the report reads the description's braces as wildcards
        raise WorkflowError(f"target {target_id!r}: a description has no braces: {doc!r}")
    TARGETS[target_id] = Target(target_id, doc, tables, parameters)


# Every target's files: the figures and executed notebook it makes, and its ledger rows.
def figure_files(target):
    return [f"figures/{target}.pdf", f"figures/{target}.png"]


def executed_notebook(target):
    return f"results/notebooks/{target}.ipynb"


def claims_rows(target):
    return f"results/{paper_of(target)}/claims/{target}.csv"


# The report: each figure's caption and the landing page are written from the ledger by the
# build; before it, the report shows the descriptions alone and a page that says so.
LANDING_PAGE = "results/report/verdict.rst"


def figure_description(target):
    return os.path.relpath(WORKFLOW_DIR / "workflow" / "report" / f"{target}.rst")


def figure_caption(target):
    return f"results/report/captions/{target}.rst"


def _written_or(path, before_build):
    """`path` (absolute: the report reads it from the working directory, which --directory may
    set apart from the workflow) once written, else `before_build` from the workflow."""
    return os.path.abspath(path) if os.path.exists(path) else before_build


def report_caption(target):
    return _written_or(figure_caption(target), os.path.abspath(figure_description(target)))


def report_landing_page():
    return _written_or(LANDING_PAGE, str(WORKFLOW_DIR / "workflow" / "report" / "workflow.rst"))


# The claims registry: what each paper states and the criterion each ledger row is judged by,
# one file per paper, checked at start-up (targets.smk).
CLAIMS_DIR = WORKFLOW_DIR / "workflow" / "claims"


def claims_registry(target):
    """The registry file of `target`'s paper, an input of the job that writes its rows."""
    return os.path.relpath(CLAIMS_DIR / f"{paper_of(target)}.yaml")


COVERAGE_INDEX = CLAIMS_DIR / COVERAGE_FILE  # l2relu.coverage: what share of the papers is judged


def _load_claims():
    """Every registry entry, and the coverage index against them; a bad entry or item stops the
    run before any job, naming it."""
    try:
        registry = load_registry(registry_files(CLAIMS_DIR))
        problems = coverage.problems(coverage.load_coverage(COVERAGE_INDEX), registry)
    except (RegistryError, coverage.CoverageError) as err:
        raise WorkflowError(str(err)) from None
    if problems:
        raise WorkflowError(f"{COVERAGE_INDEX.name}: {'; '.join(problems)}")
    return registry


CLAIMS = _load_claims()


def claim_ceiling(claim_id):
    """The largest value a claim's criterion accepts (a figure draws it as the ledger's bar)."""
    return CLAIMS[claim_id].criterion.bounds()[1]


def claim_floor(claim_id):
    """The smallest value a claim's criterion accepts (a figure draws it as the ledger's bar)."""
    return CLAIMS[claim_id].criterion.bounds()[0]


def claim_value(claim_id):
    """The value a 'within' criterion is stated around ('within 50% of 6': 6)."""
    criterion = CLAIMS[claim_id].criterion
    if criterion.form not in ("percent", "factor", "abs") or criterion.needs_ref:
        raise WorkflowError(f"{claim_id}: {criterion.text!r} is not 'within ... of a value'")
    return criterion.args[-1]


def reading_parameter(claim_id, name):
    """A parameter of a claim's primary reading (a figure draws what the ledger reads)."""
    return CLAIMS[claim_id].every_reading[0].parameters[name]


def for_each_job(path, jobs):
    """`path` (a rule's output) with each job's wildcards filled in: jobs, a list of dicts."""
    return [path.format(**job) for job in jobs]


def readings_parameters(claim_id):
    """{reading: its parameters} over a claim's readings, the primary first."""
    return {r.name: r.parameters for r in CLAIMS[claim_id].every_reading}


def readings_parameter(claim_id, name):
    """{reading: its parameter `name`} over a claim's readings that have it, the primary first."""
    return {
        r.name: r.parameters[name] for r in CLAIMS[claim_id].every_reading if name in r.parameters
    }


def target_files(target):
    return figure_files(target) + [
        claims_rows(target),
        executed_notebook(target),
        figure_caption(target),
    ]


def all_outputs():
    """Every configured target's files (rule all adds the ledger's)."""
    return [f for t in config["targets"] for f in target_files(t)]


def _code_inputs(path):
    """The src/ files that `path` imports, transitively, as paths from the working directory:
    declared as inputs, so that editing any of them reruns the step."""
    return [os.path.relpath(f) for f in imported_files(path)]


def script_code(name):
    """The src/ files run by workflow/scripts/`name`.py."""
    return _code_inputs(WORKFLOW_DIR / "workflow" / "scripts" / f"{name}.py")


def notebook_inputs(target):
    """A target's notebook (notebooks/<target>.ipynb), the src/ files it imports, and what its
    reading ends on: the target's ledger rows and its paper's registry (the paper's words)."""
    notebook = WORKFLOW_DIR / "notebooks" / f"{target}.ipynb"
    return {
        "notebook": os.path.relpath(notebook),
        "code": _code_inputs(notebook),
        "ledger_rows": claims_rows(target),
        "registry": claims_registry(target),
    }


def fmt_lam(lam):
    """lambda as it appears in paths: 0.001, 1e-05, 0."""
    return f"{lam:g}"


def seed_range(first, n):
    return f"{first}-{first + n - 1}"


def seed_list(first, n):
    """The n seeds from `first` on, which seed_range(first, n) names in a path."""
    return list(range(first, first + n))


def restart_sets(first, restarts):
    """The config `seeds` claims' seeds of an experiment whose seed is a set of `restarts`
    initializations, as the seed ranges that name them in paths: first-..., next-..., ..."""
    return [
        seed_range(s, restarts) for s in range(first, first + config["seeds"] * restarts, restarts)
    ]


def seeds_in_turn(run, seed_sets):
    """The name of a job that trains `seed_sets` in turn: `run` with its {seeds} naming them all."""
    return run.replace("{seeds}", "+".join(seed_sets))


def first_restarts(seed_sets):
    """Each seed set's first restart (what a seed's PlateauConfig takes)."""
    return [int(s.split("-")[0]) for s in seed_sets]


def per_seed_files(seed_sets, pattern):
    """A job's file of each of its seeds (restart_sets' names), `pattern` filled but for the
    job's own wildcards: one job trains its seeds in turn, each to its own files."""
    return expand(pattern, seeds=seed_sets, allow_missing=True)


def every_job_file(patterns, jobs):
    """Every job's files of `patterns` (a rule's per_seed_files output), job by job (`jobs`: each
    job's wildcards), each job's seeds in order."""
    return [p.format(**job) for job in jobs for p in patterns]


def seeds_from(first):
    """The seeds of an experiment whose first seed is `first`: config `seeds` of them, over
    which every empirical claim is measured."""
    return seed_list(first, config["seeds"])


def notebook_parameters(**extra):
    """papermill parameters: every input and output path of the rule, plus `extra`, as one
    YAML string. Notebooks learn paths only from here, never from the config."""

    def parameters(wildcards, input, output):
        def plain(path):  # Snakemake's path objects are str subclasses YAML will not write
            return str(path) if isinstance(path, str) else [str(p) for p in path]

        values = {f"input_{k}": plain(v) for k, v in input.items() if k not in ("notebook", "code")}
        values |= {f"output_{k}": plain(v) for k, v in output.items() if k != "notebook"}
        # YAML, not JSON: papermill reads YAML 1.1, in which JSON's 1e-16 is a string
        return yaml.safe_dump(values | extra, default_flow_style=True, width=10**9).strip()

    return parameters


# `{params.parameters:q}` is shell-quoted by Snakemake.
PAPERMILL = (
    "papermill {input.notebook} {output.notebook} -k python3 --log-output "
    "-y {params.parameters:q} > {log} 2>&1"
)


# jacot2023's job parameters and paths (functions live here, the rule files hold rules).
def fit_params(section, depth, n_train, seeds):
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


def rank_study_params(study, fig1, depth, seeds):
    """The training config of one job of jacot2023's rank study, less its data scale: Fig. 1's
    width, N and lambda, the study's lambda multiples, phases and seeds."""
    return {k: fig1[k] for k in ("width", "n_train", "lam")} | {
        "depth": depth,
        "lam_factors": study["lam_factors"],
        "phases": study["phases"],
        "seeds": seeds,
        "log_every": study["log_every"],
    }


def autoencoder_runs(run, section, seed):
    """The run paths of Fig. 3's shallow and deep autoencoder on one data set (one seed; None
    where the pattern has none, as the curves' runs, whose every seed trains in one job)."""
    return [run.format(seed=seed, **section[kind]) for kind in ("shallow", "deep")]


def every_seeds_autoencoders(run, section, seeds):
    """autoencoder_runs of every seed, one list."""
    return [path for seed in seeds for path in autoencoder_runs(run, section, seed)]


def architecture_constraints(section):
    """Wildcard constraints that admit exactly the shallow and deep architectures' numbers."""
    return {
        key: "|".join(str(section[kind][key]) for kind in ("shallow", "deep"))
        for key in ("depth", "width")
    }


def study_width(section, depth):
    """A depth sweep's width: the section's shallow width at its shallow depth, its deep width
    at every other depth."""
    return section["shallow" if depth == section["shallow"]["depth"] else "deep"]["width"]
