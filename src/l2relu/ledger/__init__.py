"""The ledger: the claims registry (registry), the rows a target's builder measures and writes
(claims), the verdict read from them (verdict), reference ledgers (reference), the coverage
index (coverage) and the README's verdict (readme). Free of PyTorch."""
