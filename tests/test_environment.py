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


# ---- the lock: every package the install brings, at one version -------------------------------
LOCK = REPO / "requirements.lock"


def _locked():
    lines = [ln.strip() for ln in LOCK.read_text().splitlines()]
    return _pins([ln for ln in lines if ln and not ln.startswith("#")])


def _name(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_lock_holds_every_pin_of_pyproject_at_its_version():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = [r for reqs in project["optional-dependencies"].values() for r in reqs]
    locked = {_name(k): v for k, v in _locked().items()}
    for name, version in _pins(project["dependencies"] + extras).items():
        assert locked.get(_name(name)) == version, (
            f"{name}: pyproject {version}, lock {locked.get(_name(name))}"
        )


def test_the_lock_is_closed_under_the_requirements_of_its_packages():
    """A requirement of a locked package that the lock lacks would be resolved anew on each
    install: the lock would not fix the environment. Read from the installed metadata."""
    from importlib import metadata

    from packaging.requirements import Requirement

    locked = {_name(k) for k in _locked()}
    missing = set()
    for name in locked:
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue  # installed or not is the next test's concern
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                if _name(req.name) not in locked:
                    missing.add(f"{req.name} (required by {name})")
    assert not missing, sorted(missing)


def test_the_environment_the_tests_run_in_is_the_locked_one():
    """The README's install reads the lock as constraints: every locked package is installed at
    its version (torch's local label, +cpu or +cuXYZ, aside)."""
    from importlib import metadata

    wrong = {}
    for name, version in _locked().items():
        try:
            installed = metadata.version(name).split("+")[0]
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong[name] = (version, installed)
    assert not wrong, f"locked (version, installed): {wrong}"


def test_the_readme_and_ci_install_through_the_lock():
    readme = (REPO / "README.md").read_text()
    installs = [ln for ln in readme.splitlines() if "pip install" in ln]
    assert installs and all("-c requirements.lock" in ln for ln in installs)
    assert "-c requirements.lock" in (REPO / ".ci/run").read_text()
