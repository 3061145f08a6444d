"""MNIST input: the embedded digits, the IDX reader and its checks, the seeded subsets."""

import gzip

import numpy as np
import pytest

from l2relu.data import mnist


def test_embedded_digits_are_real_mnist():
    x, y = mnist.load_embedded()
    assert x.shape == (5000, 784) and 0 <= x.min() and x.max() <= 1
    assert np.bincount(y).tolist() == [500] * 10


def test_subsets_are_balanced_disjoint_and_seeded():
    a = mnist.subsets("embedded", None, [7, 8, 9], 42, 30, seed=0)
    b = mnist.subsets("embedded", None, [7, 8, 9], 42, 30, seed=0)
    c = mnist.subsets("embedded", None, [7, 8, 9], 42, 30, seed=1)
    assert np.bincount(a["y_train"])[7:].tolist() == [14, 14, 14]
    np.testing.assert_array_equal(a["x_train"], b["x_train"])
    assert not np.array_equal(a["x_train"], c["x_train"])
    train = {row.tobytes() for row in a["x_train"]}
    assert not train & {row.tobytes() for row in a["x_test"]}


def test_asking_for_more_digits_than_exist_is_refused():
    with pytest.raises(ValueError, match="digit"):
        mnist.subsets("embedded", None, [3], 400, 200, seed=0)


def test_idx_files_are_read_and_checked(tmp_path):
    images = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    header = bytes([0, 0, 8, 3]) + b"".join(d.to_bytes(4, "big") for d in images.shape)
    with gzip.open(tmp_path / "train-images-idx3-ubyte.gz", "wb") as f:
        f.write(header + images.tobytes())
    np.testing.assert_array_equal(mnist.read_idx(tmp_path / "train-images-idx3-ubyte.gz"), images)
    problem = mnist.check_idx_dir(tmp_path)
    assert "corrupt" in problem and "train-images" in problem
    assert "missing" in mnist.check_idx_dir(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError):
        mnist.load_idx(tmp_path)
