"""Data sets for chen2024: clustered classes (Prop. 4.1) and a planar sequentially separable set
that is not clustered (Fig. 3)."""

import numpy as np

from l2relu.training.seeding import rng_for


def clustered(m: int, q: int, per_class: int, spread: float, seed: int):
    """Q classes of `per_class` points in R^M. The class centers are the vertices e_j + 0.2 u
    of a regular simplex lifted off the origin (so they are linearly independent), scaled by 3
    and turned by a random rotation; each class fills a ball around its center whose radius is
    `spread` times the centers' smallest distance to their barycenter (so (55) asks
    spread < 1/4). Returns (X (M, N), labels (N,))."""
    if not q <= m:
        raise ValueError(f"Q = {q} classes need M >= Q dimensions, got M = {m}")
    rng = rng_for("chen2024", "clustered", m, q, per_class, spread, seed)
    rotation, _ = np.linalg.qr(rng.standard_normal((m, m)))
    centers = rotation @ (3 * (np.eye(m)[:, :q] + 0.2))
    gap = np.linalg.norm(centers - centers.mean(axis=1, keepdims=True), axis=0).min()
    labels = np.repeat(np.arange(q), per_class)
    direction = rng.standard_normal((m, len(labels)))
    direction /= np.linalg.norm(direction, axis=0)
    radius = spread * gap * rng.uniform(size=len(labels)) ** (1 / m)  # uniform in the ball
    return centers[:, labels] + radius * direction, labels


def planar_boxes(boxes, per_class: int, seed: int):
    """One class per box [x0, x1, y0, y1] of the plane, `per_class` points uniform in it, lifted
    to the plane z = 1 of R^3 (so that means off one line are linearly independent, as the
    construction needs). Returns (X (3, N), labels (N,))."""
    rng = rng_for("chen2024", "boxes", tuple(map(tuple, boxes)), per_class, seed)
    x = [
        np.vstack([rng.uniform(x0, x1, per_class), rng.uniform(y0, y1, per_class)])
        for x0, x1, y0, y1 in boxes
    ]
    x = np.hstack(x)
    return np.vstack([x, np.ones(x.shape[1])]), np.repeat(np.arange(len(boxes)), per_class)
