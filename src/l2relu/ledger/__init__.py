"""The ledger: the claims registry (registry), the rows a target's builder measures and writes
(claims, certificate_rows), the verdict read from them (verdict), reference ledgers
(reference), the coverage index (coverage) and the parts of the docs written from them (docs:
README's verdict, docs/ledger.md's coverage table). Free of PyTorch."""
