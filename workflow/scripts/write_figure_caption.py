"""A figure's caption in the report: its description, then its ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

from l2relu.ledger import verdict  # noqa: E402
from l2relu.training.io import atomic_path  # noqa: E402

rows = verdict.read_rows(snakemake.input.rows)
with atomic_path(snakemake.output[0]) as tmp:
    tmp.write_text(verdict.caption_rst(Path(snakemake.input.description).read_text(), rows))
