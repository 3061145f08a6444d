"""Polishing: a trained network carried on to a stationary point of its own L2-regularized
objective J(theta) = loss(theta) + lam ||theta||^2, and the certificate that says how close it
got.

The papers' statements about minima (jacot2022's plateaus, jacot2023's ||W||^2 / L and balance,
timor2022's Thms. 4-5) are about networks where grad J = 0; a network at the end of a fixed
Adam or GD schedule need not be one. Polishing continues it full-batch, in float64, with
PyTorch's L-BFGS and strong-Wolfe line search (l2relu.training.optim runs them, to the bit,
without torch.optim's start-up), one network at a time: each network has its own
history and line search, so a network polished in a batch is the network polished alone, to the
bit. The budget is a number of L-BFGS iterations, so a polish repeats exactly; inside
engine.checkpointing it is saved every few seconds and resumed where it stopped.
"""

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from l2relu.training import engine, optim
from l2relu.training.io import code_version, save_checkpoint
from l2relu.training.stationarity import stalled


@dataclass(frozen=True)
class PolishConfig:
    iterations: int  # L-BFGS iterations per network (each a line search of one or more evaluations)
    loss: str  # one of engine.LOSSES: the data loss of the objective
    history: int = 50  # L-BFGS memory: the last this many steps and gradient changes
    log_every: int = 100  # iterations between progress lines
    device: str = "auto"


def _network(model: engine.BatchedMLP, index: int, device) -> engine.BatchedMLP:
    """Network `index` of a batch, alone, in float64 on `device` (a copy: leaves of its own), of
    the batch's own class (a subclass's forward, e.g. another activation, is kept)."""
    return type(model).from_weights(
        [w[index : index + 1].to(device, torch.float64) for w in model.weights],
        [b[index : index + 1].to(device, torch.float64) for b in model.biases],
        bias=bool(model.biases),
    )


def stacked_networks(arrays: dict, rows=slice(None)) -> engine.BatchedMLP:
    """The networks `rows` (a slice or a list of indices) of arrays stacked as a checkpoint
    stores them (engine.stacked_arrays: w1.., b1.., each (networks, ...)), in float64."""
    depth = sum(1 for k in arrays if k.startswith("w"))
    return engine.BatchedMLP.from_weights(
        [torch.as_tensor(arrays[f"w{i + 1}"][rows]).double() for i in range(depth)],
        [torch.as_tensor(arrays[f"b{i + 1}"][rows]).double() for i in range(depth)],
        bias=True,
    )


def _float64(t: torch.Tensor, device) -> torch.Tensor:
    """Data on `device`, in float64 where it holds values (class labels stay integers)."""
    t = t.to(device)
    return t.double() if t.is_floating_point() else t


def _objective(net, x, target, lam: float, loss: str) -> float:
    with torch.no_grad():
        return float(sum(objective_parts(net, x, target, lam, loss)))


def objective_parts(net: engine.BatchedMLP, x, target, lam: float, loss: str):
    """(loss, lam ||theta||^2) of a one-network batch, both carrying the graph."""
    layers = net.layers()
    data = engine.network_losses(net.forward(x, layers), target, loss)[0]
    return data, lam * net.squared_norm(layers)[0]


def _lbfgs(params, history: int, iterations: int) -> optim.LBFGS:
    # tolerances 0: the budget alone ends a polish (a network that reaches an exact zero
    # gradient stops there by itself: its direction is 0)
    return optim.LBFGS(
        params,
        lr=1.0,
        max_iter=iterations,
        max_eval=10 * iterations,
        tolerance_grad=0.0,
        tolerance_change=0.0,
        history_size=history,
    )


# L-BFGS iterations between two looks at the objective: where a stretch made no progress, the
# memory is reset (a direction from a stale memory can fail to descend near a kink, and PyTorch's
# L-BFGS then stops its step without clearing it, so every later step would stop there too)
CHUNK = 10


