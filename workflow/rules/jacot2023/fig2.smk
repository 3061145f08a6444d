# ------------------------------------------------------------------------------ Fig. 2

J23_FIG2 = J23["fig2"]
J23_FIG2_DATA = fig2_data(config)
# A seed draws the data set and the initializations: one data set per seed of the claims, the
# figure draws the first.
J23_FIG2_SEEDS = seeds_from(config, J23_FIG2["seed"])
J23_FIG2_SET = (
    "{shape}_c{classes}_n{per_class}_a{amplitude}_sp{spacing}_noise{noise}_s{{seed}}"
).format(**J23_FIG2)
J23_FIG2_RUN = (
    f"jacot2023/fig2/{J23_FIG2_SET}/w{J23_FIG2['width']}_d{{depth}}"
    f"_lam{'+'.join(fmt_lam(v) for v in J23_FIG2['lams'])}"
)
J23_FIG2_DEPTHS = (J23_FIG2["shallow_depth"], J23_FIG2["deep_depth"])
J23_FIG2_ALL = J23_FIG2_SET.format(seed=seed_range(J23_FIG2["seed"], config["seeds"]))


training_rule(
    "train_jacot2023_fig2",
    script_name="train_jacot2023_fig2",
    job=J23_FIG2_RUN,
    outputs={
        "regions": f"results/{J23_FIG2_RUN}/regions.csv",
        "summary": f"results/{J23_FIG2_RUN}/summary.csv",
        "checkpoint": f"results/{J23_FIG2_RUN}/model.pt",
    },
    constraints={
        "depth": "|".join(map(str, J23_FIG2_DEPTHS)),
        "seed": "|".join(map(str, J23_FIG2_SEEDS)),
    },
)


# The networks trained with L2 carried on to a stationary point of their objective
# (l2relu.training.polish): the ledger reads the paper's observations on the schedule's networks,
# these beside them.
J23_FIG2_POLISHED = f"{J23_FIG2_RUN}/polish{J23_FIG2['polish_iterations']}"
J23_FIG2_EVERY = {"depth": J23_FIG2_DEPTHS, "seed": J23_FIG2_SEEDS}


training_rule(
    "polish_jacot2023_fig2",
    script_name="polish_jacot2023_fig2",
    job=f"{J23_FIG2_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig2.output.checkpoint,
    },
    outputs={
        "checkpoint": f"results/{J23_FIG2_POLISHED}/model.pt",
        "regions": f"results/{J23_FIG2_POLISHED}/regions.csv",
        "summary": f"results/{J23_FIG2_POLISHED}/summary.csv",
        "certificate": f"results/{J23_FIG2_POLISHED}/certificate.csv",
    },
    constraints={
        "depth": "|".join(map(str, J23_FIG2_DEPTHS)),
        "seed": "|".join(map(str, J23_FIG2_SEEDS)),
    },
)


rule aggregate_jacot2023_fig2:
    input:
        registry=claims_registry("jacot2023_fig2"),
        summaries=expand(rules.train_jacot2023_fig2.output.summary, **J23_FIG2_EVERY),
        regions=expand(rules.train_jacot2023_fig2.output.regions, **J23_FIG2_EVERY),
        polished_summaries=expand(rules.polish_jacot2023_fig2.output.summary, **J23_FIG2_EVERY),
        polished_regions=expand(rules.polish_jacot2023_fig2.output.regions, **J23_FIG2_EVERY),
        certificates=expand(rules.polish_jacot2023_fig2.output.certificate, **J23_FIG2_EVERY),
        code=script_code("aggregate_jacot2023_fig2"),
    output:
        points=f"results/jacot2023/fig2/{J23_FIG2_ALL}/points.csv",
        summary=f"results/jacot2023/fig2/{J23_FIG2_ALL}/summary.csv",
        polished=f"results/jacot2023/fig2/{J23_FIG2_ALL}/polished.csv",
        claims=claims_rows("jacot2023_fig2"),
    log:
        f"logs/jacot2023/fig2/{J23_FIG2_ALL}/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        # the drawn seed's data
        data=J23_FIG2_DATA | {"seed": J23_FIG2_SEEDS[0]},
        depths={"shallow": J23_FIG2["shallow_depth"], "deep": J23_FIG2["deep_depth"]},
    script:
        "../../scripts/aggregate_jacot2023_fig2.py"


register_target(
    "jacot2023_fig2",
    "jacot2023 Fig. 2: class regions of shallow and deep networks, with and without L2",
    tables=dict(
        regions=[
            rules.train_jacot2023_fig2.output.regions.format(depth=d, seed=J23_FIG2_SEEDS[0])
            for d in J23_FIG2_DEPTHS
        ],
        points=rules.aggregate_jacot2023_fig2.output.points,
        summary=rules.aggregate_jacot2023_fig2.output.summary,
        polished_regions=[
            rules.polish_jacot2023_fig2.output.regions.format(depth=d, seed=J23_FIG2_SEEDS[0])
            for d in J23_FIG2_DEPTHS
        ],
        polished=rules.aggregate_jacot2023_fig2.output.polished,
    ),
)
