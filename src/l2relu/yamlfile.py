"""YAML read with libyaml's parser where PyYAML was built with it (its wheels are), else with
the pure-Python one: the same safe constructor either way, so the same values. The claims
registry is about 660 kB, which the pure-Python parser takes about a second to read, and
every start of the workflow and every job that writes ledger rows reads it."""

from pathlib import Path

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def loads(text: str):
    """yaml.safe_load's value of `text`."""
    return yaml.load(text, Loader=LOADER)


def load(path):
    """yaml.safe_load's value of the file at `path`."""
    return loads(Path(path).read_text())
