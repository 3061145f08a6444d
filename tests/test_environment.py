"""pyproject.toml and environment.yml must pin the same versions."""

import re
import tomllib

import yaml
from conftest import REPO


def _pins(requirements):
    pins = {}
    for req in requirements:
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", req.strip())
        assert match, f"not an exact pin: {req!r}"
        pins[match.group(1).lower()] = match.group(2)
    return pins


def test_pyproject_and_environment_pin_the_same_versions():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    from_pyproject = _pins(project["dependencies"] + project["optional-dependencies"]["dev"])
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert _pins(pip_section) == from_pyproject


def test_the_jobs_environment_pins_every_runtime_package_but_snakemake_as_pyproject_does():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    runtime = _pins(project["dependencies"])
    env = yaml.safe_load((REPO / "workflow/envs/l2relu.yaml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert _pins(pip_section) == {k: v for k, v in runtime.items() if k != "snakemake"}


def test_torch_is_pinned_to_the_cpu_wheel_version():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "torch==2.13.0" in project["dependencies"]
