"""The workflow runs where `l2relu` is not installed (as in a slim conda env of the rules), from
any working directory, and reports on one target alone."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.e2e


def _python_without_the_package(tmp_path: Path) -> Path:
    """A virtual environment that sees this one's packages (through plain path entries, so
    their .pth files, among them the package's editable install, are not run) but not l2relu,
    with a `papermill` command of its own."""
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = next((env / "lib").glob("python*/site-packages"))
    borrowed = [p for p in sys.path if p.endswith("site-packages")]
    (site / "borrowed.pth").write_text("\n".join(borrowed) + "\n")
    papermill = env / "bin" / "papermill"
    papermill.write_text(
        f"#!{env / 'bin' / 'python'}\nfrom papermill.cli import papermill\npapermill()\n"
    )
    papermill.chmod(0o755)
    return env / "bin"


def test_a_target_builds_without_the_package_installed_and_in_another_directory(workflow_copy):
    bin_dir = _python_without_the_package(workflow_copy.parent)
    ours = os.path.dirname(sys.executable)
    path = [str(bin_dir), *(p for p in os.environ["PATH"].split(os.pathsep) if p != ours)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"PATH": os.pathsep.join(path), "VIRTUAL_ENV": str(bin_dir.parent)}
    python = str(bin_dir / "python")

    def run(*args):
        proc = subprocess.run(
            [python, *args], cwd=workflow_copy, env=env, capture_output=True, text=True
        )
        return proc.returncode, proc.stderr[-4000:]

    assert run("-c", "import l2relu")[0] != 0, "the bare environment must not see the package"

    smoke = ["--configfile", "config/smoke.yaml", "--directory", "runs/smoke"]
    # jacot2023_fig2's notebook imports l2relu too
    code, err = run("-m", "snakemake", "timor2022_fig2", "jacot2023_fig2", "--cores", "2", *smoke)
    assert code == 0, err
    runs = workflow_copy / "runs" / "smoke"
    for target in ("timor2022_fig2", "jacot2023_fig2"):
        assert (runs / f"figures/{target}.png").stat().st_size > 5_000
        assert (runs / f"results/notebooks/{target}.ipynb").is_file()
    assert not (workflow_copy / "figures").exists() and not (workflow_copy / "results").exists()

    # a reviewer's one-page report of the one target built (not of every target)
    code, err = run("-m", "snakemake", "timor2022_fig2", *smoke, "--report", "report.html")
    assert code == 0, err
    assert (runs / "report.html").stat().st_size > 10_000


def test_the_default_config_is_found_from_the_workflow_not_the_working_directory(tmp_path):
    from conftest import snakemake

    out = snakemake(REPO, "-n", "--directory", str(tmp_path / "elsewhere"), "timor2022_fig2")
    assert "timor2022_fig2" in out.stdout
