"""What a polish's certificate says (l2relu.training.polish writes it): read by the ledger
builders, so free of PyTorch."""

import math

import numpy as np
import pandas as pd

# A polish that did not move the objective at all over its second half while the data's pull and
# the weight decay still do not cancel stopped where no direction it tried descends: at a kink,
# where the one-sided gradient need not descend. That says nothing of a minimum (timor2022's
# networks stop so with their layers 3% out of balance, which a rescaling would lower).
STALL_RESIDUAL = 1e-3


def stalled(falls, force_residuals) -> np.ndarray:
    """Per network: the objective did not fall over the polish's second half (0) while its force
    residual is above STALL_RESIDUAL."""
    return (np.asarray(falls) == 0) & (np.asarray(force_residuals) > STALL_RESIDUAL)


def settled_falls(certificate: pd.DataFrame) -> list[float]:
    """Per polished network of a certificate: its fall over the polish's second half, or
    infinity where the polish stalled (no certificate can read a stall as settled)."""
    return [
        math.inf if s else float(f)
        for f, s in zip(certificate.fall_last_half, certificate.stalled, strict=True)
    ]


def seeds_certified(certificate: pd.DataFrame, bar: float) -> tuple[list[bool], list[float], str]:
    """The polished networks of a certificate with one network a seed, in seed order: whether
    each is certified (its settled fall at most `bar`), the falls, and their |grad J| as text."""
    polished = certificate[certificate.network == "polished"].sort_values("seed")
    falls = settled_falls(polished)
    return [bool(f <= bar) for f in falls], falls, grad_norms_text(polished)


def grad_norms_text(certificate: pd.DataFrame) -> str:
    """A certificate's |grad J|, network by network, as a ledger row's detail."""
    return "|grad J| " + ", ".join(f"{g:.2g}" for g in certificate.grad_norm)
