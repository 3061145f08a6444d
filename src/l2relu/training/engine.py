"""Many independent fully-connected ReLU networks of one shape, held in stacked tensors and
trained together in one program (one network per seed, lambda, ... along the batch axis).

Each network's loss depends only on its own slice of the stacked tensors, so the gradient of the
summed loss is every network's own gradient, and the per-coordinate optimizers (GD, Adam) step
every network exactly as if it were trained alone.
"""

import contextlib
import dataclasses
import hashlib
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from l2relu.training import optim
from l2relu.training.io import atomic_path, code_version

LOSSES = ("mse_half_sum", "mse", "mse_mean", "cross_entropy", "logistic")
OPTIMIZERS = ("gd", "adam")
# Steps between two reads of the divergence flags on the host (also read at every progress line
# and at the start of a phase): a job whose networks all diverged stops at the next read.
CHECK_EVERY = 100


@dataclass(frozen=True)
class NetworkConfig:
    widths: tuple[int, ...]  # d_0 (input), hidden widths, d_k (output); depth k = len(widths) - 1
    bias: bool = False  # a bias on every layer (timor2022 has none; jacot2022 has one)
    init_scale: float = 1.0  # multiplies He init N(0, 2/fan_in); small = start near the origin


@dataclass(frozen=True)
class Phase:
    optimizer: str  # "gd" (full-batch gradient descent) or "adam"
    lr: float  # step size
    steps: int  # number of full-batch steps
    # GD only: a step that raises a network's objective is undone and retried at half that
    # network's step size, so GD settles into the basin Adam found instead of bouncing out of it
    halve_on_rise: bool = False


def adam_then_gd(adam_lr: float, adam_steps: int, gd_lr: float, gd_steps: int):
    """Adam (fast), then full-batch GD that halves a network's step on any rise (settles in
    the basin Adam found): the recipe of jacot2022's App. A."""
    return (Phase("adam", adam_lr, adam_steps), Phase("gd", gd_lr, gd_steps, halve_on_rise=True))


def phases_from_config(config: list[dict]) -> tuple[Phase, ...]:
    """A config's list of {optimizer, lr, steps} as phases; GD halves its step on a rise."""
    return tuple(
        Phase(p["optimizer"], p["lr"], p["steps"], halve_on_rise=p["optimizer"] == "gd")
        for p in config
    )


@dataclass(frozen=True)
class TrainConfig:
    loss: str  # one of LOSSES; "mse_half_sum" is timor2022's (1/2)||N(X) - Y||_F^2
    phases: tuple[Phase, ...]  # run in order, e.g. Adam then GD as in jacot2022 App. A
    dtype: str = "float64"  # float64 keeps tiny losses and norms exact enough to compare
    log_every: int = 1000  # steps between progress lines in the job's log
    device: str = "auto"  # "auto": CUDA when present, else CPU


@dataclass
class TrainResult:
    loss: np.ndarray  # (B,) data loss at the end
    objective: np.ndarray  # (B,) data loss + lambda * ||theta||^2 at the end
    diverged: np.ndarray  # (B,) True where the loss became NaN or infinite
    # (B,) steps taken when a network's loss was first seen NaN or infinite; -1 if never
    diverged_step: np.ndarray
    steps: int  # steps taken in all; fewer than planned when every network diverged
    device: str  # where it trained ("cpu", "cuda:0"), for the run's record
    dtype: str  # the parameters' float type ("float64", "float32")

    def followed_by(self, later: "TrainResult") -> "TrainResult":
        """One result of this call and a `later` one that went on training the same networks:
        the later losses, a network diverged in either, its step counted from the first call."""
        step = np.where(
            self.diverged,
            self.diverged_step,
            np.where(later.diverged, later.diverged_step + self.steps, -1),
        )
        return dataclasses.replace(
            later,
            diverged=self.diverged | later.diverged,
            diverged_step=step,
            steps=self.steps + later.steps,
        )

    def record(self, index: int | None = None) -> dict:
        """The columns every run table carries: divergence (flag and step) and where and in what
        float type it trained; of network `index`, or of every network (arrays) when None."""
        diverged, step = self.diverged, self.diverged_step
        if index is not None:
            diverged, step = bool(diverged[index]), int(step[index])
        return {
            "diverged": diverged,
            "diverged_step": step,
            "device": self.device,
            "dtype": self.dtype,
        }


