"""The rank study's extra depth trains in one setting, picked by a rule declared before any run:
of the deepest swept depth's settings whose networks all fit, the one whose median ||W||^2/L is
nearest the paper's (in ratio); the nearest of all if none fits."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.jacot2023.rank_study import deepest_setting  # noqa: E402
from l2relu.training.io import atomic_path  # noqa: E402

runs = pd.concat([pd.read_csv(path) for path in snakemake.input.runs], ignore_index=True)
runs["fits"] = (runs.loss / runs.output_variance <= snakemake.params.fit_bar) & ~runs.diverged
setting = deepest_setting(runs, snakemake.params.paper_norm)
print(runs.to_string(), file=sys.stderr)
print(f"selected: {setting}", file=sys.stderr)
with atomic_path(snakemake.output.setting) as tmp:
    tmp.write_text(json.dumps(setting, indent=1) + "\n")
