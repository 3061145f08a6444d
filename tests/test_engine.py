"""The stacked-tensor engine trains each network exactly as if it were alone."""

import os
from pathlib import Path

import numpy as np
import pytest
import torch

from l2relu.training import engine


def make(widths, seeds, bias=False):
    cfg = engine.NetworkConfig(widths=widths, bias=bias)
    return engine.BatchedMLP(cfg, seeds, torch.device("cpu"), torch.float64)


def quiet(_msg):
    pass


@pytest.mark.parametrize("optimizer", ["gd", "adam"])
def test_batched_training_equals_training_alone(optimizer):
    torch.manual_seed(0)
    x = torch.randn(3, 10, dtype=torch.float64)
    y = torch.randn(2, 10, dtype=torch.float64)
    cfg = engine.TrainConfig(
        loss="mse_half_sum", phases=(engine.Phase(optimizer, 1e-2, 50),), log_every=0
    )
    lams = [0.0, 1e-2, 1e-1]
    together = make((3, 8, 8, 2), seeds=[11, 12, 13], bias=True)
    res = engine.train(together, x, y, torch.tensor(lams), cfg, log=quiet)
    for b, (seed, lam) in enumerate(zip([11, 12, 13], lams, strict=True)):
        alone = make((3, 8, 8, 2), seeds=[seed], bias=True)
        res1 = engine.train(alone, x, y, lam, cfg, log=quiet)
        # equal up to the summation order of batched vs single matrix products
        assert res.loss[b] == pytest.approx(res1.loss[0], rel=1e-8)
        for wt, w1 in zip(together.weights, alone.weights, strict=True):
            torch.testing.assert_close(wt[b], w1[0], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("optimizer", ["gd", "adam"])
def test_networks_padded_to_one_width_train_as_alone_and_the_padding_stays_zero(optimizer):
    x = torch.randn(3, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(2, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    cfg = engine.TrainConfig("mse", (engine.Phase(optimizer, 1e-2, 200),), log_every=0)
    widths = [(3, 2, 4, 2), (3, 5, 1, 2), (3, 6, 6, 2)]
    alone = [make(w, seeds=[7 + i, 20 + i], bias=True) for i, w in enumerate(widths)]
    with torch.no_grad():  # start from non-zero biases, as the 1-D plateau sweep does
        for model in alone:
            for b in model.biases:
                b.uniform_(-0.5, 0.5, generator=torch.Generator().manual_seed(b.numel()))
    padded = engine.BatchedMLP.padded(alone)
    assert padded.config.widths == (3, 6, 6, 2) and padded.batch == 6
    res = engine.train(padded, x, y, 1e-2, cfg, log=quiet)
    for i, model in enumerate(alone):
        res1 = engine.train(model, x, y, 1e-2, cfg, log=quiet)
        np.testing.assert_allclose(res.objective[2 * i : 2 * i + 2], res1.objective, rtol=1e-10)
        for layer, w in enumerate(padded.weights):
            trained = w[2 * i : 2 * i + 2].detach()
            cols, rows = model.config.widths[layer : layer + 2]
            torch.testing.assert_close(trained[:, :rows, :cols], model.weights[layer].detach())
            assert not trained[:, rows:, :].any() and not trained[:, :, cols:].any()
        for layer, b in enumerate(padded.biases):
            trained, width = b[2 * i : 2 * i + 2].detach(), model.config.widths[layer + 1]
            torch.testing.assert_close(trained[:, :width], model.biases[layer].detach())
            assert not trained[:, width:].any()


@pytest.mark.parametrize(
    "other",
    [((3, 4, 4, 2), False), ((3, 4, 1), False), ((2, 4, 2), False), ((3, 4, 2), True)],
    ids=["depth", "output size", "input size", "bias"],
)
def test_padding_refuses_networks_that_differ_in_more_than_hidden_width(other):
    engine.BatchedMLP.padded([make((3, 4, 2), [0]), make((3, 6, 2), [1])])  # widths may differ
    with pytest.raises(ValueError, match="need one depth"):
        engine.BatchedMLP.padded([make((3, 4, 2), [0]), make(other[0], [1], bias=other[1])])


def test_regularization_lowers_the_norm():
    x = torch.randn(2, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(1, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    model = make((2, 16, 1), seeds=[0, 0])
    cfg = engine.TrainConfig(
        loss="mse_half_sum", phases=(engine.Phase("adam", 1e-2, 300),), log_every=0
    )
    engine.train(model, x, y, torch.tensor([0.0, 0.1]), cfg, log=quiet)
    norms = model.squared_norm().detach()
    assert norms[1] < norms[0]


def test_divergence_is_flagged_and_isolated():
    x = torch.randn(2, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(1, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    model = make((2, 4, 1), seeds=[1, 2])
    with torch.no_grad():
        model.weights[0][0] *= 1e200  # network 0 overflows at once
    cfg = engine.TrainConfig(
        loss="mse_half_sum", phases=(engine.Phase("gd", 1e-2, 20),), log_every=10
    )
    lines = []
    res = engine.train(model, x, y, 0.0, cfg, log=lines.append)
    assert res.diverged.tolist() == [True, False]
    assert res.diverged_step.tolist() == [0, -1] and res.steps == 20
    assert np.isfinite(res.loss[1])
    assert "diverged 1" in lines[-1] and "elapsed" in lines[-1]


def test_losses_match_their_definitions():
    out = torch.tensor([[[0.0, 2.0, -1.0]], [[1.0, 1.0, 1.0]]], dtype=torch.float64)
    y = torch.tensor([[1.0, 1.0, 1.0]], dtype=torch.float64)
    torch.testing.assert_close(
        engine.network_losses(out, y, "mse_half_sum"),
        torch.tensor([0.5 * (1 + 1 + 4), 0.0], dtype=torch.float64),
    )
    torch.testing.assert_close(
        engine.network_losses(out, y, "mse_mean"), torch.tensor([2.0, 0.0], dtype=torch.float64)
    )
    labels = torch.tensor([1.0, -1.0, 1.0], dtype=torch.float64)
    expected = torch.log1p(torch.exp(-labels * out[:, 0, :])).mean(1)
    torch.testing.assert_close(engine.network_losses(out, labels, "logistic"), expected)
    logits = torch.randn(2, 4, 3, dtype=torch.float64)
    classes = torch.tensor([0, 3, 1])
    ce = torch.stack([torch.nn.functional.cross_entropy(logits[b].T, classes) for b in range(2)])
    torch.testing.assert_close(engine.network_losses(logits, classes, "cross_entropy"), ce)
    with pytest.raises(ValueError):
        engine.network_losses(out, y, "hinge")


def test_same_seeds_same_networks_and_device_choice():
    a, b = make((3, 5, 1), [7]), make((3, 5, 1), [7])
    torch.testing.assert_close(a.weights[0], b.weights[0])
    assert not torch.equal(make((3, 5, 1), [8]).weights[0], a.weights[0])
    assert engine.pick_device("cpu").type == "cpu"
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert engine.pick_device("auto").type == expected


def test_cross_entropy_is_torchs_to_the_bit_in_value_and_gradient():
    """The loss avoids nll_loss (no deterministic CUDA backward) and must not change a CPU
    run: the same value and gradient bit for bit as F.cross_entropy, over scales of logits."""
    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.float64, torch.float32):
        for scale in (1e-4, 1.0, 30.0):
            out = (scale * torch.randn(4, 3, 42, dtype=dtype, generator=gen)).requires_grad_()
            classes = torch.randint(0, 3, (42,), generator=gen)
            logits = out.transpose(1, 2).reshape(-1, 3)
            torchs = (
                torch.nn.functional.cross_entropy(logits, classes.repeat(4), reduction="none")
                .view(4, 42)
                .mean(1)
            )
            ours = engine.network_losses(out, classes, "cross_entropy")
            (g_torch,) = torch.autograd.grad(torchs.sum(), out)
            (g_ours,) = torch.autograd.grad(ours.sum(), out)
            assert torch.equal(torchs, ours) and torch.equal(g_torch, g_ours), (dtype, scale)


def test_a_cuda_device_switches_on_deterministic_kernels(monkeypatch):
    """Picking CUDA sets cuBLAS's fixed workspace and torch's deterministic mode (the CPU
    paths are left as they are); asking for CUDA where there is none is an error."""
    # setenv first, so that the undo restores the variable's absence too
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", "unset by the test")
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG")
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert engine.pick_device("auto").type == "cpu"
    assert "CUBLAS_WORKSPACE_CONFIG" not in os.environ
    assert not torch.are_deterministic_algorithms_enabled()
    with pytest.raises(RuntimeError, match="no CUDA device"):
        engine.pick_device("cuda:0")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    try:
        assert engine.pick_device("auto") == torch.device("cuda")
        assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":4096:8"
        assert torch.are_deterministic_algorithms_enabled()
    finally:
        torch.use_deterministic_algorithms(was_deterministic)


def test_halving_gd_never_raises_the_objective_where_plain_gd_diverges():
    x = torch.randn(3, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(2, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(1))

    def objective_after(steps, halve):
        model = make((3, 16, 2), seeds=[3, 4], bias=True)
        phase = engine.Phase("gd", 5.0, steps, halve_on_rise=halve)  # far above 2 / sharpness
        cfg = engine.TrainConfig(loss="mse_half_sum", phases=(phase,), log_every=0)
        return engine.train(model, x, y, 1e-3, cfg, log=quiet)

    plain = objective_after(30, halve=False)
    assert plain.diverged.all()
    halving = np.array([objective_after(k, halve=True).objective for k in range(31)])
    assert np.all(np.diff(halving, axis=0) <= 0)
    assert np.all(halving[-1] < halving[0] / 2)  # the halved steps still make progress


def test_halving_gd_keeps_the_networks_independent():
    x = torch.randn(3, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    y = torch.randn(1, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    phase = engine.Phase("gd", 2.0, 40, halve_on_rise=True)
    cfg = engine.TrainConfig(loss="mse_half_sum", phases=(phase,), log_every=0)
    together = make((3, 6, 1), seeds=[5, 6], bias=True)
    res = engine.train(together, x, y, torch.tensor([0.0, 1e-2]), cfg, log=quiet)
    for b, (seed, lam) in enumerate([(5, 0.0), (6, 1e-2)]):
        alone = make((3, 6, 1), seeds=[seed], bias=True)
        assert res.objective[b] == pytest.approx(
            engine.train(alone, x, y, lam, cfg, log=quiet).objective[0], rel=1e-8
        )


def test_training_stops_once_every_network_diverged_and_records_the_step():
    x = torch.randn(3, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(2, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    model = make((3, 16, 2), seeds=[3, 4], bias=True)
    phases = (engine.Phase("gd", 5.0, 1000), engine.Phase("adam", 1e-3, 1000))
    cfg = engine.TrainConfig(loss="mse_half_sum", phases=phases, log_every=0)
    lines = []
    res = engine.train(model, x, y, 1e-3, cfg, log=lines.append)
    assert res.diverged.all()
    # the steps are recorded where each network diverged; training stops at the next check
    assert (res.diverged_step > 0).all() and res.diverged_step.max() < engine.CHECK_EVERY
    assert res.steps == engine.CHECK_EVERY
    assert "every network diverged" in lines[-1]


class Crash(Exception):
    pass


def test_a_crashed_training_resumes_to_the_uninterrupted_result(tmp_path):
    x = torch.randn(3, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(2, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    phases = engine.adam_then_gd(1e-2, 30, 0.5, 30)
    cfg = engine.TrainConfig(loss="mse_half_sum", phases=phases, log_every=1)

    lines = []

    def run(directory=None, crash_at=None):
        model = make((3, 8, 2), seeds=[1, 2], bias=True)

        def log(msg):
            lines.append(msg)
            if crash_at and f"step {crash_at}/" in msg:
                raise Crash(msg)

        if directory is None:
            return model, engine.train(model, x, y, [0.0, 1e-2], cfg, log=log)
        with engine.checkpointing(directory, every_s=0):
            # two calls in one job: the first finishes, the second is interrupted
            engine.train(make((3, 8, 2), seeds=[9], bias=True), x, y, 0.0, cfg, log=quiet)
            return model, engine.train(model, x, y, [0.0, 1e-2], cfg, log=log)

    reference, expected = run()
    for crash_at in (12, 45):  # in the Adam phase, then in the halving-GD phase
        directory = tmp_path / f"resume{crash_at}"
        with pytest.raises(Crash):
            run(directory, crash_at)
        assert sorted(f.name for f in directory.iterdir()) == ["train1.pt", "train2.pt"]
        lines.clear()
        model, result = run(directory)
        assert lines[0].startswith(f"[resumed at step {crash_at}/60")
        assert not directory.exists()  # removed once the job's block succeeds
        np.testing.assert_array_equal(result.objective, expected.objective)
        for p, q in zip(model.parameters(), reference.parameters(), strict=True):
            assert torch.equal(p, q)


def test_a_saved_state_of_another_computation_is_not_resumed(tmp_path):
    x = torch.randn(2, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(1, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    lines = []

    def run(lr, crash):
        cfg = engine.TrainConfig(
            loss="mse_half_sum", phases=(engine.Phase("gd", lr, 20),), log_every=1
        )

        def log(msg):
            lines.append(msg)
            if crash and "step 10/" in msg:
                raise Crash(msg)

        with engine.checkpointing(tmp_path / "resume", every_s=0):
            return engine.train(make((2, 4, 1), seeds=[0]), x, y, 0.0, cfg, log=log)

    with pytest.raises(Crash):
        run(1e-2, crash=True)
    lines.clear()
    run(2e-2, crash=False)  # other step size: the saved state is ignored, and the log says so
    assert not any(line.startswith("[resumed") for line in lines)
    assert "not resumed: saved by another computation" in lines[0]
    assert str(tmp_path / "resume" / "train1.pt") in lines[0]


class _RunsCode:
    """Unpickling it would touch a marker file: what a crafted checkpoint could do."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_crafted_saved_state_is_not_unpickled_and_training_starts_over(tmp_path):
    x = torch.randn(2, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    y = torch.randn(1, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    cfg = engine.TrainConfig(loss="mse_half_sum", phases=(engine.Phase("gd", 1e-2, 20),))
    marker = tmp_path / "code_ran"
    directory = tmp_path / "resume"
    directory.mkdir()
    torch.save({"fingerprint": _RunsCode(marker)}, directory / "train1.pt")
    lines = []
    with engine.checkpointing(directory, every_s=0):
        result = engine.train(make((2, 4, 1), seeds=[0]), x, y, 0.0, cfg, log=lines.append)
    assert not marker.exists()
    assert f"[{directory / 'train1.pt'} not resumed: unreadable as a state" in lines[0]
    fresh = engine.train(make((2, 4, 1), seeds=[0]), x, y, 0.0, cfg, log=quiet)
    np.testing.assert_array_equal(result.objective, fresh.objective)


def test_a_crafted_checkpoint_is_refused_in_one_line_and_a_saved_one_reads_back(tmp_path):
    from l2relu.training.io import CheckpointError, load_checkpoint, save_checkpoint

    marker = tmp_path / "code_ran"
    crafted = tmp_path / "model.pt"
    torch.save({"config": _RunsCode(marker)}, crafted)
    with pytest.raises(CheckpointError) as refused:
        load_checkpoint(crafted)
    assert not marker.exists()
    assert str(refused.value).startswith(f"{crafted}: not a checkpoint of plain data")
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)
    assert "Unsupported global" in str(refused.value)  # what was refused
    saved = tmp_path / "saved.pt"
    config = {"width": 4, "lams": [0.1, 0.01], "digits": (7, 8), "name": "x", "flag": True}
    save_checkpoint(saved, config=config, seed=3, arrays={"w1": np.eye(2)})
    checkpoint = load_checkpoint(saved)
    assert checkpoint["config"] == config and checkpoint["seed"] == 3
    assert torch.equal(checkpoint["arrays"]["w1"], torch.eye(2, dtype=torch.float64))