class Checkpointing:
    """Periodic saves of the engine.train calls made inside `checkpointing(...)`, so that a job
    killed mid-training resumes where it was and ends exactly as an uninterrupted run would.

    The calls of a job are numbered in order; each has one file in `directory`, holding its
    state (parameters, optimizer state, step) and a fingerprint of its inputs, and marked
    finished at the end. A file whose fingerprint differs (other data, config or code) is
    ignored, so a resumed state always belongs to the same computation."""

    def __init__(self, directory, every_s: float):
        self.directory = Path(directory)
        self.every_s = every_s  # wall-clock seconds between saves; 0 saves every step
        self.calls = 0

    def next_file(self) -> Path:
        self.calls += 1
        return self.directory / f"train{self.calls}.pt"


_checkpointing: Checkpointing | None = None


@contextlib.contextmanager
def checkpointing(directory, every_s: float):
    """Checkpoint every engine.train call in the block; the files are removed when the block
    succeeds (its outputs are written by then) and kept when it fails, for the next attempt."""
    global _checkpointing
    previous, _checkpointing = _checkpointing, Checkpointing(directory, every_s)
    try:
        yield _checkpointing
    finally:
        _checkpointing = previous
    shutil.rmtree(directory, ignore_errors=True)


def resume_file(directory, stem: str, suffix: str, computation) -> Path | None:
    """A file in a job's resume directory for what a `watch` reads while the job trains, so
    that a killed job resumed from its checkpoint keeps what was read before the kill; named by
    the computation (a repr-able description), so that a job finds only its own. None where
    there is no resume directory. It goes with the directory when the job succeeds."""
    if directory is None:
        return None
    digest = hashlib.sha256(repr(computation).encode()).hexdigest()[:16]
    return Path(directory) / f"{stem}-{digest}{suffix}"


class ReadOnce:
    """A `watch` for `train` that reads the model once, when `step` steps are done, and keeps
    what it read (a dict of arrays) in the job's resume directory, written whole or not at all,
    so that a job killed after the read and resumed from its checkpoint still has it (the file
    is named by `computation`, as resume_file names it). `value()`: the read, or None where a
    job was killed between reaching `step` and keeping it."""

    def __init__(self, step: int, read: Callable[[], dict], directory, stem: str, computation):
        self.step, self.read = step, read
        self.file = resume_file(directory, stem, ".npz", computation)
        self.kept = None

    def __call__(self, done: int) -> None:
        if done == self.step:
            self.kept = self.read()
            if self.file is not None:
                with atomic_path(self.file) as partial, open(partial, "wb") as f:
                    np.savez(f, **self.kept)

    def value(self) -> dict | None:
        if self.kept is None and self.file is not None and self.file.exists():
            self.kept = dict(np.load(self.file))  # read before a kill, by the job it resumes
        return self.kept


