"""One-line explanations of config errors (imported at workflow parse time: keep it light). The
experiments' own cross-field checks are declared with them (l2relu.startup.experiments)."""

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


def mnist_problem(config: dict) -> str | None:
    """Whether the MNIST subsets the config asks for can be drawn from the chosen source."""
    from l2relu.data.mnist import EMBEDDED_SIZE, IDX_FEWEST, check_idx_dir
    from l2relu.startup.experiments import mnist_subsets

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
