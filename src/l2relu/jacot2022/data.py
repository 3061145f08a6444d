"""jacot2022's data sets other than MNIST (l2relu.data.mnist): Fig. 2's teacher network's
outputs, and the complete bipartite graph whose incidence gives Sec. 4.2's outputs B_N."""

import numpy as np

from l2relu.training.seeding import rng_for


def teacher_data(n: int, n_test: int, widths, seed: int) -> dict:
    """Gaussian inputs and the outputs of a fixed ReLU teacher of the given widths (input first)
    with Gaussian He-scaled weights and no bias."""
    rng = rng_for("jacot2022", "teacher", tuple(widths), seed)
    weights = [
        rng.standard_normal((o, i)) * np.sqrt(2 / i)
        for i, o in zip(widths[:-1], widths[1:], strict=True)
    ]

    def teacher(x):
        for w in weights[:-1]:
            x = np.maximum(w @ x, 0.0)
        return weights[-1] @ x

    x, x_test = rng.standard_normal((widths[0], n)), rng.standard_normal((widths[0], n_test))
    return {
        "x_train": x.T,
        "y_train": teacher(x).T,
        "x_test": x_test.T,
        "y_test": teacher(x_test).T,
    }


def bipartite_incidence(n: int) -> np.ndarray:
    """Edge-vertex matrix E (k x N) of the complete bipartite graph on two halves of N vertices."""
    if n % 2:
        raise ValueError("the complete bipartite construction needs an even N")
    half = n // 2
    rows = []
    for a in range(half):
        for b in range(half, n):
            edge = np.zeros(n)
            edge[[a, b]] = 1.0
            rows.append(edge)
    return np.array(rows)
