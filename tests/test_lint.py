"""The code style and workflow checks every commit must pass."""

import subprocess
import sys

from conftest import REPO, snakemake


def test_ruff_is_clean():
    for args in (["check", "."], ["format", "--check", "."]):
        proc = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=REPO, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_snakefmt_is_clean():
    proc = subprocess.run(
        [sys.executable, "-m", "snakefmt", "--check", "Snakefile", "workflow"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_snakemake_lint_is_clean():
    proc = snakemake(REPO, "--lint", check=False)
    assert proc.returncode == 0 and "good condition" in proc.stdout + proc.stderr, proc.stdout


def _long_functions(path, limit: int) -> list[str]:
    import ast

    tree = ast.parse(path.read_text())
    return [
        f"{path.relative_to(REPO)}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_functions_fit_on_a_screen_and_files_stay_small():
    """No function in src/ over 80 lines, no rules file over 300, no test file over 800."""
    long = [f for p in sorted((REPO / "src").rglob("*.py")) for f in _long_functions(p, 80)]
    assert not long, long
    sizes = [
        *((p, 300) for p in (REPO / "workflow/rules").rglob("*.smk")),
        *((p, 800) for p in (REPO / "tests").rglob("test_*.py")),
    ]
    big = [
        str(p.relative_to(REPO)) for p, limit in sizes if len(p.read_text().splitlines()) > limit
    ]
    assert not big, big


def test_the_size_check_sees_a_long_function():
    path = REPO / "src" / "l2relu" / "training" / "engine.py"
    assert _long_functions(path, 30)  # engine's functions are under 80 lines, not under 30
