"""Every PyTorch training job of a config at its real shape: the rule that runs it, the networks
it trains together, their layer widths, the data points, the loss, the float type and its phases.
Read by the paper-cost estimate and the engine benchmark, so both time the jobs the workflow runs.
"""

import itertools
from dataclasses import dataclass
from pathlib import Path

import yaml

from l2relu.configcheck import overlay
from l2relu.jacot2022.sweeps import plateau_widths

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Job:
    rule: str  # the Snakemake rule that trains it
    target: str  # the figure target it serves
    name: str  # which job of the rule
    batch: int  # networks trained together
    widths: tuple[int, ...]  # layer widths, input to output
    n_points: int
    # (optimizer, steps, halving GD) in order, as engine.Phase has them
    phases: tuple[tuple[str, int, bool], ...]
    loss: str = "mse"  # engine.network_losses' name
    bias: bool = True
    dtype: str = "float64"

    @property
    def steps(self) -> int:
        return sum(steps for _, steps, _ in self.phases)

    def flops_per_step(self) -> float:
        """Forward (2), backward (4) multiply-adds of every layer's product, every network."""
        weights = sum(a * b for a, b in zip(self.widths[:-1], self.widths[1:], strict=True))
        return 6.0 * self.batch * self.n_points * weights


def scale_config(scale: str) -> dict:
    """The merged config of a scale: config.yaml, then config/<scale>.yaml over it."""
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    if scale != "default":
        config = overlay(config, yaml.safe_load((REPO / f"config/{scale}.yaml").read_text()))
    return config


def _from_config(phases) -> tuple:
    """A config's phase list, as engine.phases_from_config reads it (GD halves on a rise)."""
    return tuple((p["optimizer"], p["steps"], p["optimizer"] == "gd") for p in phases)


def training_jobs(c: dict) -> list[Job]:
    jobs = []
    t = c["timor2022"]["theory"]
    deep, teacher = t["deep"], t["teacher"]
    for thm in (4, 5):
        for depth in deep["depths"]:
            jobs.append(
                Job(
                    "train_timor2022_deep",
                    "timor2022_theory",
                    f"thm{thm} L={depth}",
                    deep["restarts"] * c["seeds"],
                    (teacher["input_dim"], *[deep["width"]] * (depth - 1), 1),
                    teacher["n_points"],
                    (("adam", deep["adam_steps"], False), ("gd", deep["gd_steps"], False)),
                    "mse_half_sum" if thm == 4 else "logistic",
                    bias=False,
                )
            )
    j = c["jacot2022"]
    f1 = j["fig1"]
    jobs += [
        Job(
            "train_jacot2022_fig1",
            "jacot2022_fig1",
            f"GD seed {seed}",
            1,
            (784, f1["width"], f1["width"], len(f1["digits"])),
            f1["n_train"],
            (("gd", f1["steps"], False),),
            "cross_entropy",
        )
        for seed in range(c["seeds"])
    ]
    f2 = j["fig2"]
    for width in f2["widths"]:
        for dataset, loss, d_in, d_out in (
            ("mnist", "cross_entropy", 784, 10),
            ("teacher", "mse", f2["teacher"]["widths"][0], f2["teacher"]["widths"][-1]),
        ):
            p = f2[dataset]
            jobs.append(
                Job(
                    "train_jacot2022_fig2",
                    "jacot2022_fig2",
                    f"{dataset} w={width}",
                    len(p["lams"]) * c["seeds"],
                    (d_in, width, width, d_out),
                    p["n_train"],
                    (("adam", p["adam_steps"], False), ("gd", p["gd_steps"], True)),
                    loss,
                    dtype=f2["dtype"],
                )
            )
    th = j["theory"]
    for setting, sizes in (
        ("bipartite", th["bipartite_N"]),
        ("onehot", th["onehot_N"]),
        ("oned", th["oned_N"]),
    ):
        for n in sizes:
            d_in, d_out = {
                "bipartite": (n, n),
                "onehot": (n, th["onehot_classes"]),
                "oned": (1, 1),
            }[setting]
            # one job per data set: all its widths in one batch, padded to the widest, every
            # seed's batch in turn
            widths = plateau_widths(setting, n, th["onehot_classes"])
            seeds = c["seeds"]
            jobs.append(
                Job(
                    "train_jacot2022_plateau",
                    "jacot2022_theory",
                    f"{setting} N={n}, {seeds} seeds in turn",
                    th["restarts"] * len(widths),
                    (d_in, max(widths), d_out),
                    n,
                    (("adam", 2 * th["steps"] * seeds, False), ("gd", th["steps"] * seeds, False)),
                    bias=setting == "oned",
                )
            )
    ch = c["chen2024"]["theory"]
    for m, q in ch["dims"]:
        jobs.append(
            Job(
                "train_chen2024_gd",
                "chen2024_theory",
                f"M={m} Q={q}",
                ch["gd_restarts"],
                (m, *[m] * q, q),
                q * min(ch["per_class"]),
                (("adam", ch["gd_adam_steps"], False), ("gd", ch["gd_steps"], True)),
                "mse_half_sum",
            )
        )
    k = c["jacot2023"]
    task = k["task"]

    def deep_net(depth, width):
        return (task["d_in"], *[width] * (depth - 1), task["d_out"])

    f1 = k["fig1"]
    jobs.append(
        Job(
            "train_jacot2023_fig1",
            "jacot2023_fig1",
            f"L={f1['depth']}",
            c["seeds"],
            deep_net(f1["depth"], f1["width"]),
            f1["n_train"],
            _from_config(f1["phases"]),
            dtype="float32",
        )
    )
    d = k["depth"]
    for depth in d["depths"]:
        for n in d["n_train"]:
            jobs.append(
                Job(
                    "train_jacot2023_depth",
                    "jacot2023_depth",
                    f"L={depth} N={n}",
                    c["seeds"],
                    deep_net(depth, d["width"]),
                    n,
                    _from_config(d["phases"]),
                    dtype="float32",
                )
            )
    f2 = k["fig2"]
    for depth, seed in itertools.product(
        (f2["shallow_depth"], f2["deep_depth"]), range(c["seeds"])
    ):
        jobs.append(
            Job(
                "train_jacot2023_fig2",
                "jacot2023_fig2",
                f"L={depth} seed {seed}",
                len(f2["lams"]),
                (2, *[f2["width"]] * (depth - 1), f2["classes"]),
                f2["classes"] * f2["per_class"],
                _from_config(f2["phases"]),
                "cross_entropy",
            )
        )
    f3 = k["fig3"]
    for kind in ("deep", "shallow"):  # one job per architecture, every seed's curve together
        a = f3["curve"][kind]
        jobs.append(
            Job(
                "train_jacot2023_fig3_curve",
                "jacot2023_fig3",
                f"curve {kind}",
                c["seeds"],
                (2, *[a["width"]] * (a["depth"] - 1), 2),
                f3["curve"]["n_train"],
                _from_config(f3["curve"]["phases"]),
            )
        )
    for kind, seed in itertools.product(("deep", "shallow"), range(c["seeds"])):
        a = f3["mnist"][kind]
        jobs.append(
            Job(
                "train_jacot2023_fig3_mnist",
                "jacot2023_fig3",
                f"mnist {kind} seed {seed}",
                1,
                (784, *[a["width"]] * (a["depth"] - 1), 784),
                f3["mnist"]["n_train"],
                _from_config(f3["mnist"]["phases"]),
                dtype="float32",
            )
        )
    return jobs
