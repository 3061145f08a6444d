"""Seeds derived from what a run *is*, so that a run's randomness never depends on the order,
batching or machine it was computed in."""

import hashlib

import numpy as np


def derive_seed(*parts) -> int:
    """A 63-bit seed from a description of the run, e.g. ("timor2022", "fig1", "paper_text", 17)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def rng_for(*parts) -> np.random.Generator:
    """A numpy generator seeded from a run description (see `derive_seed`)."""
    return np.random.default_rng(derive_seed(*parts))
