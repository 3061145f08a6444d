"""One-line explanations of config errors (imported at workflow parse time: keep it light)."""

import math
import os
import tempfile
from pathlib import Path

import jsonschema


def overlay(base: dict, new: dict) -> dict:
    """`base` updated in place by `new` as Snakemake applies a --configfile overlay: nested
    mappings merge key by key, anything else is replaced."""
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            overlay(base[key], value)
        else:
            base[key] = value
    return base


def explain(config: dict, schema: dict) -> str | None:
    """'<dotted key>: <problem>' for the most relevant schema violation, or None if valid."""
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(config))
    if error is None:
        return None
    key = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"config key {key}: unknown key(s) {', '.join(map(repr, unknown))}"
    return f"config key {key}: {error.message}"


def mnist_subsets(config: dict) -> dict[str, dict]:
    """Every MNIST subset the config asks for, by the config key that asks: its digits, train
    and test sizes and seed (jacot2022's Fig. 1 has no test set). All are drawn by one rule from
    the source that jacot2022.data names."""
    fig1, fig2 = config["jacot2022"]["fig1"], config["jacot2022"]["fig2"]["mnist"]
    autoencoder = config["jacot2023"]["fig3"]["mnist"]
    return {
        "jacot2022.fig1": {
            "digits": list(fig1["digits"]),
            "n_train": fig1["n_train"],
            "n_test": 0,
            "seed": fig1["seed"],
        },
        "jacot2022.fig2.mnist": {
            "digits": list(range(10)),
            "n_train": fig2["n_train"],
            "n_test": fig2["n_test"],
            "seed": fig2["seed"],
        },
        "jacot2023.fig3.mnist": {
            "digits": list(range(10)),
            "n_train": autoencoder["n_train"],
            "n_test": 0,  # noisy copies of training digits are shown
            "seed": autoencoder["seed"],
        },
    }


