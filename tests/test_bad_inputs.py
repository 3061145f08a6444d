"""The bad-input catalogue (docs/troubleshooting.md, "Bad input"): each bad input stops
`snakemake` before any job runs, with one line naming the problem, and leaves results/ as it
was."""

import gzip
from dataclasses import dataclass

import pytest
from conftest import REPO, snakemake


@dataclass(frozen=True)
class BadInput:
    what: str  # the catalogue's words for it (docs/troubleshooting.md)
    overlay: str = ""  # YAML config overlay, given with --configfile
    words: str = ""  # what the one-line message says (also in the catalogue's table)
    target: str = ""  # a command-line target, when the bad input is the target
    setup: str = ""  # how the checkout is spoiled first: see spoil()
    flags: str = ""  # command-line flags, when the bad input is on the command line


CATALOGUE = [
    BadInput("a misspelt key", "lamda: 0.1\n", "config key (top level): unknown key(s) 'lamda'"),
    BadInput(
        "an unknown nested key",
        "jacot2022:\n  fig2:\n    widht: [1, 2]\n",
        "config key jacot2022.fig2: unknown key(s) 'widht'",
    ),
    BadInput(
        "a value of the wrong type",
        "timor2022:\n  fig1:\n    n_runs: many\n",
        "config key timor2022.fig1.n_runs: 'many' is not of type 'integer'",
    ),
    BadInput(
        "a value out of range",
        "timor2022:\n  fig1:\n    lr: -1\n",
        "config key timor2022.fig1.lr: -1 is less than or equal to the minimum of 0",
    ),
    BadInput(
        "an unknown choice",
        "device: gpu\n",
        "config key device: 'gpu' is not one of ['auto', 'cpu', 'cuda']",
    ),
    BadInput(
        "an empty sweep",
        "jacot2022:\n  fig2:\n    widths: []\n",
        "config key jacot2022.fig2.widths: [] is too short",
    ),
    BadInput(
        "a repeated value",
        "jacot2022:\n  fig1:\n    digits: [7, 7, 9]\n",
        "config key jacot2022.fig1.digits: [7, 7, 9] has non-unique elements",
    ),
    BadInput(
        "an unknown target in the config",
        "targets: [timor2022_fig9]\n",
        "config key targets.0: 'timor2022_fig9' is not one of",
    ),
    BadInput(
        "an unknown target on the command line",
        target="timor2022_fig9",
        words="No rule to produce timor2022_fig9",
    ),
    BadInput(
        "a student narrower than its teacher",
        "timor2022:\n  theory:\n    deep:\n      width: 2\n",
        "config key timor2022.theory.deep.width: must be >= timor2022.theory.teacher.width",
    ),
    BadInput(
        "more classes than neurons",
        "chen2024:\n  theory:\n    dims: [[5, 3], [3, 4]]\n",
        "config key chen2024.theory.dims: [3, 4] has Q > M",
    ),
    BadInput(
        "a rank above the latent dimension",
        "jacot2023:\n  task:\n    true_rank: 16\n",
        "config key jacot2023.task.true_rank: 16 is larger than the latent",
    ),
    BadInput(
        "a 'deep' net no deeper than the shallow one",
        "jacot2023:\n  fig2:\n    deep_depth: 2\n",
        "config key jacot2023.fig2.deep_depth: must be larger",
    ),
    BadInput(
        "Fig. 2 without a network trained with L2",
        "jacot2023:\n  fig2:\n    lams: [0.0]\n",
        "config key jacot2023.fig2.lams: must hold 0 and a positive lambda",
    ),
    BadInput(
        "a study that leaves out a depth of its figure",
        "jacot2023:\n  fig2_study:\n    depths: [2, 3, 4]\n",
        "config key jacot2023.fig2_study.depths: must hold Fig. 2's depth 9",
    ),
    BadInput(
        "a class margin wider than the gap between two S's",
        "jacot2023:\n  fig2_study:\n    margin: 0.1\n",
        "config key jacot2023.fig2_study.margin: 0.1 is not below the narrowest gap 0.0793",
    ),
    BadInput(
        "a Fig. 1 study schedule read between two progress lines",
        "jacot2022:\n  fig1_study:\n    schedules:\n      - lr: 0.5\n        steps: 21000\n",
        "config key jacot2022.fig1_study.schedules[0].steps: four fifths of it (16800) is not a",
    ),
    BadInput(
        "a Fig. 3 study without the figure's deep depth",
        "jacot2023:\n  fig3_study:\n    curve:\n      depths: [2, 4, 8]\n",
        "config key jacot2023.fig3_study.curve.depths: must hold Fig. 3's deep depth 12",
    ),
    BadInput(
        "a rank study whose extra depth is not its deepest",
        "jacot2023:\n  rank_study:\n    extra_depth: 20\n",
        "config key jacot2023.rank_study.extra_depth: must be larger than every depth",
    ),
    BadInput(
        "more digits than the embedded MNIST has",
        "jacot2022:\n  fig2:\n    mnist:\n      n_train: 4500\n",
        "the embedded set has 500",
    ),
    BadInput(
        "full MNIST asked for without its folder",
        "jacot2022:\n  data:\n    mnist_source: idx\n",
        "config key jacot2022.data.mnist_idx_dir: needed when mnist_source is idx",
    ),
    BadInput(
        "a missing MNIST file",
        "jacot2022:\n  data:\n    mnist_source: idx\n    mnist_idx_dir: {tmp}/empty\n",
        "missing MNIST file",
        setup="empty_mnist_dir",
    ),
    BadInput(
        "a corrupt MNIST file",
        "jacot2022:\n  data:\n    mnist_source: idx\n    mnist_idx_dir: {tmp}/corrupt\n",
        "corrupt MNIST file",
        setup="corrupt_mnist_dir",
    ),
    BadInput(
        "a results folder that cannot be written",
        words="output folder results/ cannot be made: a file of that name is in the way",
        setup="results_is_a_file",
    ),
    BadInput(
        "a registry entry under no item of the coverage index",
        words="coverage.yaml: timor2022.theory.thm1_rank_one is under no item of the coverage "
        "index",
        setup="entry_left_out_of_coverage",
    ),
    BadInput(
        "a scale set on the command line",
        words="config key scale: 'paper' set with --config, but the loaded config files build "
        "the 'default' scale; a scale is chosen by its config file, not by --config: load "
        "--configfile config/paper.yaml",
        flags="--config scale=paper",
    ),
    BadInput(
        "an unknown scale on the command line",
        words="the scales are default, paper, paper_shapes, smoke",
        flags="--config scale=huge",
    ),
    BadInput(
        "a reference comparison where the scale has no reference",
        target="compare_reference",
        words="compare_reference: scale 'paper_shapes' has no reference ledger "
        "(reference/paper_shapes/claims.csv); the scales with one are default, paper, smoke",
        flags="--configfile config/paper.yaml config/paper_shapes.yaml",
    ),
    BadInput(
        "no cores",
        words="--cores 0 (or --jobs 0): no job could ever start; give 1 or more",
        flags="--cores 0",
    ),
    BadInput(
        "no jobs",
        words="--cores 0 (or --jobs 0): no job could ever start; give 1 or more",
        flags="--jobs 0",
    ),
    BadInput(
        "a negative checkpoint interval",
        "checkpoint_every_s: -5\n",
        "config key checkpoint_every_s: -5 is less than the minimum of 0",
    ),
]
MNIST_FILES = [
    "train-images-idx3-ubyte.gz",
    "train-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
]


