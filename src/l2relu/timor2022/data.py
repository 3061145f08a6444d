"""timor2022's data sets: Sec. 3.1's two points, and the data of Theorems 4-5, realized by a
depth-2 teacher."""

from dataclasses import dataclass

import numpy as np

from l2relu.training.seeding import rng_for


def two_points(x1, x2) -> tuple[np.ndarray, np.ndarray]:
    """Sec. 3.1's data set: X with the normalized inputs as columns, Y = (e1, e2)."""
    cols = [np.asarray(x, dtype=float) / np.linalg.norm(x) for x in (x1, x2)]
    return np.stack(cols, axis=1), np.eye(2)


@dataclass(frozen=True)
class TeacherConfig:
    theorem: int  # 4: square loss, targets >= 0 ; 5: logistic loss, labels +-1
    n_points: int  # size of the data set
    input_dim: int  # inputs on the unit sphere of R^input_dim
    width: int  # teacher width m (depth k = 2)
    seed: int  # data seed


def teacher(cfg: TeacherConfig):
    """Inputs x (d, n), targets (n,), and the balanced teacher weights [W1, W2].

    Theorem 4: W2 >= 0 so targets are >= 0, scaled so the largest target is 1 (the theorem
    needs some ||x_i|| <= 1 with y_i >= 1). Theorem 5: labels sign(N(x)), scaled so the
    smallest margin y_i N(x_i) is 1.
    """
    rng = rng_for("timor2022", "teacher", cfg.theorem, cfg.seed)
    x = rng.standard_normal((cfg.input_dim, 4 * cfg.n_points))
    x /= np.linalg.norm(x, axis=0, keepdims=True)
    w1 = rng.standard_normal((cfg.width, cfg.input_dim))
    w2 = rng.standard_normal((1, cfg.width))
    # keep the candidates the teacher labels most confidently: a tiny margin would make B huge
    # and the bounds vacuous
    out = (w2 @ np.maximum(w1 @ x, 0.0))[0]
    x = x[:, np.sort(np.argsort(-np.abs(out))[: cfg.n_points])]
    if cfg.theorem == 4:
        w2 = np.abs(w2)
        out = (w2 @ np.maximum(w1 @ x, 0.0))[0]
        w2 = w2 / out.max()
        target = (w2 @ np.maximum(w1 @ x, 0.0))[0]
    elif cfg.theorem == 5:
        out = (w2 @ np.maximum(w1 @ x, 0.0))[0]
        if len(np.unique(np.sign(out))) < 2:
            raise ValueError("teacher labels a single class; choose another data seed")
        w2 = w2 / np.abs(out).min()
        target = np.sign(out)
    else:
        raise ValueError(f"theorem must be 4 or 5, not {cfg.theorem}")
    scale = np.sqrt(np.linalg.norm(w2) / np.linalg.norm(w1))
    return x, target, [w1 * scale, w2 / scale]