def polish_one(net, x, target, lam: float, cfg: PolishConfig, log, resume=None, save=None):
    """Polish one float64 network in place for cfg.iterations L-BFGS iterations, in chunks of
    CHUNK (chunks continue one run exactly: L-BFGS keeps its state between them), its memory
    reset after a chunk that did not lower the objective. Returns the objective after every
    chunk, as (iterations done, J)."""
    params = net.parameters()
    opt = _lbfgs(params, cfg.history, CHUNK)
    done, trace = 0, []
    if resume is not None:
        opt.load_state_dict(resume["opt"])
        done, trace = resume["done"], list(resume["trace"])

    def closure():
        opt.zero_grad()
        data, decay = objective_parts(net, x, target, lam, cfg.loss)
        total = data + decay
        total.backward()
        return total

    start = time.perf_counter()
    half = cfg.iterations // 2  # a chunk ends there, for the fall over the second half
    log_every = cfg.log_every or cfg.iterations
    fixed = None  # the size of a chunk that, from an empty memory, left every bit of net as it was
    while done < cfg.iterations:
        chunk = min(CHUNK, cfg.iterations - done, log_every - done % log_every)
        if done < half:
            chunk = min(chunk, half - done)
        opt.max_iter, opt.max_eval = chunk, 10 * chunk
        before = trace[-1][1] if trace else None
        if chunk == fixed and not opt.state:
            # the same parameters, an empty memory and the same budget: the chunk would repeat
            # the last one step for step, its line search again finding no lower point
            value = before
        else:
            fixed = _step_from_scratch(opt, closure, net, chunk)
            value = _objective(net, x, target, lam, cfg.loss)
            if fixed is not None:
                at = done + chunk
                log(f"[polish iteration {at}: a fixed point of L-BFGS from an empty memory]")
        done += chunk
        trace.append((done, value))
        if before is not None and not value < before:
            if opt.state:  # said once for a run of chunks that find no descent
                log(f"[polish iteration {done}: no descent; L-BFGS memory reset]")
            opt.state.clear()
        if done % log_every == 0 or done == cfg.iterations or not math.isfinite(value):
            grad = _grad_norm(net, x, target, lam, cfg.loss)
            log(
                f"[polish iteration {done}/{cfg.iterations}] objective {value:.6e} "
                f"|grad J| {grad:.3e} elapsed {time.perf_counter() - start:.3f}s"
            )
        if not math.isfinite(value):
            log("[polish stopped: the objective is not finite]")
            break
        if save is not None:
            save({"opt": opt.state_dict(), "done": done, "trace": trace})
    return trace


def _step_from_scratch(opt, closure, net, chunk: int) -> int | None:
    """One chunk of L-BFGS; `chunk` when it began with an empty memory and left every bit of
    the network's parameters as it found them (a line search that found no lower point takes
    a step of 0), else None."""
    if opt.state:
        opt.step(closure)
        return None
    start = _copy(net)
    opt.step(closure)
    same = all(_same_bits(p.detach(), q) for p, q in zip(net.parameters(), start, strict=True))
    return chunk if same else None


