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
