"""The YAML reader: libyaml's parser where PyYAML has it, with the values yaml.safe_load gives."""

import subprocess

import pytest
import yaml
from conftest import REPO

from l2relu import yamlfile

YAML_FILES = subprocess.run(
    ["git", "ls-files", "*.yaml", "*.yml"], cwd=REPO, capture_output=True, text=True, check=True
).stdout.split()


def test_the_reader_takes_libyaml_where_pyyaml_has_it():
    assert yaml.__with_libyaml__  # PyYAML's wheels are built with it
    assert yamlfile.LOADER is yaml.CSafeLoader


@pytest.mark.parametrize("name", YAML_FILES)
def test_every_yaml_file_reads_as_yaml_safe_load_reads_it(name):
    text = (REPO / name).read_text()
    assert yamlfile.load(REPO / name) == yaml.safe_load(text)


def test_the_comparison_tells_another_reading_apart():
    # the base loader reads every scalar as a string: the same comparison sees it
    text = (REPO / "config/config.yaml").read_text()
    assert yaml.load(text, Loader=yaml.BaseLoader) != yaml.safe_load(text)
