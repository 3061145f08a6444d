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
