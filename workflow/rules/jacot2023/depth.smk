# ------------------------------------------------------------------------------ depth sweep

J23_DEPTH = J23["depth"]
# One job per (depth, N): its seeds trained together.
J23_DEPTH_RUN = (
    f"jacot2023/depth/{J23_TASK_ID}/w{J23_DEPTH['width']}_d{{depth}}_n{{n_train}}"
    f"_lam{fmt_lam(J23_DEPTH['lam'])}_s{seed_range(0, config['seeds'])}"
)
J23_DEPTH_RUNS = [
    J23_DEPTH_RUN.format(depth=d, n_train=n)
    for n in sorted(J23_DEPTH["n_train"])
    for d in sorted(J23_DEPTH["depths"])
]


# One thread: a sweep has many such jobs, and two of them side by side on two cores
# do more than one job on both (a second thread speeds one job up 1.05-1.8x).
training_rule(
    "train_jacot2023_depth",
    script_name="train_jacot2023_regression",
    job=f"{J23_DEPTH_RUN}/train",
    outputs={
        "checkpoint": f"results/{J23_DEPTH_RUN}/model.pt",
        "runs": f"results/{J23_DEPTH_RUN}/runs.csv",
        "trace": f"results/{J23_DEPTH_RUN}/trace.csv",
    },
    constraints={
        "depth": "|".join(map(str, J23_DEPTH["depths"])),
        "n_train": "|".join(map(str, J23_DEPTH["n_train"])),
    },
)


# Each (depth, N) job's networks carried on to a stationary point of their objective, as Fig.
# 1's are: the statements about minima read these, Remark 5's about training the schedule's.
J23_DEPTH_POLISHED = f"{J23_DEPTH_RUN}/polish{J23_DEPTH['polish_iterations']}"
J23_DEPTH_POLISHES = [
    J23_DEPTH_POLISHED.format(depth=d, n_train=n)
    for n in sorted(J23_DEPTH["n_train"])
    for d in sorted(J23_DEPTH["depths"])
]


training_rule(
    "polish_jacot2023_depth",
    script_name="polish_jacot2023_regression",
    job=f"{J23_DEPTH_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_depth.output.checkpoint,
        "runs": rules.train_jacot2023_depth.output.runs,
    },
    outputs={
        "checkpoint": f"results/{J23_DEPTH_POLISHED}/model.pt",
        "runs": f"results/{J23_DEPTH_POLISHED}/runs.csv",
        "certificate": f"results/{J23_DEPTH_POLISHED}/certificate.csv",
    },
    constraints={
        "depth": "|".join(map(str, J23_DEPTH["depths"])),
        "n_train": "|".join(map(str, J23_DEPTH["n_train"])),
    },
)


rule aggregate_jacot2023_depth:
    input:
        registry=claims_registry("jacot2023_depth"),
        checkpoints=[f"results/{run}/model.pt" for run in J23_DEPTH_RUNS],
        runs=[f"results/{run}/runs.csv" for run in J23_DEPTH_RUNS],
        polished=[f"results/{run}/model.pt" for run in J23_DEPTH_POLISHES],
        polished_runs=[f"results/{run}/runs.csv" for run in J23_DEPTH_POLISHES],
        certificates=[f"results/{run}/certificate.csv" for run in J23_DEPTH_POLISHES],
        code=script_code("aggregate_jacot2023_depth"),
    output:
        sweep=f"results/jacot2023/depth/{J23_TASK_ID}/sweep.csv",
        polished_sweep=(
            f"results/jacot2023/depth/{J23_TASK_ID}/"
            f"sweep_polished{J23_DEPTH['polish_iterations']}.csv"
        ),
        claims=claims_rows("jacot2023_depth"),
    log:
        f"logs/jacot2023/depth/{J23_TASK_ID}/aggregate.log",
    localrule: True
    conda:
        ENV
    script:
        "../../scripts/aggregate_jacot2023_depth.py"


register_target(
    "jacot2023_depth",
    "jacot2023 Section 4 (no figure): learned rank and ||W||^2/L against depth, two data sizes",
    tables=dict(
        sweep=rules.aggregate_jacot2023_depth.output.sweep,
    ),
    true_rank=J23_TASK["true_rank"],
)
