"""One-line explanations of config errors (imported at workflow parse time: keep it light)."""

import jsonschema


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


def mnist_problem(jacot: dict) -> str | None:
    """Whether the MNIST subsets the config asks for can be drawn from the chosen source."""
    from l2relu.data.mnist import EMBEDDED_SIZE, check_idx_dir

    data = jacot["data"]
    if data["mnist_source"] == "idx":
        if not data["mnist_idx_dir"]:
            return "config key jacot2022.data.mnist_idx_dir: needed when mnist_source is idx"
        problem = check_idx_dir(data["mnist_idx_dir"])
        return f"config key jacot2022.data.mnist_idx_dir: {problem}" if problem else None
    panel = jacot["fig2"]["mnist"]
    per_digit = -(-panel["n_train"] // 10) + -(-panel["n_test"] // 10)
    if per_digit > EMBEDDED_SIZE:
        return (
            f"config key jacot2022.fig2.mnist: n_train + n_test need {per_digit} images of a "
            f"digit, the embedded set has {EMBEDDED_SIZE}"
        )
    return None
