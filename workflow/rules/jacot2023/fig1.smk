# ------------------------------------------------------------------------------ Fig. 1

J23_FIG1 = J23["fig1"]
# The claims' seeds, trained together in one job; the figure draws the first.
J23_FIG1_SEEDS = seeds_from(config, J23_FIG1["seed"])
J23_FIG1_RUN = "jacot2023/fig1/{task}/w{width}_d{depth}_n{n_train}_lam{lam}_s{seeds}".format(
    task=J23_TASK_ID,
    seeds=seed_range(J23_FIG1["seed"], config["seeds"]),
    **J23_FIG1 | {"lam": fmt_lam(J23_FIG1["lam"])},
)


# One thread, so that it runs beside the one-thread sweeps instead of waiting for both
# cores to be free (which on two cores left it running alone at the end of the build);
# first, being the build's longest job.
training_rule(
    "train_jacot2023_fig1",
    script_name="train_jacot2023_regression",
    job=f"{J23_FIG1_RUN}/train",
    outputs={
        "checkpoint": f"results/{J23_FIG1_RUN}/model.pt",
        "runs": f"results/{J23_FIG1_RUN}/runs.csv",
        "trace": f"results/{J23_FIG1_RUN}/trace.csv",
    },
    first=True,
)


# The same networks carried on to a stationary point of their objective (l2relu.training.polish),
# one job a seed: the statements about minima read these, the paper's training's the schedule's.
J23_FIG1_POLISHED = "{run}/polish{iterations}/s{{seed}}".format(
    run=J23_FIG1_RUN, iterations=J23_FIG1["polish_iterations"]
)


training_rule(
    "polish_jacot2023_fig1",
    script_name="polish_jacot2023_regression",
    job=f"{J23_FIG1_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig1.output.checkpoint,
        "runs": rules.train_jacot2023_fig1.output.runs,
    },
    outputs={
        "checkpoint": f"results/{J23_FIG1_POLISHED}/model.pt",
        "runs": f"results/{J23_FIG1_POLISHED}/runs.csv",
        "certificate": f"results/{J23_FIG1_POLISHED}/certificate.csv",
    },
    constraints={
        "seed": "|".join(map(str, J23_FIG1_SEEDS)),
    },
    first=True,
)


rule analyze_jacot2023_fig1:
    input:
        registry=claims_registry("jacot2023_fig1"),
        checkpoint=rules.train_jacot2023_fig1.output.checkpoint,
        runs=rules.train_jacot2023_fig1.output.runs,
        trace=rules.train_jacot2023_fig1.output.trace,
        polished=expand(rules.polish_jacot2023_fig1.output.checkpoint, seed=J23_FIG1_SEEDS),
        polished_runs=expand(rules.polish_jacot2023_fig1.output.runs, seed=J23_FIG1_SEEDS),
        certificate=expand(rules.polish_jacot2023_fig1.output.certificate, seed=J23_FIG1_SEEDS),
        code=script_code("analyze_jacot2023_fig1"),
    output:
        spectra=f"results/{J23_FIG1_RUN}/spectra.csv",
        layers=f"results/{J23_FIG1_RUN}/layers.csv",
        claims=claims_rows("jacot2023_fig1"),
    log:
        f"logs/{J23_FIG1_RUN}/analyze.log",
    localrule: True
    conda:
        ENV
    params:
        analysis={k: J23_FIG1[k] for k in ("n_values", "rank_rel_tol")},
    script:
        "../../scripts/analyze_jacot2023_fig1.py"


register_target(
    "jacot2023_fig1",
    "jacot2023 Fig. 1: singular values and nonlinearity per layer of a depth-13 network, rank-k task",
    tables=dict(
        spectra=rules.analyze_jacot2023_fig1.output.spectra,
        layers=rules.analyze_jacot2023_fig1.output.layers,
        runs=rules.train_jacot2023_fig1.output.runs,
    ),
    true_rank=J23_TASK["true_rank"],
)
