import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# What a user's checkout holds that the workflow needs (results/ and figures/ are generated).
WORKFLOW_PARTS = [
    "Snakefile",
    "workflow",
    "config",
    "notebooks",
    "environment.yml",
    "src",
    "reference",
]


def pytest_addoption(parser):
    parser.addoption(
        "--update-reference",
        action="store_true",
        help="save the end-to-end smoke build's ledger as reference/smoke (an intended change)",
    )


def registered_targets() -> list[str]:
    """The target ids, as the papers' rules files register them (register_target)."""
    return [
        target
        for path in sorted((REPO / "workflow/rules").rglob("*.smk"))
        for target in re.findall(r'register_target\(\s*"(\w+)"', path.read_text())
    ]


def rule_scripts(tree: Path = REPO) -> dict[str, str]:
    """Each rule's script (workflow/scripts/<script>.py), as the rules files write it: a rule
    block's `script:`, or a training_rule call's script_name."""
    scripts = {}
    for path in sorted((tree / "workflow/rules").rglob("*.smk")):
        text = path.read_text()
        for rule, body in re.findall(r"(?ms)^rule (\w+):\n(.*?)(?=^\S|\Z)", text):
            script = re.search(r'"(?:\.\./)+scripts/(\w+)\.py"', body)
            if script:
                scripts[rule] = script.group(1)
        calls = r'(?m)^training_rule\(\n    "(\w+)",\n    script_name="(\w+)",'
        scripts |= dict(re.findall(calls, text))
    return scripts


def training_rules(tree: Path = REPO) -> list[str]:
    """The training rules (train_*) the rules files write through training_rule."""
    return sorted(rule for rule in rule_scripts(tree) if rule.startswith("train_"))


def copy_workflow(dest: Path) -> Path:
    for part in WORKFLOW_PARTS:
        src = REPO / part
        if src.is_dir():
            shutil.copytree(src, dest / part)
        else:
            shutil.copy2(src, dest / part)
    return dest


def activated_environment() -> dict:
    """os.environ with this interpreter's environment's tools (papermill) first on PATH, as an
    activated environment has them."""
    return os.environ | {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}


def snakemake(cwd: Path, *args, check=True, timeout=1200) -> subprocess.CompletedProcess:
    """Run the Snakemake CLI of this interpreter's environment in `cwd`."""
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=cwd,
        env=activated_environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture
def workflow_copy(tmp_path):
    return copy_workflow(tmp_path)


class BackgroundBuild:
    """`snakemake ARGS` in `tree`, started at once at the lowest CPU priority (nice 19, which
    its jobs inherit): it runs on whatever the tests running meanwhile leave of the cores. It
    stays in the tests' session (a new session would be a new scheduling autogroup, in which
    nice ranks it only against itself) and gets a process group of its own, which stop() ends."""

    def __init__(self, tree: Path, *args):
        self.tree, self.log = tree, tree / "background_build.log"
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                ["nice", "-n", "19", sys.executable, "-m", "snakemake", *args],
                cwd=tree,
                env=activated_environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                process_group=0,
            )

    def wait(self, timeout: float) -> Path:
        """The tree, once the build has ended well (waiting at most `timeout` seconds more);
        it fails the test otherwise."""
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f"the build ran past {timeout} s:\n{self._tail()}") from None
        if code != 0:
            raise AssertionError(f"the build failed:\n{self._tail()}")
        return self.tree

    def stop(self):
        """The build ended (SIGTERM, a minute to end its jobs), then whatever is left of its
        process group killed."""
        with contextlib.suppress(ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def _tail(self) -> str:
        return "\n".join(self.log.read_text().splitlines()[-60:])


# The paper-shapes build (tests/test_paper_shapes.py): the paper DAG with every step count cut
# (config/paper_shapes.yaml), through the GPU command (profiles/gpu); `device: auto` trains on
# the CPU where there is no GPU, and MPS is left off where its daemon is missing.
PAPER_SHAPES = ["--configfile", "config/paper.yaml", "config/paper_shapes.yaml"]
PAPER_SHAPES_COMMAND = [
    *("--profile", "profiles/gpu", "--config", "device=auto", "cuda_mps=True"),
    *("--cores", "2", *PAPER_SHAPES),
]


def _needs_paper_shapes(item) -> bool:
    return "paper_shapes_tree" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items):
    """The tests of the paper-shapes build run last: it starts with the session, in the
    background (paper_shapes_build), and has the whole run to get done."""
    items.sort(key=_needs_paper_shapes)


@pytest.fixture(scope="session", autouse=True)
def paper_shapes_build(request, tmp_path_factory):
    """The paper-shapes build, started as the session starts where a selected test needs it."""
    if not any(_needs_paper_shapes(item) for item in request.session.items):
        yield None
        return
    tree = copy_workflow(tmp_path_factory.mktemp("paper_shapes"))
    shutil.copytree(REPO / "profiles", tree / "profiles")
    build = BackgroundBuild(tree, *PAPER_SHAPES_COMMAND)
    yield build
    build.stop()


def tiny_rank_study(lams=(0.05, 0.8), seeds=(0,), steps=40, log_every=5):
    """A rank study run small enough for a test: Fig. 1's task shrunk, depth 3, width 6."""
    from l2relu.jacot2023 import rank_study
    from l2relu.jacot2023.data import LatentTask
    from l2relu.training import engine

    task = LatentTask(latent=4, d_in=6, d_out=5, true_rank=2, width=8, seed=0)
    cfg = rank_study.StudyFit(
        depth=3,
        width=6,
        n_train=20,
        lams=lams,
        phases=(engine.Phase("adam", 3e-3, steps),),
        seeds=seeds,
        log_every=log_every,
    )
    return task, cfg


