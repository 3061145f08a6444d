"""Which files of this package a script or notebook runs: the closure of its imports of
`l2relu`, read with `ast` (nothing is imported, so it is cheap at parse time). A rule declares
them as inputs, so that editing any of them reruns the rule.

Standard library only: the workflow calls it before any job runs, in whatever environment
Snakemake itself runs in.
"""

import ast
import json
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
NAME = PACKAGE.name


def source_code(path: Path) -> str:
    """A script's text, or a notebook's code cells joined (IPython line magics and shell lines
    left out, and cells run by a cell magic such as %%bash, which are not Python)."""
    if path.suffix != ".ipynb":
        return path.read_text()
    cells = json.loads(path.read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    lines = [
        line
        for source in sources
        if not source.lstrip().startswith("%%")
        for line in source.splitlines()
        if not line.lstrip().startswith(("%", "!")) and "= !" not in line
    ]
    return "\n".join(lines)


@cache
def _module_file(dotted: str) -> Path | None:
    """`l2relu.jacot2022.fig2` -> its .py file (or package __init__.py); None if neither
    exists (e.g. `from l2relu.training.engine import train` names a function, not a module)."""
    base = PACKAGE.joinpath(*dotted.split(".")[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(path: Path) -> list[str]:
    """The dotted package a file of this package belongs to, as parts: ["l2relu", "jacot2022"]."""
    return [NAME, *path.relative_to(PACKAGE).parent.parts]


# The fields that hold statements: an import is a statement, so it lies in one of these, however
# deep in functions, classes, loops, `with`, `try` or `match` it sits. Walking them alone skips
# every expression, most of a module's nodes.
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(nodes):
    """Every statement among `nodes` and in their bodies, at any depth (with the except
    handlers and match cases that hold bodies)."""
    for node in nodes:
        yield node
        for field in _BODIES:
            yield from _statements(getattr(node, field, ()))


@cache
def _imported_names(path: Path) -> frozenset[str]:
    """Every dotted name of this package that the file imports, or may import (for
    `from l2relu.training import engine`, `l2relu`, `l2relu.training` and
    `l2relu.training.engine`). Cached: the rules ask for the same modules hundreds of times at
    parse time."""
    tree = ast.parse(source_code(path), filename=str(path))
    names = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: only inside the package
                if not path.is_relative_to(PACKAGE):
                    continue
                package = _package_of(path)
                package = package[: len(package) - node.level + 1]
                module = ".".join([*package, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(n for n in names if n == NAME or n.startswith(NAME + "."))


def imported_files(path) -> list[Path]:
    """The package's files that `path` (a script, notebook or module) runs when executed,
    transitively, parent packages' __init__.py included; sorted, `path` itself left out."""
    path = Path(path).resolve()
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        for name in _imported_names(current):
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):  # a module's parent packages run first
                found = _module_file(".".join(parts[:depth]))
                if found is not None and found not in seen:
                    seen.add(found)
                    todo.append(found)
    seen.discard(path)
    return sorted(seen)
