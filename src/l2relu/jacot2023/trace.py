"""A trace of deep regression networks while they train: at every progress line, each network's
data loss and ||W||^2 / L, kept in the job's resume directory so that a killed job resumed from
its checkpoint keeps what it traced before the kill (engine.resume_file)."""

import pandas as pd
import torch

from l2relu.training import engine

COLUMNS = ["network", "step", "loss", "norm_per_layer"]


class Trace:
    """A `watch` for engine.train: call it with the steps done; `table()` the long trace."""

    def __init__(self, model, x, y, depth: int, directory=None, computation=None):
        self.model, self.x, self.y, self.depth = model, x, y, depth
        self.file = engine.resume_file(directory, "trace", ".csv", computation)
        kept = self.file is not None and self.file.exists()
        self.rows = pd.read_csv(self.file).values.tolist() if kept else []

    def __call__(self, step: int) -> None:
        with torch.no_grad():
            loss = engine.network_losses(self.model.forward(self.x), self.y, "mse")
            norms = self.model.squared_norm() / self.depth
        rows = [
            (i, step, float(v), float(n))
            for i, (v, n) in enumerate(zip(loss.cpu().numpy(), norms.cpu().numpy(), strict=True))
        ]
        self.rows.extend(rows)
        if self.file is not None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            new = not self.file.exists()
            pd.DataFrame(rows, columns=COLUMNS).to_csv(self.file, mode="a", header=new, index=False)

    def table(self) -> pd.DataFrame:
        """One row per network and traced step; a resumed job traces again the steps between its
        last save and its stop (the same values), kept once."""
        trace = pd.DataFrame(self.rows, columns=COLUMNS).astype({"network": int, "step": int})
        trace = trace.drop_duplicates(["network", "step"], keep="last")
        return trace.sort_values(["network", "step"], ignore_index=True)
