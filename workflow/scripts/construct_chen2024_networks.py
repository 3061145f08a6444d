"""Build chen2024's networks over the (M, Q, N) grid and measure them; write the ledger rows."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from l2relu.chen2024 import ledger, truncation  # noqa: E402
from l2relu.chen2024.theory import TheoryConfig, constructions, narrowing  # noqa: E402
from l2relu.ledger.claims import rows_from_registry  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.training.io import write_table  # noqa: E402

config = snakemake.params.config
cfg = TheoryConfig(
    **config | {"dims": tuple(map(tuple, config["dims"])), "per_class": tuple(config["per_class"])}
)
networks = constructions(cfg)
print(networks.to_string(), file=sys.stderr)
write_table(networks, snakemake.output.networks)
narrowed = narrowing(cfg)
print(narrowed.to_string(), file=sys.stderr)
write_table(narrowed, snakemake.output.narrowing)
prop32 = truncation.prop32_error(cfg.prop32_networks, cfg.seed)
registry = load_registry([snakemake.input.registry])
measurements = (
    ledger.theory_claims(networks)
    + ledger.prop32_claims(prop32, cfg.prop32_networks)
    + ledger.narrowing_claims(narrowed, registry[ledger.NARROWING_COST].every_reading)
    + ledger.abstract_count_claims(networks, registry[ledger.ABSTRACT_COUNT].every_reading)
)
rows = rows_from_registry(snakemake.input.registry, measurements)
write_table(rows, snakemake.output.claims)
