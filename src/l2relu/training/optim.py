"""PyTorch's Adam and L-BFGS updates, step for step and bit for bit, outside torch.optim.

Every torch.optim optimizer imports torch._dynamo the first time it is built (its methods are
wrapped to keep the compiler out), about a second of start-up in each job that trains or
polishes, as long as the import of torch itself. These classes run the same arithmetic in the
same order as torch.optim.Adam (its single-tensor path, the defaults used here) and
torch.optim.LBFGS (with PyTorch's own strong-Wolfe line search), and keep their state per
parameter as torch.optim does, so a state_dict saved by either resumes in the other;
tests/test_optim.py holds them to torch.optim's bits.
"""

import torch
from torch.optim.lbfgs import _strong_wolfe


def _scalar_dtype() -> torch.dtype:
    """The dtype torch.optim keeps Adam's step count in."""
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _like(value, param: torch.Tensor):
    """A loaded state's tensors on the (floating) parameter's device and in its dtype, as
    torch.optim's load_state_dict casts them."""
    if isinstance(value, torch.Tensor):
        return value.to(dtype=param.dtype, device=param.device)
    if isinstance(value, list):
        return [_like(v, param) for v in value]
    return value


class Adam:
    """torch.optim.Adam(params, lr): betas (0.9, 0.999), eps 1e-8, no weight decay."""

    def __init__(self, params, lr: float, betas=(0.9, 0.999), eps: float = 1e-8):
        self.params = list(params)
        self.lr, self.betas, self.eps = lr, betas, eps
        self.state: dict[int, dict] = {}  # per parameter index: step, exp_avg, exp_avg_sq

    @torch.no_grad()
    def step(self) -> None:
        beta1, beta2 = self.betas
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            state = self.state.get(i)
            if state is None:
                state = self.state[i] = {
                    "step": torch.tensor(0.0, dtype=_scalar_dtype()),
                    "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                    "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
                }
            grad, exp_avg, exp_avg_sq = p.grad, state["exp_avg"], state["exp_avg_sq"]
            state["step"] += 1
            step = state["step"].item()
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            step_size = self.lr / (1 - beta1**step)
            denom = (exp_avg_sq.sqrt() / (1 - beta2**step) ** 0.5).add_(self.eps)
            p.addcdiv_(exp_avg, denom, value=-step_size)

    def state_dict(self) -> dict:
        group = {
            "lr": self.lr,
            "betas": self.betas,
            "eps": self.eps,
            "weight_decay": 0,
            "amsgrad": False,
            "maximize": False,
            "params": list(range(len(self.params))),
        }
        return {"state": dict(self.state), "param_groups": [group]}

    def load_state_dict(self, saved: dict) -> None:
        group = saved["param_groups"][0]
        self.lr, self.betas, self.eps = group["lr"], tuple(group["betas"]), group["eps"]
        self.state = {
            i: {k: v if k == "step" else _like(v, self.params[i]) for k, v in s.items()}
            for i, s in saved["state"].items()
        }


class LBFGS:
    """torch.optim.LBFGS(params, lr, max_iter, max_eval, tolerance_grad, tolerance_change,
    history_size, line_search_fn="strong_wolfe"), for real dense parameters. `state` is empty
    until the first step; clearing it empties the memory."""

    def __init__(
        self, params, lr=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7,
        tolerance_change=1e-9, history_size=100,
    ):  # fmt: skip
        self.params = list(params)
        self.lr, self.max_iter = lr, max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad, self.tolerance_change = tolerance_grad, tolerance_change
        self.history_size = history_size
        self.state: dict = {}

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    def _flat_grad(self) -> torch.Tensor:
        return torch.cat(
            [p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1) for p in self.params]
        )

    def _add_grad(self, step_size, update) -> None:
        offset = 0
        for p in self.params:
            p.add_(update[offset : offset + p.numel()].view_as(p), alpha=step_size)
            offset += p.numel()

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self.params, x, strict=True):
            p.copy_(saved)
        return loss, flat_grad

    def _direction(self, state, flat_grad, d, t, prev_flat_grad):
        """The L-BFGS direction: the memory updated with the last step, then its two loops."""
        y = flat_grad.sub(prev_flat_grad)
        s = d.mul(t)
        ys = y.dot(s)
        old_dirs, old_stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
        if ys > 1e-10:  # curvature condition: otherwise the memory is left as it was
            if len(old_dirs) == self.history_size:
                old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
            old_dirs.append(y), old_stps.append(s), ro.append(1.0 / ys)
            state["H_diag"] = ys / y.dot(y)
        al = state.setdefault("al", [None] * self.history_size)
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-al[i])
        d = r = torch.mul(q, state["H_diag"])
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=al[i] - be_i)
        return d

    @torch.no_grad()
    def step(self, closure):
        """Up to max_iter iterations (max_eval evaluations), as torch.optim.LBFGS.step."""
        closure = torch.enable_grad()(closure)
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= self.tolerance_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        def obj_func(x, t, d):  # the line search's objective: loss and gradient at x + t d
            return self._directional_evaluate(closure, x, t, d)

        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1)
            else:
                d = self._direction(state, flat_grad, d, t, prev_flat_grad)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone(memory_format=torch.contiguous_format)
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * self.lr if state["n_iter"] == 1 else self.lr
            gtd = flat_grad.dot(d)
            if gtd > -self.tolerance_change:
                break
            x_init = [p.clone(memory_format=torch.contiguous_format) for p in self.params]
            loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                obj_func, x_init, t, d, loss, flat_grad, gtd, max_ls=self.max_eval - current_evals
            )
            self._add_grad(t, d)
            opt_cond = flat_grad.abs().max() <= self.tolerance_grad
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == self.max_iter or current_evals >= self.max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= self.tolerance_change:
                break
            if abs(loss - prev_loss) < self.tolerance_change:
                break
        state.update(d=d, t=t, prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    def state_dict(self) -> dict:
        group = {
            "lr": self.lr,
            "max_iter": self.max_iter,
            "max_eval": self.max_eval,
            "tolerance_grad": self.tolerance_grad,
            "tolerance_change": self.tolerance_change,
            "history_size": self.history_size,
            "line_search_fn": "strong_wolfe",
            "params": list(range(len(self.params))),
        }
        return {"state": {0: dict(self.state)} if self.state else {}, "param_groups": [group]}

    def load_state_dict(self, saved: dict) -> None:
        group = saved["param_groups"][0]
        for key in ("lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change"):
            setattr(self, key, group[key])
        self.history_size = group["history_size"]
        state = saved["state"].get(0, {})
        self.state = {k: _like(v, self.params[0]) for k, v in state.items()}
