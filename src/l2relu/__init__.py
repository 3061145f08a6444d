"""l2relu: replication pipeline for papers on L2 regularization, depth and rank in ReLU networks.

Importing the package is cheap (no torch, no numba): Snakemake imports it at parse time.
"""

__version__ = "0.1.0"
