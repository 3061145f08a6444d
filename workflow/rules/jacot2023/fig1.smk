# ------------------------------------------------------------------------------ Fig. 1

J23_FIG1 = J23["fig1"]
# The claims' seeds, trained together in one job; the figure draws the first.
J23_FIG1_SEEDS = seeds_from(J23_FIG1["seed"])
J23_FIG1_RUN = "jacot2023/fig1/{task}/w{width}_d{depth}_n{n_train}_lam{lam}_s{seeds}".format(
    task=J23_TASK_ID,
    seeds=seed_range(J23_FIG1["seed"], config["seeds"]),
    **J23_FIG1 | {"lam": fmt_lam(J23_FIG1["lam"])},
)


rule train_jacot2023_fig1:
    input:
        code=script_code("train_jacot2023_regression"),
    output:
        checkpoint=f"results/{J23_FIG1_RUN}/model.pt",
        runs=f"results/{J23_FIG1_RUN}/runs.csv",
        trace=f"results/{J23_FIG1_RUN}/trace.csv",
    log:
        job_log(f"{J23_FIG1_RUN}/train"),
    benchmark:
        job_benchmark("train_jacot2023_fig1", f"{J23_FIG1_RUN}/train")
    priority: 1
    conda:
        ENV
    # One thread, so that it runs beside the one-thread sweeps instead of waiting for both
    # cores to be free (which on two cores left it running alone at the end of the build);
    # first, being the build's longest job.
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig1"),
    params:
        resume=resume_dir,
        task=J23_TASK,
        fit=fit_params(J23_FIG1, J23_FIG1["depth"], J23_FIG1["n_train"], J23_FIG1_SEEDS),
        device=config["device"],
    script:
        "../../scripts/train_jacot2023_regression.py"


# The same networks carried on to a stationary point of their objective (l2relu.polish), one
# job a seed: the statements about minima read these, the paper's training's the schedule's.
J23_FIG1_POLISHED = "{run}/polish{iterations}/s{{seed}}".format(
    run=J23_FIG1_RUN, iterations=J23_FIG1["polish_iterations"]
)


rule polish_jacot2023_fig1:
    input:
        checkpoint=rules.train_jacot2023_fig1.output.checkpoint,
        runs=rules.train_jacot2023_fig1.output.runs,
        code=script_code("polish_jacot2023_regression"),
    output:
        checkpoint=f"results/{J23_FIG1_POLISHED}/model.pt",
        runs=f"results/{J23_FIG1_POLISHED}/runs.csv",
        certificate=f"results/{J23_FIG1_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_FIG1_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_fig1", f"{J23_FIG1_POLISHED}/polish")
    wildcard_constraints:
        seed="|".join(map(str, J23_FIG1_SEEDS)),
    priority: 1
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        seeds=lambda wc: [int(wc.seed)],
        iterations=J23_FIG1["polish_iterations"],
        device=config["device"],
    script:
        "../../scripts/polish_jacot2023_regression.py"


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
