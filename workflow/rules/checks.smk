# The config and the command line checked before any job starts: one line naming the key or
# option and the problem, and nothing written.

import shutil

from snakemake.logging import logger
from snakemake.utils import validate

from l2relu import yamlfile
from l2relu.startup.configcheck import explain, mnist_problem, unwritable
from l2relu.startup.experiments import config_problem
from l2relu.startup.gpu import cuda_problem, mps_directory, start_mps, stop_mps


def _check_config():
    """Fail before any job runs, with one line naming the key and the problem."""
    schema_path = workflow.source_path("../schemas/config.schema.yaml")
    schema = yamlfile.load(schema_path)
    problem = explain(config, schema)
    if problem is None:
        problem = config_problem(config)
    if problem is None:
        problem = mnist_problem(config)
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
        scale = (yamlfile.load(path) or {}).get("scale", scale)
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


def _settle_gpu():
    """On this machine: `device: cuda` without a CUDA device stops before the first job, and
    `cuda_mps` starts the daemon the jobs share the GPU through. Jobs a cluster runs on its
    nodes find their own GPUs there."""
    plugin = workflow.executor_plugin
    if plugin is not None and plugin.common_settings.non_local_exec:
        return
    problem = cuda_problem(config["device"])
    if problem is not None:
        raise WorkflowError(problem)
    if config["cuda_mps"] and config["device"] != "cpu":
        start_mps(mps_directory(Path.cwd()), log=logger.info)


# The executor is known only once the workflow starts, after parsing.
onstart:
    _check_executor()
    _settle_gpu()


onsuccess:
    stop_mps(log=logger.info)


onerror:
    stop_mps(log=logger.info)
