"""The YAML reader: libyaml's parser where PyYAML has it, with the values yaml.safe_load gives."""

import pytest
import yaml
from conftest import REPO

from l2relu import yamlfile

# the repository's own YAML: config, claims registry, schema, resources, references, profiles
YAML_FILES = sorted(
    str(p.relative_to(REPO))
    for folder in ("config", "workflow", "reference", "profiles")
    for p in (REPO / folder).rglob("*.y*ml")
) + ["environment.yml"]


def test_the_reader_takes_libyaml_where_pyyaml_has_it():
    assert yamlfile.LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.parametrize("name", YAML_FILES)
def test_every_yaml_file_reads_as_yaml_safe_load_reads_it(name):
    # repr: the same types (1 is not 1.0 is not True) and the same order of keys
    text = (REPO / name).read_text()
    assert repr(yamlfile.load(REPO / name)) == repr(yaml.safe_load(text))


def test_the_comparison_tells_another_reading_apart():
    # the base loader reads every scalar as a string
    text = (REPO / "config/config.yaml").read_text()
    assert repr(yaml.load(text, Loader=yaml.BaseLoader)) != repr(yaml.safe_load(text))
    assert len(YAML_FILES) >= 15
