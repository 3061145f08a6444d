"""Editing a module reruns exactly the jobs whose code runs it: every rule's `code` inputs are
the import closure of its script or notebook."""

import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, rule_scripts, snakemake

from l2relu.startup import codedeps
from l2relu.startup.codedeps import imported_files

SMOKE = ["--configfile", "config/smoke.yaml"]


def _regex_closure(path: Path) -> set[str]:
    """A second, cruder reading of what a file imports (every `l2relu.x.y` or `from l2relu.x
    import y` that names a file of the package), to check imported_files against."""
    found, todo = set(), [path]
    while todo:
        text = todo.pop().read_text()
        names = re.findall(r"\bl2relu((?:\.\w+)*)", text)
        names += [
            f"{mod}.{name.strip()}"
            for mod, names in re.findall(r"from l2relu((?:\.\w+)*) import ([\w, ]+)", text)
            for name in names.split(",")
        ]
        for name in names:
            parts = [p for p in name.split(".") if p]
            for depth in range(len(parts) + 1):
                base = REPO / "src" / "l2relu" / Path(*parts[:depth])
                for f in (base.with_suffix(".py"), base / "__init__.py"):
                    if f.is_file() and str(f) not in found and f != path:
                        found.add(str(f))
                        todo.append(f)
    return found


@pytest.mark.parametrize(
    "path",
    [
        "workflow/scripts/train_jacot2022_fig2.py",
        "workflow/scripts/build_claims.py",
        "notebooks/jacot2023_fig2.ipynb",
        "notebooks/timor2022_fig1.ipynb",
    ],
)
def test_the_import_closure_agrees_with_a_plain_text_reading(path):
    closure = {str(f) for f in imported_files(REPO / path)}
    assert closure == _regex_closure(REPO / path)


def test_the_issue_example_fig2_runs_seeding_and_plateau():
    closure = {f.name for f in imported_files(REPO / "workflow/scripts/train_jacot2022_fig2.py")}
    assert {"engine.py", "fig2.py", "seeding.py", "plateau.py", "io.py"} <= closure
    # a notebook that imports only the notebooks' shared module depends on it and what it
    # imports (the ledger's reader) alone
    closure = {f.name for f in imported_files(REPO / "notebooks/timor2022_fig1.ipynb")}
    assert closure == {
        "__init__.py",
        "notebook.py",
        "verdict.py",
        "claims.py",
        "registry.py",
        "coverage.py",
        "yamlfile.py",
    }


# an import in every kind of statement body: the reading walks statements, not expressions
_NESTED = """
import l2relu.a
def f():
    import l2relu.b
    class C:
        def g(self):
            from l2relu import c
async def h():
    async with x:
        import l2relu.d
    async for y in z:
        pass
    else:
        import l2relu.e
if x:
    pass
elif y:
    import l2relu.f
else:
    import l2relu.g
for i in x:
    import l2relu.h
else:
    import l2relu.i
while x:
    import l2relu.j
else:
    import l2relu.k
with x:
    import l2relu.l
try:
    import l2relu.m
except ImportError:
    import l2relu.n
else:
    import l2relu.o
finally:
    import l2relu.p
try:
    pass
except* ValueError:
    import l2relu.q
match x:
    case 1:
        import l2relu.r
"""


def test_the_reading_finds_an_import_in_every_kind_of_statement(tmp_path):
    source = tmp_path / "nested.py"
    source.write_text(_NESTED)
    assert codedeps._imported_names(source) == {
        "l2relu",
        *(f"l2relu.{m}" for m in "abdefghijklmnopqr"),
        "l2relu.c",
    }


def test_the_reading_finds_the_imports_a_walk_of_every_node_finds():
    """Over every file of the package, script and notebook: the statements walked are where
    ast.walk, which visits every node, finds imports."""
    files = [
        *(REPO / "src/l2relu").rglob("*.py"),
        *(REPO / "workflow/scripts").glob("*.py"),
        *(REPO / "notebooks").glob("*.ipynb"),
        Path(__file__),
    ]
    kinds = (ast.Import, ast.ImportFrom)
    for path in files:
        tree = ast.parse(codedeps.source_code(path))
        walked = [ast.dump(n) for n in ast.walk(tree) if isinstance(n, kinds)]
        statements = [ast.dump(n) for n in codedeps._statements(tree.body) if isinstance(n, kinds)]
        assert sorted(statements) == sorted(walked), path
    assert len(files) > 100


def _built(tree: Path) -> None:
    """Mark every smoke output as up to date without running a job: empty files, then
    Snakemake's --touch in the DAG's order."""
    summary = snakemake(tree, *SMOKE, "--summary", "--cores", "1").stdout
    for line in summary.splitlines()[1:]:
        output = tree / line.split("\t")[0]
        output.parent.mkdir(parents=True, exist_ok=True)
        output.touch()
    snakemake(tree, *SMOKE, "--touch", "--cores", "1")
    assert "Nothing to be done" in snakemake(tree, *SMOKE, "-n").stdout