def _fingerprint(tensors, config: TrainConfig) -> str:
    digest = hashlib.sha256(repr((config.loss, config.phases, config.dtype)).encode())
    digest.update(code_version().encode())
    for t in tensors:
        digest.update(t.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def _save_state(path: Path, state: dict) -> None:
    with atomic_path(path) as tmp:
        torch.save(state, tmp)


def _load_state(path: Path, fingerprint: str, device, log) -> dict | None:
    """A saved state of this computation, or None (and a line in the log saying why not):
    read as data only, since unpickling anything else could run code."""
    if not path.exists():
        return None
    try:
        state = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # another torch version, a damaged disk, not plain data
        log(f"[{path} not resumed: unreadable as a state ({type(error).__name__}), starting over]")
        return None
    if not isinstance(state, dict) or state.get("fingerprint") != fingerprint:
        log(f"[{path} not resumed: saved by another computation (data, config or code)]")
        return None
    return state


def pick_device(preference: str = "auto") -> torch.device:
    """The device to train on ("auto": CUDA when present); on CUDA, deterministic kernels."""
    if preference == "auto":
        preference = "cuda" if torch.cuda.is_available() else "cpu"
    if preference.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError(f"device {preference!r} requested but no CUDA device is available")
    device = torch.device(preference)
    if device.type == "cuda":
        deterministic_cuda()
    return device


def deterministic_cuda() -> None:
    """Make a CUDA run repeat bit for bit: cuBLAS needs a fixed workspace for reproducible
    matrix products (read when its first handle is made, so before any product runs), and
    torch must pick deterministic kernels (an op without one raises instead of varying)."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False


class BatchedMLP:
    """B networks N_theta(x) = W_k relu(... relu(W_1 x + b_1) ...) + b_k, stacked on axis 0."""

    def __init__(self, config: NetworkConfig, seeds: Sequence[int], device, dtype):
        self.config = config
        self.weights: list[torch.Tensor] = []
        self.biases: list[torch.Tensor] = []
        gens = [torch.Generator().manual_seed(int(s)) for s in seeds]
        for d_in, d_out in zip(config.widths[:-1], config.widths[1:], strict=True):
            std = config.init_scale * math.sqrt(2.0 / d_in)
            w = torch.stack(
                [torch.randn(d_out, d_in, generator=g, dtype=torch.float64) * std for g in gens]
            )
            self.weights.append(w.to(device=device, dtype=dtype).requires_grad_())
            if config.bias:
                b = torch.zeros(len(gens), d_out, dtype=dtype, device=device)
                self.biases.append(b.requires_grad_())

    @classmethod
    def from_weights(cls, weights, biases=(), bias: bool = False):
        """A model of copies of the given stacked tensors (B, d_out, d_in)."""
        self = cls.__new__(cls)
        widths = (weights[0].shape[2], *[w.shape[1] for w in weights])
        self.config = NetworkConfig(widths=widths, bias=bias)
        self.weights = [w.detach().clone().requires_grad_() for w in weights]
        self.biases = [b.detach().clone().requires_grad_() for b in biases]
        return self

    @classmethod
    def padded(cls, models: Sequence["BatchedMLP"]):
        """The networks of `models` (one depth, one input and output size, hidden widths that
        may differ) stacked in one batch, every hidden layer filled up to the widest with zero
        neurons. A zero neuron stays zero under training: its pre-activation is 0, where ReLU's
        derivative is 0 (PyTorch's convention), so its weights get no gradient from the data,
        the weight decay of 0 is 0, and GD and Adam both step by 0. Each network thus trains as
        it would alone, up to the order in which products add their terms; one batch of many
        networks costs far fewer steps than one batch per width."""
        depth = {len(m.config.widths) for m in models}
        ends = {(m.config.widths[0], m.config.widths[-1]) for m in models}
        bias = {m.config.bias for m in models}
        if len(depth) != 1 or len(ends) != 1 or len(bias) != 1:
            raise ValueError("padded networks need one depth, input size, output size and bias")
        widest = tuple(max(w) for w in zip(*(m.config.widths for m in models), strict=True))

        def fill(tensors, shape):
            out = tensors[0].new_zeros((sum(t.shape[0] for t in tensors), *shape))
            start = 0
            for t in tensors:
                out[(slice(start, start + t.shape[0]), *map(slice, t.shape[1:]))] = t.detach()
                start += t.shape[0]
            return out

        weights = [
            fill([m.weights[i] for m in models], (d_out, d_in))
            for i, (d_in, d_out) in enumerate(zip(widest[:-1], widest[1:], strict=True))
        ]
        with_bias = bias.pop()
        biases = [
            fill([m.biases[i] for m in models], (d,))
            for i, d in enumerate(widest[1:] if with_bias else ())
        ]
        return cls.from_weights(weights, biases, bias=with_bias)

    @property
    def batch(self) -> int:
        return self.weights[0].shape[0]

    def parameters(self) -> list[torch.Tensor]:
        return self.weights + self.biases

    def layers(self) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """The weights and biases as the products use them: for one network, 2-D views (plain
        matrix products are faster than a batch of one); else the stacked tensors, biases
        (B, d, 1). Views, not w[0], whose backward fills a zero tensor of w's shape."""
        if self.batch == 1:
            return (
                [w.view(w.shape[1:]) for w in self.weights],
                [b.view(-1, 1) for b in self.biases],
            )
        return self.weights, [b.unsqueeze(2) for b in self.biases]

    def forward(self, x: torch.Tensor, layers=None) -> torch.Tensor:
        """x: (d_0, N) shared by all networks, or (B, d_0, N). Returns (B, d_k, N).
        `layers`: this step's self.layers(), when the caller has them already."""
        weights, biases = layers or self.layers()
        h = x.view(x.shape[1:]) if self.batch == 1 and x.dim() == 3 else x
        last = len(weights) - 1
        for layer, w in enumerate(weights):
            h = torch.matmul(w, h)
            if biases:
                h = h + biases[layer]
            if layer < last:
                h = torch.relu(h)
        return h.unsqueeze(0) if self.batch == 1 else h

    def squared_norm(self, layers=None) -> torch.Tensor:
        """(B,) ||theta||^2 over every weight and bias."""
        if self.batch == 1:
            weights, biases = layers or self.layers()
            return sum((t**2).sum() for t in weights + biases).view(1)
        return sum((p**2).sum(dim=tuple(range(1, p.dim()))) for p in self.parameters())


def stacked_arrays(model: BatchedMLP) -> dict:
    """A batch as a checkpoint stores it: w1.., b1.., each (networks, ...), numpy copies (on
    the CPU a tensor's numpy() is a view of it, which training would go on changing)."""
    arrays = {f"w{i + 1}": w.detach().cpu().numpy().copy() for i, w in enumerate(model.weights)}
    return arrays | {
        f"b{i + 1}": b.detach().cpu().numpy().copy() for i, b in enumerate(model.biases)
    }


def network_losses(out: torch.Tensor, target: torch.Tensor, kind: str) -> torch.Tensor:
    """(B,) data loss of every network. target: (d_k, N) values, or (N,) class labels / +-1."""
    if kind == "mse_half_sum":
        return 0.5 * ((out - target) ** 2).flatten(1).sum(1)
    if kind == "mse":  # (1/N) ||N(X) - Y||_F^2, jacot2022's MSE
        return ((out - target) ** 2).sum(1).mean(1)
    if kind == "mse_mean":
        return ((out - target) ** 2).flatten(1).mean(1)
    if kind == "cross_entropy":
        b, c, n = out.shape
        logits = out.transpose(1, 2).reshape(b * n, c)
        # F.cross_entropy's value and gradient to the bit, without nll_loss, whose CUDA
        # backward has no deterministic kernel
        onehot = (target.repeat(b)[:, None] == torch.arange(c, device=out.device)).to(out.dtype)
        ce = -(F.log_softmax(logits, dim=1) * onehot).sum(1)
        return ce.view(b, n).mean(1)
    if kind == "logistic":
        return F.softplus(-target * out[:, 0, :]).mean(1)
    raise ValueError(f"unknown loss {kind!r}; expected one of {LOSSES}")


def _per_network(values: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """(B,) values shaped to broadcast against a stacked (B, ...) tensor."""
    return values.view(-1, *([1] * (like.dim() - 1)))


def _halving_gd_step(params, grads, objective, last, step_size):
    """One GD step per network from its last accepted point. `objective` and `grads` are those
    of the current parameters; a network whose objective rose (or became NaN) is sent back to
    its last accepted point and steps again along that point's gradient at half the size.
    Returns the new last accepted points (objective, params, grads) and step sizes."""
    if last is None:
        last = (objective.clone(), [p.clone() for p in params], grads)
    accept = objective <= last[0]  # False for NaN
    step_size = torch.where(accept, step_size, step_size / 2)
    base = [
        torch.where(_per_network(accept, p), p, p0) for p, p0 in zip(params, last[1], strict=True)
    ]
    used = [
        torch.where(_per_network(accept, g), g, g0) for g, g0 in zip(grads, last[2], strict=True)
    ]
    for p, b, g in zip(params, base, used, strict=True):
        p.copy_(b - _per_network(step_size, g) * g)
    return (torch.where(accept, objective, last[0]), base, used), step_size


def _flag_diverged(objective, diverged_step, done):
    """Record step `done` for the networks whose objective is NaN or infinite for the first
    time (diverged_step is -1 until then); in place, without reading anything on the host."""
    newly = torch.isfinite(objective).logical_not_().logical_and_(diverged_step < 0)
    diverged_step.masked_fill_(newly, done)


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def train(
    model: BatchedMLP,
    x: torch.Tensor,
    target: torch.Tensor,
    lam,
    config: TrainConfig,
    log: Callable[[str], None] = _log,
    watch: Callable[[int], None] | None = None,
) -> TrainResult:
    """Minimize loss_b + lam_b * ||theta_b||^2 for every network b, phase after phase.

    A network whose loss becomes NaN or infinite is flagged as diverged, with the step, and
    frozen from the next check of the flags on (at most CHECK_EVERY steps later); the others
    carry on untouched, and training stops at the first check that finds every network diverged.
    Inside `checkpointing(...)` the state is saved every few seconds and a saved state of the
    same computation is resumed. `watch`, if given, is called with the steps done at every
    progress line (every config.log_every steps), to read the model as it trains.
    """
    for phase in config.phases:
        if phase.optimizer not in OPTIMIZERS:
            raise ValueError(f"unknown optimizer {phase.optimizer!r}; expected one of {OPTIMIZERS}")
    run = _Training(model, x, target, lam, config, log, watch)
    for phase_index, phase in enumerate(config.phases):
        if run.stopped:
            break
        if run.state is not None and phase_index < run.state["phase"]:
            continue
        run.phase(phase_index, phase)
    return run.finish()


class _Training:
    """One call of train: the networks' parameters, the step each diverged at, the steps done,
    and the periodic saves it resumes from."""

    def __init__(self, model, x, target, lam, config, log, watch):
        self.model, self.x, self.target, self.config = model, x, target, config
        self.log, self.watch = log, watch
        self.params = params = model.parameters()
        lam = torch.as_tensor(lam, dtype=params[0].dtype, device=params[0].device)
        self.lam = lam.expand(model.batch)
        self.diverged_step = torch.full((model.batch,), -1, dtype=torch.long, device=lam.device)
        self.total_steps = sum(p.steps for p in config.phases)
        self.done = 0
        self.start = time.perf_counter()
        self._resume()
        # d(lam ||theta||^2)/d theta = 2 lam theta is added by hand after the backward pass of
        # the data loss: the same numbers autograd gives (lam (2 theta), rounded once), without
        # carrying the norm through the graph
        self.decay = [_per_network(2 * self.lam, p) for p in params]
        self.resumed_finished = self.state is not None and self.state["finished"]
        self.stopped = self.resumed_finished

    def _resume(self):
        """Inside `checkpointing(...)`: the saved state of the same computation, if any, loaded."""
        self.saver = saver = _checkpointing
        self.state_file = saver.next_file() if saver else None
        inputs = [*self.params, self.x, self.target, self.lam]
        self.fingerprint = _fingerprint(inputs, self.config) if saver else ""
        state = None
        if saver:
            state = _load_state(self.state_file, self.fingerprint, self.lam.device, self.log)
        if state is not None:
            with torch.no_grad():
                for p, saved in zip(self.params, state["params"], strict=True):
                    p.copy_(saved)
            self.diverged_step, self.done = state["diverged_step"], state["done"]
            self.log(f"[resumed at step {self.done}/{self.total_steps} from {self.state_file}]")
        self.state = state
        self.last_save = time.perf_counter()

    def save(self, phase_index, phase_step, opt=None, last=None, step_size=None, finished=False):
        _save_state(
            self.state_file,
            {
                "fingerprint": self.fingerprint,
                "phase": phase_index,
                "phase_step": phase_step,
                "done": self.done,
                "params": [p.detach().clone() for p in self.params],
                "opt": opt.state_dict() if opt is not None else None,
                "last": last,
                "step_size": step_size,
                "diverged_step": self.diverged_step.clone(),
                "finished": finished,
            },
        )

    def evaluate(self):
        """(data loss, which carries the graph; objective, which does not)."""
        layers = self.model.layers()
        loss = network_losses(self.model.forward(self.x, layers), self.target, self.config.loss)
        with torch.no_grad():
            return loss, loss + self.lam * self.model.squared_norm(layers)

    def phase(self, phase_index, phase):
        """One phase, from where a resumed state left it."""
        # The host's view of the divergence flags, read only at checks: between two checks the
        # flags stay on the device, so a step costs no host-device synchronization.
        diverged = self.diverged_step >= 0
        any_diverged = bool(diverged.any())
        opt = optim.Adam(self.params, lr=phase.lr) if phase.optimizer == "adam" else None
        backtrack = phase.optimizer == "gd" and phase.halve_on_rise
        step_size = torch.full_like(self.lam, phase.lr)
        last = None  # halving GD: (objective, params, grads) at each network's last accepted point
        first_step = 0
        state = self.state
        if state is not None and phase_index == state["phase"]:
            first_step = state["phase_step"]
            if opt is not None and state["opt"] is not None:
                opt.load_state_dict(state["opt"])
            if state["last"] is not None:
                last, step_size = state["last"], state["step_size"]
        for phase_step in range(first_step, phase.steps):
            step = (phase, opt, backtrack, diverged, any_diverged, last, step_size)
            loss, last, step_size = self._step(*step)
            self.done += 1
            logging = self.config.log_every and self.done % self.config.log_every == 0
            if logging or self.done % CHECK_EVERY == 0:
                diverged = self.diverged_step >= 0
                any_diverged = bool(diverged.any())
                if any_diverged and bool(diverged.all()):
                    where = f"{phase.optimizer} step {self.done}/{self.total_steps}"
                    self.log(f"[{where}] every network diverged")
                    self.stopped = True
                    break
            if self.saver and time.perf_counter() - self.last_save >= self.saver.every_s:
                self.save(phase_index, phase_step + 1, opt, last, step_size)
                self.last_save = time.perf_counter()
            if logging and self.watch is not None:
                self.watch(self.done)
            if logging:
                self._progress(phase, loss, diverged)
        for p in self.params:
            p.grad = None
        if last is not None:  # the phase's last step has not been checked yet
            with torch.no_grad():
                rose = ~(self.evaluate()[1] <= last[0])
                for p, p0 in zip(self.params, last[1], strict=True):
                    p.copy_(torch.where(_per_network(rose, p), p0, p))

    def _step(self, phase, opt, backtrack, diverged, any_diverged, last, step_size):
        """One step of every network not known to have diverged; returns the data loss before
        it and halving GD's last accepted points and step sizes."""
        for p in self.params:
            p.grad = None
        loss, objective = self.evaluate()
        if not backtrack:  # halving GD undoes a rise to NaN instead of flagging it
            _flag_diverged(objective, self.diverged_step, self.done)
        # Every network's loss depends on its own slice only, so the sum's gradient is each
        # network's own gradient (NaN only in a network that is already NaN).
        loss.sum().backward()
        with torch.no_grad():
            grads = [p.grad for p in self.params]
            for p, g, d in zip(self.params, grads, self.decay, strict=True):
                g += p * d
            if any_diverged:  # freeze the networks known to have diverged
                for g in grads:
                    g.masked_fill_(_per_network(diverged, g), 0.0)
            if opt is not None:
                opt.step()
            elif not backtrack:
                for p, g in zip(self.params, grads, strict=True):
                    p -= phase.lr * g
            else:
                last, step_size = _halving_gd_step(self.params, grads, objective, last, step_size)
        return loss, last, step_size

    def _progress(self, phase, loss, diverged):
        finite = loss.detach()[~diverged]
        summary = (
            f"min {finite.min().item():.3e} median {finite.median().item():.3e} "
            f"max {finite.max().item():.3e}"
            if finite.numel()
            else "all diverged"
        )
        self.log(
            f"[{phase.optimizer} step {self.done}/{self.total_steps}] loss {summary} "
            f"diverged {int(diverged.sum())} elapsed {time.perf_counter() - self.start:.3f}s"
        )

    def finish(self) -> TrainResult:
        """The last state saved as finished, and every network's loss and objective."""
        if self.saver and not self.resumed_finished:
            self.save(len(self.config.phases), 0, finished=True)
        with torch.no_grad():
            loss, objective = self.evaluate()
        _flag_diverged(objective, self.diverged_step, self.done)
        diverged = self.diverged_step >= 0
        return TrainResult(
            loss=loss.cpu().numpy(),
            objective=objective.cpu().numpy(),
            diverged=diverged.cpu().numpy(),
            diverged_step=self.diverged_step.cpu().numpy(),
            steps=self.done,
            device=str(self.params[0].device),
            dtype=str(self.params[0].dtype).removeprefix("torch."),
        )
