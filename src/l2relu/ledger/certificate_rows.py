"""The measurements of a target's certificate check: how far each polished network's objective
still fell over its polish's second half (l2relu.training.stationarity reads the certificate),
one measurement per group of networks. A ledger builder's, kept out of
l2relu.training.stationarity, which the polish itself imports."""

import pandas as pd

from l2relu.ledger.claims import measured
from l2relu.training import stationarity


def settled_fall_measurements(claim_id, certificates: pd.DataFrame, by, order: list, case) -> list:
    """A certificate check's measurements: one per group `by` of a certificate's polished
    networks (in `order`), their falls over the polish's second half (a stall infinite), the
    case `case(key, group)`."""
    polished = certificates[certificates.network == "polished"]
    polished = polished.assign(fall=stationarity.settled_falls(polished))
    ms = []
    for key, group in polished.groupby(by, sort=False):
        group = group.sort_values(order)
        detail = stationarity.grad_norms_text(group)
        ms.append(measured(claim_id, list(group.fall), case(key, group), detail=detail))
    return ms