def _rules_rerun_after_editing(tree: Path, edited: str) -> set[str]:
    """The rules of the jobs a dry run would rerun once `edited` has changed (a line added: a
    changed mtime alone may not do, as Snakemake also compares the checksums it recorded)."""
    time.sleep(0.05)
    with open(tree / edited, "a") as f:
        f.write("\n")
    out = snakemake(tree, *SMOKE, "-n", "--rerun-triggers", "mtime").stdout
    return set(re.findall(r"(?m)^rule (\w+):", out))


def _importers(tree: Path, module: str, dag_rules: set[str]) -> set[str]:
    """The rules of the smoke DAG whose script imports `module`, by the plain text reading."""
    return {
        rule
        for rule, script in rule_scripts(tree).items()
        if rule in dag_rules
        and str(REPO / module) in _regex_closure(REPO / f"workflow/scripts/{script}.py")
    }


def test_editing_a_module_reruns_the_jobs_that_import_it_and_a_notebook_only_itself(
    workflow_copy,
):
    dag = set(re.findall(r"(?m)^rule (\w+):", snakemake(workflow_copy, *SMOKE, "-n").stdout))

    # seeding derives every seed: the example rule is among those rerun
    seeding = "src/l2relu/training/seeding.py"
    importers = _importers(workflow_copy, seeding, dag)
    assert {"train_jacot2022_fig2", "train_timor2022_fig1", "generate_jacot2022_mnist"} <= importers
    _built(workflow_copy)
    assert _rules_rerun_after_editing(workflow_copy, seeding) >= importers

    # a module of one paper reruns that paper's jobs that import it, and what reads their outputs
    module = "src/l2relu/chen2024/truncation.py"
    importers = _importers(workflow_copy, module, dag)
    assert importers and all(r.split("_")[1] == "chen2024" for r in importers)
    _built(workflow_copy)
    rerun = _rules_rerun_after_editing(workflow_copy, module)
    assert rerun >= importers
    # the ledger and the captions read every target's rows (a caption job per target)
    assert all("chen2024" in r for r in rerun - {"claims", "all", "write_figure_caption"})

    _built(workflow_copy)
    rerun = _rules_rerun_after_editing(workflow_copy, "notebooks/timor2022_fig2.ipynb")
    assert "execute_timor2022_fig2_notebook" in rerun
    assert rerun <= {"execute_timor2022_fig2_notebook", "timor2022_fig2", "all"}


def test_every_import_form_is_read_and_cell_magics_are_skipped(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        "import numpy as np\n"
        "import l2relu.training.seeding as seeding\n"
        "from l2relu.jacot2022 import (\n    fig2,\n    theory,\n)\n"
        "def later():\n    from l2relu.chen2024.truncation import cone\n"
    )
    names = {str(f.relative_to(REPO / "src")) for f in imported_files(script)}
    assert {
        "l2relu/training/seeding.py",
        "l2relu/jacot2022/fig2.py",
        "l2relu/jacot2022/theory.py",
        "l2relu/chen2024/truncation.py",
    } <= names
    assert "l2relu/timor2022/deep.py" not in names

    cells = [
        {"cell_type": "code", "source": ["%%bash\n", "echo $((1 + 1))\n"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "files = !ls\n"]},
        {"cell_type": "code", "source": ["from l2relu.training.measures import stable_rank\n"]},
        {"cell_type": "markdown", "source": ["import l2relu.training.engine\n"]},
    ]
    notebook = tmp_path / "figure.ipynb"
    notebook.write_text(json.dumps({"cells": cells}))
    names = {f.name for f in imported_files(notebook)}
    assert "measures.py" in names and "engine.py" not in names


def test_parsing_the_workflow_imports_neither_torch_nor_numba():
    """The modules the Snakefile imports at parse time (config checks, code dependencies,
    resources, the registry) start in well under a second: none of them imports torch or
    numba, which only jobs need."""
    rules = [REPO / "Snakefile", *sorted((REPO / "workflow/rules").rglob("*.smk"))]
    modules = sorted(
        {
            m
            for path in rules
            for m in re.findall(r"(?m)^from (l2relu[\w.]*) import", path.read_text())
        }
    )
    assert {
        "l2relu.startup.configcheck",
        "l2relu.startup.codedeps",
        "l2relu.startup.resources",
    } <= set(modules)
    heavy = ("torch", "numba")
    code = f"import sys, {', '.join(modules)}; print([m for m in {heavy!r} if m in sys.modules])"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "src", capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "[]", proc.stdout
    # the reading sees a heavy import: the engine imports torch
    code = "import sys, l2relu.training.engine; print('torch' in sys.modules)"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "src", capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "True"


@pytest.mark.parametrize("floor", ["ledger", "startup"])
def test_the_ledger_and_start_up_floors_import_neither_torch_nor_numba(floor):
    """Every module of the floor: the ledger is read where no job ran (a reviewer's machine),
    the start-up floor at parse time; the same reading of the training floor sees torch."""
    heavy = ("torch", "numba")

    def heavy_imports(package):
        modules = sorted(p.stem for p in (REPO / "src/l2relu" / package).glob("[!_]*.py"))
        assert modules, package
        code = (
            f"import sys, {', '.join(f'l2relu.{package}.{m}' for m in modules)}; "
            f"print([m for m in {heavy!r} if m in sys.modules])"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO / "src", capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert heavy_imports(floor) == "[]"
    assert heavy_imports("training") == "['torch', 'numba']"
