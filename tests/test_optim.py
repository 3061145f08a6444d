"""l2relu.training.optim: torch.optim's Adam and L-BFGS to the bit, without torch._dynamo."""

import io
import subprocess
import sys

import pytest
import torch

from l2relu.training import engine, optim


def _problem(dtype, seeds=(1, 2, 3)):
    """Small regression networks and their data (a nonconvex objective with kinks)."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(4, 30, generator=gen, dtype=dtype)
    y = torch.randn(2, 30, generator=gen, dtype=dtype)
    model = engine.BatchedMLP(engine.NetworkConfig((4, 12, 12, 2), bias=True), seeds, "cpu", dtype)
    return model, x, y


def _copy(model):
    return engine.BatchedMLP.from_weights(
        [w.detach().clone() for w in model.weights],
        [b.detach().clone() for b in model.biases],
        bias=True,
    )


def _closure(model, x, y, lam=0.01):
    def closure():
        for p in model.parameters():
            p.grad = None
        layers = model.layers()
        data = engine.network_losses(model.forward(x, layers), y, "mse")
        total = (data + lam * model.squared_norm(layers)).sum()
        total.backward()
        return total

    return closure


def _same(a, b) -> bool:
    """The parameters of two models equal bit for bit."""
    ints = {torch.float64: torch.int64, torch.float32: torch.int32}
    return all(
        torch.equal(p.detach().view(ints[p.dtype]), q.detach().view(ints[q.dtype]))
        for p, q in zip(a.parameters(), b.parameters(), strict=True)
    )


def _through_file(state: dict) -> dict:
    """A state_dict as a checkpoint gives it back."""
    buffer = io.BytesIO()
    torch.save(state, buffer)
    buffer.seek(0)
    return torch.load(buffer, weights_only=False)


def _adam_steps(model, opt, x, y, steps):
    closure = _closure(model, x, y)
    for _ in range(steps):
        closure()
        opt.step()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_adam_steps_as_torch_optim_adam_does_and_resumes_from_its_state(dtype):
    ours, x, y = _problem(dtype)
    theirs, textbook = _copy(ours), _copy(ours)
    ours_opt = optim.Adam(ours.parameters(), lr=1e-2)
    theirs_opt = torch.optim.Adam(theirs.parameters(), lr=1e-2)
    _adam_steps(ours, ours_opt, x, y, 40)
    _adam_steps(theirs, theirs_opt, x, y, 40)
    assert _same(ours, theirs)
    # the comparison resolves a last-bit difference: Adam as textbooks write it differs
    m = [torch.zeros_like(p) for p in textbook.parameters()]
    v = [torch.zeros_like(p) for p in textbook.parameters()]
    closure = _closure(textbook, x, y)
    for t in range(1, 41):
        closure()
        with torch.no_grad():
            for p, m_i, v_i in zip(textbook.parameters(), m, v, strict=True):
                m_i.mul_(0.9).add_(0.1 * p.grad)
                v_i.mul_(0.999).add_(0.001 * p.grad**2)
                p -= 1e-2 * (m_i / (1 - 0.9**t)) / ((v_i / (1 - 0.999**t)).sqrt() + 1e-8)
    assert not _same(textbook, theirs)

    # a state saved by either resumes in the other, and all four runs go on to the same bits
    crossed = [(_copy(ours), torch.optim.Adam), (_copy(theirs), optim.Adam)]
    runs = [(ours, ours_opt), (theirs, theirs_opt)]
    for (model, kind), saved in zip(crossed, (ours_opt, theirs_opt), strict=True):
        opt = kind(model.parameters(), lr=1e-2)
        opt.load_state_dict(_through_file(saved.state_dict()))
        runs.append((model, opt))
    for model, opt in runs:
        _adam_steps(model, opt, x, y, 25)
    assert all(_same(model, ours) for model, _ in runs[1:])


LBFGS = dict(max_iter=10, max_eval=100, tolerance_grad=0.0, tolerance_change=0.0, history_size=5)


def _lbfgs_chunk(opt, model, x, y, chunk):
    if isinstance(opt, optim.LBFGS):
        opt.max_iter, opt.max_eval = chunk, 10 * chunk
    else:
        opt.param_groups[0]["max_iter"], opt.param_groups[0]["max_eval"] = chunk, 10 * chunk
    return float(opt.step(_closure(model, x, y)).detach())


def test_lbfgs_steps_as_torch_optim_lbfgs_does_and_resumes_from_its_state():
    ours, x, y = _problem(torch.float64, seeds=(4,))
    theirs, shorter = _copy(ours), _copy(ours)
    ours_opt = optim.LBFGS(ours.parameters(), **LBFGS)
    theirs_opt = torch.optim.LBFGS(theirs.parameters(), line_search_fn="strong_wolfe", **LBFGS)
    shorter_opt = optim.LBFGS(shorter.parameters(), **LBFGS | {"history_size": 4})
    # chunks of several sizes (more iterations than the memory holds), the memory cleared once
    for chunk in (10, 7, 10, 3, 10):
        loss = _lbfgs_chunk(ours_opt, ours, x, y, chunk)
        assert loss == _lbfgs_chunk(theirs_opt, theirs, x, y, chunk) and _same(ours, theirs)
        _lbfgs_chunk(shorter_opt, shorter, x, y, chunk)
        if chunk == 3:
            ours_opt.state.clear(), theirs_opt.state.clear(), shorter_opt.state.clear()
    (their_state,) = theirs_opt.state.values()
    assert (ours_opt.state["func_evals"], ours_opt.state["n_iter"]) == (
        their_state["func_evals"],
        their_state["n_iter"],
    )
    assert not _same(shorter, theirs)  # a memory one step shorter moves the last bits

    crossed = [(_copy(ours), "theirs"), (_copy(theirs), "ours")]
    runs = [(ours, ours_opt), (theirs, theirs_opt)]
    for (model, kind), saved in zip(crossed, (ours_opt, theirs_opt), strict=True):
        if kind == "ours":
            opt = optim.LBFGS(model.parameters(), **LBFGS)
        else:
            opt = torch.optim.LBFGS(model.parameters(), line_search_fn="strong_wolfe", **LBFGS)
        opt.load_state_dict(_through_file(saved.state_dict()))
        runs.append((model, opt))
    for model, opt in runs:
        _lbfgs_chunk(opt, model, x, y, 10)
    assert all(_same(model, ours) for model, _ in runs[1:])


@pytest.mark.parametrize(
    "settings, ends",
    [
        # PyTorch's default tolerances: steps that stop short of max_iter on them
        (dict(max_iter=20, tolerance_grad=1e-7, tolerance_change=1e-9), "short"),
        # a gradient tolerance the networks reach: steps that return after one evaluation
        (dict(max_iter=20, tolerance_grad=0.1, tolerance_change=0.0), "at once"),
        # an evaluation budget that ends iterations before max_iter does
        (dict(max_iter=10, max_eval=12, tolerance_grad=0.0, tolerance_change=0.0), "short"),
    ],
)
def test_lbfgs_ends_its_steps_where_torch_optim_lbfgs_does(settings, ends):
    ours, x, y = _problem(torch.float64, seeds=(5,))
    theirs = _copy(ours)
    ours_opt = optim.LBFGS(ours.parameters(), **settings, history_size=10)
    theirs_opt = torch.optim.LBFGS(
        theirs.parameters(), line_search_fn="strong_wolfe", **settings, history_size=10
    )
    (theirs_param,) = theirs.parameters()[:1]
    seen, before = [], (0, 0)
    for _ in range(30):
        loss = float(ours_opt.step(_closure(ours, x, y)).detach())
        assert loss == float(theirs_opt.step(_closure(theirs, x, y)).detach())
        assert _same(ours, theirs)
        their_state = theirs_opt.state[theirs_param]
        counts = (ours_opt.state["func_evals"], ours_opt.state["n_iter"])
        assert counts == (their_state["func_evals"], their_state["n_iter"])
        seen.append((counts[0] - before[0], counts[1] - before[1]))
        before = counts
    if ends == "at once":
        assert any(evals == 1 for evals, _ in seen)
    else:
        assert any(evals > 1 and 0 < iters < settings["max_iter"] for evals, iters in seen)


_TRAIN_AND_POLISH = """
import sys
import torch
from l2relu.training import engine, polish
x, y = torch.randn(3, 20, dtype=torch.float64), torch.randn(1, 20, dtype=torch.float64)
model = engine.BatchedMLP(engine.NetworkConfig((3, 8, 1), bias=True), (1,), "cpu", torch.float64)
config = engine.TrainConfig("mse", (engine.Phase("adam", 1e-2, 20),), log_every=0)
engine.train(model, x, y, 0.01, config, log=lambda s: None)
polish.polish(model, x, y, 0.01, polish.PolishConfig(20, "mse", device="cpu"), log=lambda s: None)
{planted}
print("torch._dynamo" in sys.modules)
"""


def test_training_and_polishing_leave_torch_dynamo_unimported():
    def imported(planted=""):
        code = _TRAIN_AND_POLISH.format(planted=planted)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout.split()[-1] == "True"

    assert not imported()
    # the check sees the import where a torch.optim optimizer is built
    assert imported("torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)")
