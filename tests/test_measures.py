import numpy as np
import pytest

from l2relu.training import measures


def test_stable_rank_of_known_matrices():
    assert measures.stable_rank(np.eye(2)) == pytest.approx(2.0)
    assert measures.stable_rank(np.outer([1.0, 2.0], [3.0, -1.0])) == pytest.approx(1.0)
    assert measures.stable_rank(np.diag([3.0, 1.0])) == pytest.approx(10 / 9)
    # invariant to scale, works on stacks
    stack = np.stack([np.eye(3), 5 * np.diag([1.0, 1.0, 0.0])])
    np.testing.assert_allclose(measures.stable_rank(stack), [3.0, 2.0])


def test_spectral_frobenius_ratio_is_one_only_for_rank_one():
    assert measures.spectral_frobenius_ratio(np.outer([1, 2, 3], [1, 0])) == pytest.approx(1.0)
    assert measures.spectral_frobenius_ratio(np.eye(4)) == pytest.approx(0.5)


def test_numerical_rank_and_angle():
    assert measures.numerical_rank(np.array([[1.0, 2.0], [2.0, 4.0]])) == 1
    assert measures.numerical_rank(np.eye(3)) == 3
    assert measures.angle([1.0, 0.0], [0.0, 2.0]) == pytest.approx(np.pi / 2)
    assert measures.angle([1.0, 0.0], [-3.0, 0.0]) == pytest.approx(np.pi)
