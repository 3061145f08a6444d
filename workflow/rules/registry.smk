# The targets, their files and the report; the claims registry the rules read parameters
# from; each script's and notebook's code inputs.

from dataclasses import dataclass

from l2relu.ledger import coverage
from l2relu.startup.codedeps import imported_files
from l2relu.ledger.registry import COVERAGE_FILE, RegistryError, load_registry, registry_files
from l2relu.ledger.verdict import paper_of


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


# l2relu.ledger.coverage: what share of the papers is judged
COVERAGE_INDEX = CLAIMS_DIR / COVERAGE_FILE


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