def _same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal bit for bit (torch.equal holds 0.0 and -0.0 equal)."""
    return torch.equal(a.view(torch.int64), b.view(torch.int64))


def _grad_norm(net, x, target, lam, loss) -> float:
    grads = torch.autograd.grad(sum(objective_parts(net, x, target, lam, loss)), net.parameters())
    return _norm(grads)


def _norm(tensors) -> float:
    return float(torch.sqrt(sum((t**2).sum() for t in tensors)))


def polish(
    model: engine.BatchedMLP,
    x: torch.Tensor,
    target: torch.Tensor,
    lam,
    cfg: PolishConfig,
    log: Callable[[str], None] = engine._log,
) -> tuple[engine.BatchedMLP, pd.DataFrame]:
    """Every network of `model` polished alone (see the module's doc); `model` is left as it
    was. lam: one value, or one per network. Returns the polished networks, stacked in float64,
    and their certificate (certificate()), with the objective's fall over the polish's second
    half. A network whose objective is not finite is left as it is (its certificate says NaN)."""
    dev = engine.pick_device(cfg.device)
    x, target = _float64(x, dev), _float64(target, dev)
    lams = np.broadcast_to(np.asarray(lam, dtype=float), (model.batch,))
    saver = engine._checkpointing
    state_file = saver.next_file() if saver else None
    fingerprint = _fingerprint(model, x, target, lams, cfg) if saver else ""
    state = engine._load_state(state_file, fingerprint, dev, log) if saver else None
    done_nets = list(state["nets"]) if state else []
    falls = list(state["falls"]) if state else []
    last_save = time.perf_counter()
    nets = []
    for index in range(model.batch):
        net = _network(model, index, dev)
        if index < len(done_nets):  # polished before the job was stopped
            with torch.no_grad():
                for p, saved in zip(net.parameters(), done_nets[index], strict=True):
                    p.copy_(saved)
            nets.append(net)
            continue
        resume = None
        if state and state.get("current") is not None and state["current"]["index"] == index:
            with torch.no_grad():
                for p, saved in zip(net.parameters(), state["current"]["params"], strict=True):
                    p.copy_(saved)
            resume = state["current"]
            log(f"[polish: network {index + 1} resumed at iteration {resume['done']}]")

        def save(current, index=index, net=net):
            nonlocal last_save
            if saver is None or time.perf_counter() - last_save < saver.every_s:
                return
            current = current | {"index": index, "params": _copy(net)}
            engine._save_state(
                state_file,
                {"fingerprint": fingerprint, "nets": done_nets, "falls": falls, "current": current},
            )
            last_save = time.perf_counter()

        log(f"[polish: network {index + 1} of {model.batch}, lambda {lams[index]:.6g}]")
        value = _objective(net, x, target, float(lams[index]), cfg.loss)
        if math.isfinite(value) and cfg.iterations > 0:
            trace = polish_one(net, x, target, float(lams[index]), cfg, log, resume, save)
            falls.append(relative_fall(trace, value))
        else:
            falls.append(math.nan)
        done_nets.append(_copy(net))
        nets.append(net)
    if saver:
        engine._save_state(
            state_file,
            {"fingerprint": fingerprint, "nets": done_nets, "falls": falls, "current": None},
        )
    polished = type(model).padded(nets) if len(nets) > 1 else nets[0]
    table = certificate(polished, x, target, lams, cfg.loss).assign(fall_last_half=falls)
    return polished, table.assign(stalled=stalled(table.fall_last_half, table.force_residual))


def polish_and_certify(model: engine.BatchedMLP, x, target, lam, cfg: PolishConfig):
    """polish(), and the certificate of both networks: the schedule's rows (as `model` was)
    first, then the polished ones (column network). A schedule's network's fall is how far
    polishing lowered it, relative to where polishing ended. Returns the polished networks,
    their certificate, and both networks' certificate."""
    polished, after = polish(model, x, target, lam, cfg)
    before = certificate(model, x, target, lam, cfg.loss)
    before["fall_last_half"] = (before.objective - after.objective) / after.objective.abs()
    before["stalled"] = stalled(before.fall_last_half, before.force_residual)
    both = pd.concat(
        [before.assign(network="schedule"), after.assign(network="polished")], ignore_index=True
    )
    return polished, after, both


def _fingerprint(model, x, target, lams, cfg: PolishConfig) -> str:
    """What a saved polish belongs to: the networks, data, lambdas, budget and code."""
    digest = hashlib.sha256(repr((cfg.iterations, cfg.loss, cfg.history, cfg.log_every)).encode())
    digest.update(code_version().encode())
    for t in (*model.parameters(), x, target, torch.tensor(lams)):
        digest.update(t.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def _copy(net) -> list[torch.Tensor]:
    return [p.detach().clone() for p in net.parameters()]


def relative_fall(trace: list, start_value: float) -> float:
    """How much the objective fell over the polish's second half, relative to where it ended:
    (J(halfway) - J(end)) / J(end), halfway the iteration iterations // 2 (a chunk ends there)."""
    if not trace:
        return math.nan
    half = trace[-1][0] // 2
    halfway = dict(trace).get(half, start_value)
    return (halfway - trace[-1][1]) / abs(trace[-1][1])


def certificate(model: engine.BatchedMLP, x, target, lam, loss: str) -> pd.DataFrame:
    """One row per network of how stationary it is for J = loss + lam ||theta||^2, in float64:
    objective, |grad J|, and two scale-free forms of it --
      force_residual = |grad loss + grad lam||theta||^2| / (|grad loss| + |grad lam||theta||^2|):
        at a stationary point the data's pull and the weight decay cancel (0); where they do not
        cancel at all it is 1. Free of the objective's scale and of the network's size, and
        bounded, so one bar serves every paper's objective;
      grad_scaled = |grad J| |theta| / J: the first-order relative change of J per relative
        change of theta (how much J could still fall by moving theta by a small share of itself);
    and the balance residual: the largest relative gap between consecutive layers' squared norms
    (||W_l||^2 + ||b_l||^2 against ||W_(l+1)||^2), 0 at any stationary point by the rescaling
    argument (timor2022 Lemmas 14-15, jacot2023 Prop. 12)."""
    lams = np.broadcast_to(np.asarray(lam, dtype=float), (model.batch,))
    dev = model.weights[0].device
    x, target = _float64(x, dev), _float64(target, dev)
    rows = []
    for index in range(model.batch):
        net = _network(model, index, dev)
        data, decay = objective_parts(net, x, target, float(lams[index]), loss)
        params = net.parameters()
        g_data = torch.autograd.grad(data, params, retain_graph=True)
        g_decay = [2 * float(lams[index]) * p.detach() for p in params]
        total = _norm([a + b for a, b in zip(g_data, g_decay, strict=True)])
        objective = float((data + decay).detach())
        theta = math.sqrt(float(net.squared_norm()[0].detach()))
        rows.append(
            {
                "index": index,
                "objective": objective,
                "loss": float(data.detach()),
                "grad_norm": total,
                "force_residual": _force_residual(total, _norm(g_data) + _norm(g_decay)),
                "grad_scaled": total * theta / objective,
                "balance_residual": balance_residual(net),
            }
        )
    return pd.DataFrame(rows)


def _force_residual(total: float, forces: float) -> float:
    """|grad J| over the sum of the two forces' norms; 0 where both vanish (the zero network,
    where every neuron is dead and every weight 0, is exactly stationary)."""
    return total / forces if forces > 0 else 0.0


def balance_residual(net: engine.BatchedMLP) -> float:
    """max over l of |(||W_l||^2 + ||b_l||^2) - ||W_(l+1)||^2| / ||W_(l+1)||^2, of one network."""
    w = [float((p.detach() ** 2).sum()) for p in net.weights]
    b = [float((p.detach() ** 2).sum()) for p in net.biases] or [0.0] * len(w)
    gaps = [abs(w[k] + b[k] - w[k + 1]) / w[k + 1] for k in range(len(w) - 1) if w[k + 1] > 0]
    return max(gaps, default=math.nan)


def save_polished(path, trained: dict, iterations: int, arrays: dict, **changed) -> None:
    """The checkpoint of polished networks: the trained checkpoint's config (with `changed`
    keys replaced) and seed, the budget that carried its networks on, the polished arrays."""
    config = trained["config"] | changed | {"polish_iterations": iterations}
    save_checkpoint(path, config=config, seed=trained["seed"], arrays=arrays)
