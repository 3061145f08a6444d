"""jacot2023: Jacot, "Implicit bias of large depth networks: a notion of rank for nonlinear
functions" (ICLR 2023)."""
