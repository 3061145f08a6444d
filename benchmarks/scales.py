"""The merged config of each scale, as the workflow loads it, for the benchmarks. The jobs of a
scale at their real shapes are the experiments' (l2relu.startup.experiments.training_jobs)."""

from pathlib import Path

import yaml

from l2relu.startup.configcheck import overlay

REPO = Path(__file__).resolve().parents[1]


def scale_config(scale: str) -> dict:
    """The merged config of a scale: config.yaml, then config/<scale>.yaml over it."""
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    if scale != "default":
        config = overlay(config, yaml.safe_load((REPO / f"config/{scale}.yaml").read_text()))
    return config
