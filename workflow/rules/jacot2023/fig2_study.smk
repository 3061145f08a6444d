# ------------------------------------------------------------------------------ Fig. 2 study

J23_FIG2_STUDY = J23["fig2_study"]
J23_FIG2_STUDY_FAMILIES = fig2_study_families(config)
J23_FIG2_STUDY_SEEDS = seed_list(J23_FIG2["seed"], J23_FIG2_STUDY["n_seeds"])
# the hidden width at each depth: Fig. 2's, but at Fig. 2's shallow depth the study's own
J23_FIG2_STUDY_WIDTHS = {
    d: J23_FIG2_STUDY["shallow_width"] if d == J23_FIG2["shallow_depth"] else J23_FIG2["width"]
    for d in J23_FIG2_STUDY["depths"]
}
# One job per (family, depth): every seed and lambda of it trained together.
J23_FIG2_STUDY_SET = (
    "{{family}}_c{classes}_n{per_class}_noise{noise}_margin{margin}_s{seeds}".format(
        seeds=seed_range(J23_FIG2["seed"], J23_FIG2_STUDY["n_seeds"]),
        margin=J23_FIG2_STUDY["margin"],
        **J23_FIG2,
    )
)
J23_FIG2_STUDY_RUN = (
    f"jacot2023/fig2_study/{J23_FIG2_STUDY_SET}/w{{width}}_d{{depth}}"
    f"_lam{'+'.join(fmt_lam(v) for v in J23_FIG2['lams'])}"
)
# the (family, depth) jobs, each at its depth's width
J23_FIG2_STUDY_JOBS = [
    {"family": family, "depth": depth, "width": width}
    for family in J23_FIG2_STUDY_FAMILIES
    for depth, width in J23_FIG2_STUDY_WIDTHS.items()
]
# what the aggregation writes, under results/ and (its log) logs/
J23_FIG2_STUDY_ALL = f"jacot2023/fig2_study/{J23_FIG2_STUDY_SET.format(family='all')}"


training_rule(
    "train_jacot2023_fig2_study",
    script_name="train_jacot2023_fig2_study",
    job=J23_FIG2_STUDY_RUN,
    outputs={
        "networks": f"results/{J23_FIG2_STUDY_RUN}/networks.csv",
        "tripoints": f"results/{J23_FIG2_STUDY_RUN}/tripoints.csv",
        "maps": f"results/{J23_FIG2_STUDY_RUN}/maps.npz",
        "checkpoint": f"results/{J23_FIG2_STUDY_RUN}/model.pt",
    },
    constraints={
        "family": "|".join(J23_FIG2_STUDY_FAMILIES),
        "depth": "|".join(map(str, J23_FIG2_STUDY["depths"])),
    },
)


# The networks trained with L2 carried on to a stationary point of their objective
# (l2relu.training.polish), each on its seed's data: the ledger reads the study on both.
J23_FIG2_STUDY_POLISHED = f"{J23_FIG2_STUDY_RUN}/polish{J23_FIG2_STUDY['polish_iterations']}"


training_rule(
    "polish_jacot2023_fig2_study",
    script_name="polish_jacot2023_fig2_study",
    job=f"{J23_FIG2_STUDY_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig2_study.output.checkpoint,
    },
    outputs={
        "checkpoint": f"results/{J23_FIG2_STUDY_POLISHED}/model.pt",
        "networks": f"results/{J23_FIG2_STUDY_POLISHED}/networks.csv",
        "tripoints": f"results/{J23_FIG2_STUDY_POLISHED}/tripoints.csv",
        "maps": f"results/{J23_FIG2_STUDY_POLISHED}/maps.npz",
        "certificate": f"results/{J23_FIG2_STUDY_POLISHED}/certificate.csv",
    },
    constraints={
        "family": "|".join(J23_FIG2_STUDY_FAMILIES),
        "depth": "|".join(map(str, J23_FIG2_STUDY["depths"])),
    },
)


rule aggregate_jacot2023_fig2_study:
    input:
        networks=for_each_job(rules.train_jacot2023_fig2_study.output.networks, J23_FIG2_STUDY_JOBS),
        tripoints=for_each_job(
            rules.train_jacot2023_fig2_study.output.tripoints, J23_FIG2_STUDY_JOBS
        ),
        maps=for_each_job(rules.train_jacot2023_fig2_study.output.maps, J23_FIG2_STUDY_JOBS),
        polished_networks=for_each_job(
            rules.polish_jacot2023_fig2_study.output.networks, J23_FIG2_STUDY_JOBS
        ),
        polished_tripoints=for_each_job(
            rules.polish_jacot2023_fig2_study.output.tripoints, J23_FIG2_STUDY_JOBS
        ),
        certificates=for_each_job(
            rules.polish_jacot2023_fig2_study.output.certificate, J23_FIG2_STUDY_JOBS
        ),
        registry=claims_registry("jacot2023_fig2_study"),
        code=script_code("aggregate_jacot2023_fig2_study"),
    output:
        networks=f"results/{J23_FIG2_STUDY_ALL}/networks.csv",
        tripoints=f"results/{J23_FIG2_STUDY_ALL}/tripoints.csv",
        maps=f"results/{J23_FIG2_STUDY_ALL}/maps.npz",
        points=f"results/{J23_FIG2_STUDY_ALL}/points.csv",
        polished=f"results/{J23_FIG2_STUDY_ALL}/polished.csv",
        polished_tripoints=f"results/{J23_FIG2_STUDY_ALL}/polished_tripoints.csv",
        claims=claims_rows("jacot2023_fig2_study"),
    log:
        f"logs/{J23_FIG2_STUDY_ALL}/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        families=J23_FIG2_STUDY["families"],
        seeds=J23_FIG2_STUDY_SEEDS,
        margin=J23_FIG2_STUDY["margin"],
        data={k: J23_FIG2[k] for k in ("classes", "per_class", "noise")},
        depths={"shallow": J23_FIG2["shallow_depth"], "deep": J23_FIG2["deep_depth"]},
    script:
        "../../scripts/aggregate_jacot2023_fig2_study.py"


register_target(
    "jacot2023_fig2_study",
    "jacot2023 Fig. 2 study: tripoints over many seeds, three S families, boxes 1x to 3x",
    tables=dict(
        networks=rules.aggregate_jacot2023_fig2_study.output.networks,
        tripoints=rules.aggregate_jacot2023_fig2_study.output.tripoints,
        maps=rules.aggregate_jacot2023_fig2_study.output.maps,
        points=rules.aggregate_jacot2023_fig2_study.output.points,
        polished=rules.aggregate_jacot2023_fig2_study.output.polished,
        polished_tripoints=rules.aggregate_jacot2023_fig2_study.output.polished_tripoints,
    ),
    shallow_depth=J23_FIG2["shallow_depth"],
    deep_depth=J23_FIG2["deep_depth"],
)
