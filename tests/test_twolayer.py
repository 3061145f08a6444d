"""The compiled 2x2 kernel's hand-written gradients against autograd."""

import numpy as np
import pytest
import torch

from l2relu.training import twolayer


def autograd_step(w, v, x, y, lr, scale):
    wt = torch.tensor(w, requires_grad=True)
    vt = torch.tensor(v, requires_grad=True)
    loss = scale * ((vt @ torch.relu(wt @ torch.tensor(x)) - torch.tensor(y)) ** 2).sum()
    gw, gv = torch.autograd.grad(loss, (wt, vt))
    return w - lr * gw.numpy(), v - lr * gv.numpy()


@pytest.mark.parametrize("scale", [0.5, 0.25])
def test_one_kernel_step_matches_autograd(scale):
    rng = np.random.default_rng(0)
    w = rng.standard_normal((64, 2, 2))
    v = rng.standard_normal((64, 2, 2))
    x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    expected = [autograd_step(w[r], v[r], x, y, 1e-2, scale) for r in range(len(w))]
    w_k, v_k = w.copy(), v.copy()
    twolayer.train(w_k, v_k, x, y, lr=1e-2, steps=1, loss_scale=scale)
    np.testing.assert_allclose(w_k, np.stack([e[0] for e in expected]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(v_k, np.stack([e[1] for e in expected]), rtol=1e-12, atol=1e-14)
    # the random draws cover neurons active on both, one and none of the inputs
    active = (w @ x > 0).sum(axis=(1, 2))
    assert {0, 2, 4} & set(active.tolist())


def test_many_steps_match_autograd_and_decrease_the_loss():
    rng = np.random.default_rng(1)
    w, v = rng.standard_normal((3, 2, 2)), rng.standard_normal((3, 2, 2))
    x, y = rng.standard_normal((2, 2)), np.eye(2)
    w_k, v_k = w.copy(), v.copy()
    final, diverged_step = twolayer.train(w_k, v_k, x, y, lr=1e-2, steps=200, loss_scale=0.5)
    assert (diverged_step == -1).all()
    for r in range(3):
        wr, vr = w[r], v[r]
        for _ in range(200):
            wr, vr = autograd_step(wr, vr, x, y, 1e-2, 0.5)
        np.testing.assert_allclose(w_k[r], wr, rtol=1e-9, atol=1e-12)
    initial = twolayer.loss(w, v, x, y, 0.5)
    assert (final <= initial).all() and (final < initial).any()


def test_chunked_logging_gives_the_same_result():
    rng = np.random.default_rng(2)
    w, v = rng.standard_normal((4, 2, 2)), rng.standard_normal((4, 2, 2))
    x, y = rng.standard_normal((2, 2)), np.eye(2)
    lines = []
    a = twolayer.train(w.copy(), v.copy(), x, y, lr=1e-3, steps=1000, loss_scale=0.5)
    b = twolayer.train(
        w.copy(),
        v.copy(),
        x,
        y,
        lr=1e-3,
        steps=1000,
        loss_scale=0.5,
        log_every=300,
        log=lines.append,
    )
    np.testing.assert_array_equal(a[0], b[0])
    assert len(lines) == 4 and lines[-1].startswith("[gd step 1000/1000]")


def test_float32_is_refused():
    w = np.zeros((1, 2, 2), dtype=np.float32)
    with pytest.raises(TypeError):
        twolayer.train(w, w.copy(), np.eye(2), np.eye(2), lr=1e-3, steps=1, loss_scale=0.5)


def test_a_diverging_network_stops_and_records_its_step_the_others_carry_on():
    rng = np.random.default_rng(3)
    w, v = rng.standard_normal((3, 2, 2)), rng.standard_normal((3, 2, 2))
    w[1], v[1] = 1e160, 1e160  # its output overflows at once
    x, y = np.eye(2), np.eye(2)
    alone = twolayer.train(
        w[[0, 2]].copy(), v[[0, 2]].copy(), x, y, lr=0.1, steps=500, loss_scale=0.5
    )
    w_k, v_k = w.copy(), v.copy()
    final, diverged_step = twolayer.train(w_k, v_k, x, y, lr=0.1, steps=500, loss_scale=0.5)
    assert diverged_step[[0, 2]].tolist() == [-1, -1]
    assert diverged_step[1] == 0 and not np.isfinite(final[1])
    np.testing.assert_array_equal(final[[0, 2]], alone[0])
    # every network diverged: the loop ends at the last one's step, not after 10^6 steps
    w_all = w[[1]].copy()
    _, step = twolayer.train(
        w_all, v[[1]].copy(), x, y, lr=0.1, steps=10**9, loss_scale=0.5, log_every=50
    )
    assert step[0] == diverged_step[1]