def judged(measurements, every_entry=True):
    """Ledger rows of `measurements`, judged by the repository's claims registry, indexed by
    claim id (and case, where a claim has several; and reading, after the primary's).
    every_entry=False judges a part of a target's claims."""
    from l2relu.ledger import claims
    from l2relu.ledger.registry import load_registry, registry_files

    registry = load_registry(registry_files(REPO / "workflow/claims"))
    measurements = list(measurements)
    if not every_entry:
        registry = {m.claim_id: registry[m.claim_id] for m in measurements}
    # a measure is judged here as on a network certified stationary, where its entry asks
    measurements = [
        claims._with_stationary(registry, m, [True] * len(m.values)) for m in measurements
    ]
    rows = claims.evaluate(registry, measurements)
    keys = []
    for r in rows.itertuples():
        case = r.claim.removeprefix(registry[r.claim_id].measure).removeprefix(", ")
        key = f"{r.claim_id}|{case}" if case else r.claim_id
        keys.append(key if r.primary else f"{key}|{r.reading}")
    rows.index = keys
    return rows


CONTROL_STATUSES = ("fail", "mixed")


def controls(*claim_ids):
    """Marks a control: a test that judges each of `claim_ids` (empirical or exact registry
    entries) on a negative case. While it runs, a row of each must be judged fail or mixed, or
    the test fails (_control_rows); tests/test_controls.py finds every entry a control."""
    return pytest.mark.controls(*claim_ids)


@pytest.fixture(autouse=True)
def _control_rows(request, monkeypatch):
    """Every row a `controls` test judges, checked at its end: each controlled entry failed."""
    controlled = [i for marker in request.node.iter_markers("controls") for i in marker.args]
    if not controlled:
        yield
        return
    from l2relu.ledger import claims

    judged_rows, evaluate = [], claims.evaluate

    def recording(*args, **kwargs):
        rows = evaluate(*args, **kwargs)
        judged_rows.append(rows[["claim_id", "status"]])
        return rows

    monkeypatch.setattr(claims, "evaluate", recording)
    yield
    unfailed = unfailed_controls(controlled, judged_rows)
    assert not unfailed, f"a control judged no row of {unfailed} fail or mixed"


def unfailed_controls(claim_ids, judged_rows) -> list[str]:
    """The controlled entries of which no judged row (frames of claim_id, status) failed."""
    failed = {
        claim_id
        for rows in judged_rows
        for claim_id, status in zip(rows.claim_id, rows.status, strict=True)
        if status in CONTROL_STATUSES
    }
    return [claim_id for claim_id in claim_ids if claim_id not in failed]


def killed_and_resumed(monkeypatch, resume, step, run):
    """run() inside checkpointing into `resume`, killed just after the training's read at
    `step`, then run() again, resumed from its checkpoint; returns what the second gives."""
    from l2relu.training import engine

    train = engine.train

    def killed(*args, watch, **kwargs):
        def dying(done):
            watch(done)
            if done == step:
                raise KeyboardInterrupt

        return train(*args, watch=dying, **kwargs)

    monkeypatch.setattr(engine, "train", killed)
    with pytest.raises(KeyboardInterrupt), engine.checkpointing(resume, every_s=0):
        run()
    monkeypatch.setattr(engine, "train", train)
    with engine.checkpointing(resume, every_s=0):
        return run()


def claim_status(measurements, claim_id, case=None):
    """The statuses of `claim_id`'s primary rows among `measurements` (judged alone), of one
    case where `case` ends the claim's text."""
    rows = judged(measurements, every_entry=False)
    rows = rows[(rows.claim_id == claim_id) & rows.primary]
    if case is not None:
        rows = rows[rows.claim.str.endswith(case)]
    return rows.status.tolist()


def reading_status(measurements, claim_id):
    """{reading: status} of `claim_id` among `measurements` (judged alone)."""
    rows = judged(measurements, every_entry=False)
    rows = rows[rows.claim_id == claim_id]
    return dict(zip(rows.reading, rows.status, strict=True))


def readings_of(claim_id):
    """Every reading of a registry entry, the primary first."""
    from l2relu.ledger.registry import load_registry, registry_files

    return load_registry(registry_files(REPO / "workflow/claims"))[claim_id].every_reading


def random_network(widths, rng):
    """A ReLU network's weights and biases {w1, b1, ...} drawn at the usual 1/sqrt(fan-in)."""
    import numpy as np

    return {
        **{
            f"w{i + 1}": rng.standard_normal((o, n)) / np.sqrt(n)
            for i, (n, o) in enumerate(zip(widths[:-1], widths[1:], strict=True))
        },
        **{f"b{i + 1}": 0.1 * rng.standard_normal(o) for i, o in enumerate(widths[1:])},
    }


def judged_check(measurements, registry):
    """Ledger rows of `measurements` judged by the entries of `registry` they name alone."""
    from l2relu.ledger import claims

    check = {ledger_id: registry[ledger_id] for ledger_id in {m.claim_id for m in measurements}}
    return claims.evaluate(check, measurements)


def registry_files_of_repo():
    """The repository's registry files (workflow/claims/<paper>.yaml)."""
    from l2relu.ledger.registry import registry_files

    return registry_files(REPO / "workflow/claims")