def mnist_problem(config: dict) -> str | None:
    """Whether the MNIST subsets the config asks for can be drawn from the chosen source."""
    from l2relu.data.mnist import EMBEDDED_SIZE, IDX_FEWEST, check_idx_dir

    data = config["jacot2022"]["data"]
    if data["mnist_source"] == "idx":
        if not data["mnist_idx_dir"]:
            return "config key jacot2022.data.mnist_idx_dir: needed when mnist_source is idx"
        problem = check_idx_dir(data["mnist_idx_dir"])
        if problem:
            return f"config key jacot2022.data.mnist_idx_dir: {problem}"
    for key, subset in mnist_subsets(config).items():
        digits, n_train, n_test = subset["digits"], subset["n_train"], subset["n_test"]
        train, test = -(-n_train // len(digits)), -(-n_test // len(digits))
        if data["mnist_source"] == "idx":
            if train > IDX_FEWEST["train"] or test > IDX_FEWEST["test"]:
                return (
                    f"config key {key}: n_train, n_test need {train}, {test} images of a digit; "
                    f"MNIST's training and test sets have at least {IDX_FEWEST['train']} and "
                    f"{IDX_FEWEST['test']}"
                )
        elif train + test > EMBEDDED_SIZE:
            return (
                f"config key {key}: n_train + n_test need {train + test} images of a digit, the "
                f"embedded set has {EMBEDDED_SIZE}"
            )
    return None


def chen2024_problem(chen: dict) -> str | None:
    """Cross-field checks the schema cannot express."""
    for k, (x0, x1, y0, y1) in enumerate(chen["fig3"]["boxes"]):
        if not (x0 < x1 and y0 < y1):
            return f"config key chen2024.fig3.boxes.{k}: needs x0 < x1 and y0 < y1"
    for m, q in chen["theory"]["dims"]:
        if q > m:
            return f"config key chen2024.theory.dims: [{m}, {q}] has Q > M (needs Q <= M classes)"
    return None


def jacot2022_problem(jacot: dict) -> str | None:
    """The Fig. 1 study reads its networks a second time at four fifths of each schedule's
    steps, at a progress line: fig1.log_every must divide that step."""
    every = jacot["fig1"]["log_every"]
    for i, schedule in enumerate(jacot["fig1_study"]["schedules"]):
        read_at = 4 * (schedule["steps"] // 5)
        if every == 0 or read_at % every:
            return (
                f"config key jacot2022.fig1_study.schedules[{i}].steps: four fifths of it "
                f"({read_at}) is not a multiple of jacot2022.fig1.log_every ({every}), where "
                "the study reads whether training had settled"
            )
    return None


def jacot2023_problem(jacot: dict) -> str | None:
    """Cross-field checks the schema cannot express."""
    task = jacot["task"]
    if task["true_rank"] > task["latent"]:
        return (
            f"config key jacot2023.task.true_rank: {task['true_rank']} is larger than the latent "
            f"dimension jacot2023.task.latent = {task['latent']} (h reads latent coordinates)"
        )
    rank_study = jacot["rank_study"]
    if rank_study["extra_depth"] <= max(rank_study["depths"]):
        return (
            "config key jacot2023.rank_study.extra_depth: must be larger than every depth of "
            "rank_study.depths (it extends the deepest one's selected setting)"
        )
    fig2 = jacot["fig2"]
    if fig2["shallow_depth"] >= fig2["deep_depth"]:
        return "config key jacot2023.fig2.deep_depth: must be larger than shallow_depth"
    if min(fig2["lams"]) != 0 or max(fig2["lams"]) <= 0:
        return (
            "config key jacot2023.fig2.lams: must hold 0 and a positive lambda (the figure and its "
            "rows compare networks trained with and without L2)"
        )
    study = jacot["fig2_study"]
    for depth in (fig2["shallow_depth"], fig2["deep_depth"]):
        if depth not in study["depths"]:
            return (
                f"config key jacot2023.fig2_study.depths: must hold Fig. 2's depth {depth} "
                "(the study's claims are about Fig. 2's two depths)"
            )
    names = [f["name"] for f in study["families"]]
    if len(set(names)) < len(names):
        return "config key jacot2023.fig2_study.families: two families have one name"
    for family in study["families"]:
        # the strokes are nearest where steepest: spacing / sqrt(1 + (pi amplitude)^2) apart
        gap = family["spacing"] / math.hypot(1.0, math.pi * family["amplitude"])
        if study["margin"] >= gap:
            return (
                f"config key jacot2023.fig2_study.margin: {study['margin']:g} is not below the "
                f"narrowest gap {gap:.3g} between the strokes of family {family['name']!r}, so "
                "no point where the S is steepest could be kept"
            )
    for data in ("curve", "mnist"):
        pair = jacot["fig3"][data]
        if pair["shallow"]["depth"] >= pair["deep"]["depth"]:
            return (
                f"config key jacot2023.fig3.{data}.deep.depth: must be larger than "
                f"{data}.shallow.depth"
            )
    curve, study = jacot["fig3"]["curve"], jacot["fig3_study"]["curve"]
    needed = {
        "Fig. 3's shallow depth": curve["shallow"]["depth"],
        "Fig. 3's deep depth": curve["deep"]["depth"],
        "deep_from": study["deep_from"],
    }
    for name, depth in needed.items():
        if depth not in study["depths"]:
            return (
                f"config key jacot2023.fig3_study.curve.depths: must hold {name} {depth} "
                "(the study sweeps the figure's depths and its rows start at deep_from)"
            )
    if study["deep_from"] <= curve["shallow"]["depth"]:
        return (
            "config key jacot2023.fig3_study.curve.deep_from: must be larger than Fig. 3's "
            "shallow depth"
        )
    return None


def unwritable(folders) -> str | None:
    """Whether each output folder can be written (the folder, or the nearest existing one above
    it, takes a probe file that is removed at once); nothing is left behind either way."""
    for folder in map(Path, folders):
        if folder.exists() and not folder.is_dir():
            return f"output folder {folder}/ cannot be made: a file of that name is in the way"
        existing = folder
        while not existing.exists():
            existing = existing.parent
        try:
            fd, probe = tempfile.mkstemp(dir=existing, prefix=".write-probe.")
        except OSError as error:
            return f"output folder {folder}/ is not writable ({error.strerror} in {existing}/)"
        os.close(fd)
        os.remove(probe)
    return None
