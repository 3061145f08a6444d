# What every paper's rules share: paths, the jobs' environment, the config checks
# (checks.smk), resources, the target registry (registry.smk) and seed and path helpers.
# Parse time stays cheap: nothing here imports torch or numba (tests/test_code_dependencies.py).
import os
import re
import sys
from pathlib import Path

import yaml
from snakemake.exceptions import WorkflowError

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

from l2relu import yamlfile
from l2relu.startup.resources import asked
from l2relu.startup.experiments import mnist_subsets, steps_per_job, trainings
from l2relu.startup.seeds import (
    first_restarts,
    fmt_lam,
    restart_sets,
    seed_list,
    seed_range,
    seeds_from,
)

# The jobs' software environment for `--sdm conda`: the runtime pins of pyproject.toml only
# (absolute: a relative path would be read from each rules file's own folder).
ENV = str(WORKFLOW_DIR / "workflow" / "envs" / "l2relu.yaml")


include: "checks.smk"


# What a training job asks the scheduler for, from its rule's measures at paper shape
# (workflow/resources.yaml, written by benchmarks/measure_resources.py from the `benchmark:`
# files and logs of a paper-shapes build) and its steps under this config: the measure times
# the config's margin times the attempt. PyTorch jobs also ask for GPUs (the SLURM plugin's
# `gpu` resource, sbatch --gpus); with 0 they ask for none.
MEASURED = yamlfile.load(WORKFLOW_DIR / "workflow" / "resources.yaml")["rules"]
STEPS_PER_JOB = steps_per_job(config)


def job_log(run):
    """A training job's log: logs/<run>.log."""
    return f"logs/{run}.log"


def job_benchmark(rule_name, run):
    """A training job's benchmark (wall time, peak memory): by rule, then the run its log is
    named by, so that benchmarks/measure_resources.py finds the log (its step rates) from it."""
    return f"logs/benchmarks/{rule_name}/{run}.tsv"


def training_resources(rule_name):
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

    return {"mem_mb": mem_mb, "runtime": runtime}


# Where a PyTorch training job keeps its periodic saves: beside its first output, so that a
# killed job resumes on the next run; the job removes it once its outputs are written.
def resume_dir(wildcards, output):
    first = Path(output[0])
    return str(first.with_name(f".{first.name}.resume"))


# The training and polishing rules as their experiments declare them (l2relu.<paper>.experiments):
# the parameters each passes its jobs, and whether its resources are measured.
TRAININGS = trainings()


# Every training and polishing rule, written once: its log at logs/<job>.log, its benchmark
# under logs/benchmarks/<name>/ (benchmarks/measure_resources.py finds the log from it), the
# jobs' environment, one thread unless asked, the parameters its declaration gives, and the
# resume directory and device a PyTorch job reads. A declared training asks for mem_mb and
# runtime from workflow/resources.yaml; polishing, seconds of work, asks for neither. `gpu`:
# asks for the configured GPUs; `device`, `resume`: passed as params; `first`: started before
# the others (the build's longest jobs). The arguments' names are not Snakemake's keywords,
# which its formatter would read as directives.
def training_rule(
    name,
    script_name,
    job,
    *,
    outputs,
    inputs={},
    constraints={},
    first=False,
    n_threads=1,
    gpu=True,
    device=True,
    resume=True,
):
    if name not in TRAININGS:
        raise WorkflowError(f"{name}: no experiment declares it (l2relu.<paper>.experiments)")
    declared = TRAININGS[name]
    gpus = {"gpu": config["resources"]["train_gpus"]} if gpu else {}
    job_resources = (training_resources(name) if declared.measured else {}) | gpus

    rule:
        name:
            name
        input:
            **inputs,
            code=script_code(script_name),
        output:
            **outputs,
        log:
            job_log(job),
        benchmark:
            job_benchmark(name, job)
        wildcard_constraints:
            **constraints,
        priority: 1 if first else 0
        conda:
            ENV
        threads: n_threads
        resources:
            **job_resources,
        params:
            **({"resume": resume_dir} if resume else {}),
            **declared.params(config, reading_parameter),
            **({"device": config["device"]} if device else {}),
        script:
            str(WORKFLOW_DIR / "workflow" / "scripts" / f"{script_name}.py")


include: "registry.smk"


def seeds_in_turn(run, seed_sets):
    """The name of a job that trains `seed_sets` in turn: `run` with its {seeds} naming them all."""
    return run.replace("{seeds}", "+".join(seed_sets))


def per_seed_files(seed_sets, pattern):
    """A job's file of each of its seeds (restart_sets' names), `pattern` filled but for the
    job's own wildcards: one job trains its seeds in turn, each to its own files."""
    return expand(pattern, seeds=seed_sets, allow_missing=True)


def every_job_file(patterns, jobs):
    """Every job's files of `patterns` (a rule's per_seed_files output), job by job (`jobs`: each
    job's wildcards), each job's seeds in order."""
    return [p.format(**job) for job in jobs for p in patterns]


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
