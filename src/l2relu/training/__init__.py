"""Training and what it leaves: the stacked-tensor PyTorch engine, the compiled 2x2x2 loop,
L-BFGS polishing to a stationary point and its certificate, weight measures, seeding and
atomic, resumable I/O. Every paper's training runs through these."""
