"""chen2024's ledger rows: the constructed networks against the paper's statements."""

import numpy as np
import pandas as pd

from l2relu import claims

TARGET = "chen2024_theory"
# What each construction states, with the architecture whose parameter count the paper gives.
STATEMENT = {
    "prop4.1": "Prop. 4.1, width M",
    "cor4.2": "Cor. 4.2, widths Q: Q(M + Q^2) weights",
    "thm5.2": "Thm 5.2, width M",
}


def theory_claims(networks: pd.DataFrame, float_zero: float) -> pd.DataFrame:
    """Per construction: on how many grid points (M, Q, N) it could not be built although the
    data meet its assumptions (the same architecture serves every N), and its largest cost."""
    rows = []
    for name, built in networks.groupby("construction", sort=False):
        rows.append(
            claims.at_most(
                TARGET,
                f"{STATEMENT[name]}: (M, Q, N) of {len(built)} where no network was built",
                "none: it exists for every N",
                int((~built.built.astype(bool)).sum()),
                0,
                fmt="{:d}",
            )
        )
        costs = built.cost[built.built.astype(bool)]
        rows.append(
            claims.at_most(
                TARGET,
                f"{STATEMENT[name]}: largest cost (14) through the training engine",
                "0 (a global minimum)",
                costs.max() if len(costs) else np.nan,
                float_zero,
                fmt="{:.1e}",
            )
        )
    return claims.table(rows)