def spoil(setup: str, checkout, tmp):
    if setup == "empty_mnist_dir":
        (tmp / "empty").mkdir()
    elif setup == "corrupt_mnist_dir":
        (tmp / "corrupt").mkdir()
        for name in MNIST_FILES:  # well-formed gzip, wrong contents
            (tmp / "corrupt" / name).write_bytes(gzip.compress(b"not MNIST"))
    elif setup == "entry_left_out_of_coverage":
        index = checkout / "workflow/claims/coverage.yaml"
        index.write_text(index.read_text().replace("  - timor2022.theory.thm1_rank_one\n", ""))
    elif setup == "results_is_a_file":
        (checkout / "results").write_text("a file where the results folder should be\n")


def test_the_catalogue_has_at_least_15_entries_all_in_the_docs():
    page = (REPO / "docs/troubleshooting.md").read_text()
    assert len(CATALOGUE) >= 15
    for bad in CATALOGUE:
        assert f"| {bad.what} |" in page, bad.what
        assert bad.words.replace("|", "\\|") in page, bad.words


@pytest.mark.parametrize("bad", CATALOGUE, ids=[b.what for b in CATALOGUE])
def test_a_bad_input_stops_before_any_job_with_one_line(bad, workflow_copy, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("inputs")
    spoil(bad.setup, workflow_copy, tmp)
    before = (workflow_copy / "results").read_bytes() if bad.setup == "results_is_a_file" else None
    args = ([bad.target] if bad.target else []) + bad.flags.split()
    if bad.overlay:
        overlay = tmp / "bad.yaml"
        overlay.write_text(bad.overlay.format(tmp=tmp))
        args += ["--configfile", str(overlay)]
    proc = snakemake(workflow_copy, "-n", *args, check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert any(bad.words in line for line in output.splitlines()), output[-2000:]
    assert "Job stats" not in output  # no job was even planned
    if before is None:
        assert not (workflow_copy / "results").exists()
    else:
        assert (workflow_copy / "results").read_bytes() == before
