"""Full-batch gradient descent for many 2x2x2 ReLU networks N(x) = V relu(W x), compiled.

timor2022's Section 3.1 runs 288 networks for 3e6 steps each. At that size the cost is all
per-step overhead, so the whole loop is compiled (numba) with the 2x2 matrices in registers and
hand-written gradients; tests/test_twolayer.py checks them against autograd.
"""

import sys
import time

import numba
import numpy as np


@numba.njit(parallel=True, cache=True)
def _gd_steps(w, v, x, y, lr, steps, loss_scale, done, diverged_step):  # pragma: no cover
    """In place: `steps` GD steps on loss_scale * ||V relu(W X) - Y||_F^2 for every network.

    w, v: (R, 2, 2); x, y: (2, 2) with the data points as columns. relu'(0) = 0, as in the paper.
    A network whose residual becomes NaN or infinite stops there: diverged_step[r] (-1 until
    then) records the steps it had taken, counted from `done` steps before this call.
    """
    g = 2.0 * loss_scale
    x00, x01, x10, x11 = x[0, 0], x[0, 1], x[1, 0], x[1, 1]
    y00, y01, y10, y11 = y[0, 0], y[0, 1], y[1, 0], y[1, 1]
    for r in numba.prange(w.shape[0]):
        if diverged_step[r] >= 0:
            continue
        w00, w01, w10, w11 = w[r, 0, 0], w[r, 0, 1], w[r, 1, 0], w[r, 1, 1]
        v00, v01, v10, v11 = v[r, 0, 0], v[r, 0, 1], v[r, 1, 0], v[r, 1, 1]
        for k in range(steps):
            h00 = w00 * x00 + w01 * x10
            h01 = w00 * x01 + w01 * x11
            h10 = w10 * x00 + w11 * x10
            h11 = w10 * x01 + w11 * x11
            a00 = h00 if h00 > 0.0 else 0.0
            a01 = h01 if h01 > 0.0 else 0.0
            a10 = h10 if h10 > 0.0 else 0.0
            a11 = h11 if h11 > 0.0 else 0.0
            # dLoss/dOut
            r00 = g * (v00 * a00 + v01 * a10 - y00)
            r01 = g * (v00 * a01 + v01 * a11 - y01)
            r10 = g * (v10 * a00 + v11 * a10 - y10)
            r11 = g * (v10 * a01 + v11 * a11 - y11)
            total = r00 + r01 + r10 + r11
            if total - total != 0.0:  # NaN or infinite
                diverged_step[r] = done + k
                break
            # dV = R A^T ; dA = V^T R masked by relu'(H) ; dW = dH X^T
            dv00 = r00 * a00 + r01 * a01
            dv01 = r00 * a10 + r01 * a11
            dv10 = r10 * a00 + r11 * a01
            dv11 = r10 * a10 + r11 * a11
            dh00 = v00 * r00 + v10 * r10 if h00 > 0.0 else 0.0
            dh01 = v00 * r01 + v10 * r11 if h01 > 0.0 else 0.0
            dh10 = v01 * r00 + v11 * r10 if h10 > 0.0 else 0.0
            dh11 = v01 * r01 + v11 * r11 if h11 > 0.0 else 0.0
            w00 -= lr * (dh00 * x00 + dh01 * x01)
            w01 -= lr * (dh00 * x10 + dh01 * x11)
            w10 -= lr * (dh10 * x00 + dh11 * x01)
            w11 -= lr * (dh10 * x10 + dh11 * x11)
            v00 -= lr * dv00
            v01 -= lr * dv01
            v10 -= lr * dv10
            v11 -= lr * dv11
        w[r, 0, 0], w[r, 0, 1], w[r, 1, 0], w[r, 1, 1] = w00, w01, w10, w11
        v[r, 0, 0], v[r, 0, 1], v[r, 1, 0], v[r, 1, 1] = v00, v01, v10, v11


def loss(w, v, x, y, loss_scale: float) -> np.ndarray:
    """(R,) loss_scale * ||V relu(W X) - Y||_F^2."""
    with np.errstate(over="ignore", invalid="ignore"):  # a diverged network's loss is inf/NaN
        out = v @ np.maximum(w @ x, 0.0)
        return loss_scale * ((out - y) ** 2).sum(axis=(-2, -1))


def train(w, v, x, y, *, lr, steps, loss_scale, log_every=0, threads=None, log=None):
    """Run GD in place on stacked (R, 2, 2) float64 arrays. Returns the final losses and, per
    network, the steps taken when its loss became NaN or infinite (-1 if never; it stopped there).

    Steps run in chunks of `log_every` so that long jobs print progress between chunks.
    """
    if w.dtype != np.float64 or v.dtype != np.float64:
        raise TypeError("the compiled kernel works in float64")
    if threads:
        numba.set_num_threads(min(int(threads), numba.config.NUMBA_NUM_THREADS))
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    x, y = np.ascontiguousarray(x, dtype=float), np.ascontiguousarray(y, dtype=float)
    chunk = log_every or steps
    done = 0
    diverged_step = np.full(w.shape[0], -1, dtype=np.int64)
    start = time.perf_counter()
    while done < steps and not (diverged_step >= 0).all():
        n = min(chunk, steps - done)
        _gd_steps(w, v, x, y, lr, n, loss_scale, done, diverged_step)
        done += n
        if log_every:
            cur = loss(w, v, x, y, loss_scale)
            finite = cur[np.isfinite(cur)]
            log(
                f"[gd step {done}/{steps}] loss median "
                f"{np.median(finite) if len(finite) else np.nan:.3e} "
                f"below 1e-4: {int((finite < 1e-4).sum())}/{len(cur)} "
                f"non-finite {len(cur) - len(finite)} elapsed {time.perf_counter() - start:.3f}s"
            )
    final = loss(w, v, x, y, loss_scale)
    # a loss that overflows only in the final evaluation counts as diverged at the end
    diverged_step[(diverged_step < 0) & ~np.isfinite(final)] = done
    return final, diverged_step
