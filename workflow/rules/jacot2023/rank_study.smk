# ------------------------------------------------------------------------------ rank study

J23_RANK = J23["rank_study"]
# Fig. 1's network and data size; every lambda (a multiple of Fig. 1's) and seed of one (data
# scale, depth) trained together
J23_RANK_FIT = "w{width}_n{n_train}_lam{lam}x{factors}_s{seeds}".format(
    width=J23_FIG1["width"],
    n_train=J23_FIG1["n_train"],
    lam=fmt_lam(J23_FIG1["lam"]),
    factors="+".join(fmt_lam(f) for f in J23_RANK["lam_factors"]),
    seeds=seed_range(J23_FIG1["seed"], J23_RANK["n_seeds"]),
)
J23_RANK_RUN = f"jacot2023/rank_study/{J23_TASK_ID}_{{scale}}/d{{depth}}_{J23_RANK_FIT}"
# the extra depth, in the setting the selection rule picks from the deepest swept depth's runs
J23_RANK_SELECTED = (
    f"jacot2023/rank_study/{J23_TASK_ID}_selected/d{J23_RANK['extra_depth']}_{J23_RANK_FIT}"
)
J23_RANK_DEEPEST = max(J23_RANK["depths"])


training_rule(
    "train_jacot2023_rank_study",
    script_name="train_jacot2023_rank_study",
    job=f"{J23_RANK_RUN}/train",
    outputs={
        "checkpoint": f"results/{J23_RANK_RUN}/model.pt",
        "runs": f"results/{J23_RANK_RUN}/runs.csv",
        "trace": f"results/{J23_RANK_RUN}/trace.csv",
    },
    constraints={
        "scale": "|".join(J23_RANK["scales"]),
        "depth": "|".join(map(str, J23_RANK["depths"])),
    },
)


rule select_jacot2023_rank_study_setting:
    input:
        runs=expand(
            rules.train_jacot2023_rank_study.output.runs,
            scale=J23_RANK["scales"],
            depth=J23_RANK_DEEPEST,
        ),
        code=script_code("select_jacot2023_rank_study_setting"),
    output:
        setting=f"results/{J23_RANK_SELECTED}/setting.json",
    log:
        f"logs/{J23_RANK_SELECTED}/select.log",
    localrule: True
    conda:
        ENV
    params:
        paper_norm=claim_value("jacot2023.rankstudy.norm_per_layer"),
        fit_bar=claim_ceiling("jacot2023.rankstudy.fits"),
    script:
        "../../scripts/select_jacot2023_rank_study_setting.py"


training_rule(
    "train_jacot2023_rank_study_selected",
    script_name="train_jacot2023_rank_study",
    job=f"{J23_RANK_SELECTED}/train",
    inputs={
        "setting": rules.select_jacot2023_rank_study_setting.output.setting,
    },
    outputs={
        "checkpoint": f"results/{J23_RANK_SELECTED}/model.pt",
        "runs": f"results/{J23_RANK_SELECTED}/runs.csv",
        "trace": f"results/{J23_RANK_SELECTED}/trace.csv",
    },
)


J23_RANK_SWEPT = expand(J23_RANK_RUN, scale=J23_RANK["scales"], depth=J23_RANK["depths"]) + [
    J23_RANK_SELECTED
]
# Every network of each run carried on to a stationary point of its objective
# (l2relu.training.polish), one job a run (either training rule's): the Jacobian's rank, stated at
# minima, reads these.
J23_RANK_POLISHED = "{{run}}/polish{iterations}".format(iterations=J23_RANK["polish_iterations"])


training_rule(
    "polish_jacot2023_rank_study",
    script_name="polish_jacot2023_rank_study",
    job=f"{J23_RANK_POLISHED}/polish",
    inputs={
        "checkpoint": "results/{run}/model.pt",
        "runs": "results/{run}/runs.csv",
    },
    outputs={
        "checkpoint": f"results/{J23_RANK_POLISHED}/model.pt",
        "runs": f"results/{J23_RANK_POLISHED}/runs.csv",
        "certificate": f"results/{J23_RANK_POLISHED}/certificate.csv",
    },
    constraints={
        "run": "|".join(map(re.escape, J23_RANK_SWEPT)),
    },
)


rule aggregate_jacot2023_rank_study:
    input:
        checkpoints=[f"results/{run}/model.pt" for run in J23_RANK_SWEPT],
        runs=[f"results/{run}/runs.csv" for run in J23_RANK_SWEPT],
        traces=[f"results/{run}/trace.csv" for run in J23_RANK_SWEPT],
        polished=expand(rules.polish_jacot2023_rank_study.output.checkpoint, run=J23_RANK_SWEPT),
        polished_runs=expand(rules.polish_jacot2023_rank_study.output.runs, run=J23_RANK_SWEPT),
        certificates=expand(
            rules.polish_jacot2023_rank_study.output.certificate, run=J23_RANK_SWEPT
        ),
        registry=claims_registry("jacot2023_rank_study"),
        code=script_code("aggregate_jacot2023_rank_study"),
    output:
        networks=f"results/jacot2023/rank_study/{J23_TASK_ID}_{J23_RANK_FIT}/networks.csv",
        polished=f"results/jacot2023/rank_study/{J23_TASK_ID}_{J23_RANK_FIT}/polished.csv",
        traces=f"results/jacot2023/rank_study/{J23_TASK_ID}_{J23_RANK_FIT}/traces.csv",
        claims=claims_rows("jacot2023_rank_study"),
    log:
        f"logs/jacot2023/rank_study/{J23_TASK_ID}_{J23_RANK_FIT}/aggregate.log",
    conda:
        ENV
    params:
        n_test=J23_KRR["n_test"],
        selected_depth=J23_RANK["extra_depth"],
    script:
        "../../scripts/aggregate_jacot2023_rank_study.py"


register_target(
    "jacot2023_rank_study",
    "jacot2023 rank study: ||W||^2/L and the rank of Fig. 1's task over data scale, lambda and depth",
    tables=dict(
        networks=rules.aggregate_jacot2023_rank_study.output.networks,
        polished=rules.aggregate_jacot2023_rank_study.output.polished,
        traces=rules.aggregate_jacot2023_rank_study.output.traces,
    ),
    true_rank=J23_TASK["true_rank"],
    paper_norm=claim_value("jacot2023.rankstudy.norm_per_layer"),
    fit_bar=claim_ceiling("jacot2023.rankstudy.fits"),
    settle_bar=claim_ceiling("jacot2023.rankstudy.stationary"),
)
