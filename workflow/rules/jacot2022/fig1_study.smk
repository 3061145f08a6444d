# ------------------------------------------------------------------------------ Fig. 1 study

J22_STUDY = config["jacot2022"]["fig1_study"]
J22_STUDY_SEEDS = seed_range(J22_FIG1["seed"], J22_STUDY["n_seeds"])
# One job per setting (inputs, lambda, GD schedule): every seed of it trained together.
J22_STUDY_RUN = (
    "jacot2022/fig1_study/{{inputs}}/w{width}_d3_lam{{lam}}_lr{{lr}}_t{{steps}}_s{seeds}".format(
        width=J22_FIG1["width"], seeds=J22_STUDY_SEEDS
    )
)
J22_STUDY_LAMS = fig1_study_lams(config)
J22_STUDY_SCHEDULES = fig1_study_schedules(config)
# every setting's wildcards, for the aggregation's inputs
J22_STUDY_SETTINGS = dict(
    zip(
        ("inputs", "lam", "lr", "steps"),
        zip(
            *[
                (inputs, lam, lr, steps)
                for inputs in J22_STUDY["inputs"]
                for lam in J22_STUDY_LAMS
                for lr, steps in J22_STUDY_SCHEDULES
            ]
        ),
    )
)

# the settings' wildcards, each value once in the config's order (a set's order would move
# with the interpreter's hash seed)
J22_STUDY_CONSTRAINTS = {
    "inputs": "|".join(J22_STUDY["inputs"]),
    "lam": "|".join(map(re.escape, J22_STUDY_LAMS)),
    "lr": "|".join(map(re.escape, dict.fromkeys(lr for lr, _ in J22_STUDY_SCHEDULES))),
    "steps": "|".join(dict.fromkeys(steps for _, steps in J22_STUDY_SCHEDULES)),
}

training_rule(
    "train_jacot2022_fig1_study",
    script_name="train_jacot2022_fig1_study",
    job=f"{J22_STUDY_RUN}/train",
    inputs={
        "data": J22_FIG1_DATA,
    },
    outputs={
        "checkpoint": f"results/{J22_STUDY_RUN}/model.pt",
        "runs": f"results/{J22_STUDY_RUN}/runs.csv",
    },
    constraints=J22_STUDY_CONSTRAINTS,
)


# Every setting's networks carried on to a stationary point of their objective
# (l2relu.training.polish): the ledger reads the paper's observations on the schedule's networks,
# these beside them.
J22_STUDY_POLISHED = f"{J22_STUDY_RUN}/polish{J22_STUDY['polish_iterations']}"


training_rule(
    "polish_jacot2022_fig1_study",
    script_name="polish_jacot2022_fig1_study",
    job=f"{J22_STUDY_POLISHED}/polish",
    inputs={
        "data": J22_FIG1_DATA,
        "checkpoint": rules.train_jacot2022_fig1_study.output.checkpoint,
        "runs": rules.train_jacot2022_fig1_study.output.runs,
    },
    outputs={
        "checkpoint": f"results/{J22_STUDY_POLISHED}/model.pt",
        "runs": f"results/{J22_STUDY_POLISHED}/runs.csv",
        "certificate": f"results/{J22_STUDY_POLISHED}/certificate.csv",
    },
    constraints=J22_STUDY_CONSTRAINTS,
)


rule aggregate_jacot2022_fig1_study:
    input:
        checkpoints=expand(
            rules.train_jacot2022_fig1_study.output.checkpoint, zip, **J22_STUDY_SETTINGS
        ),
        runs=expand(rules.train_jacot2022_fig1_study.output.runs, zip, **J22_STUDY_SETTINGS),
        polished_checkpoints=expand(
            rules.polish_jacot2022_fig1_study.output.checkpoint, zip, **J22_STUDY_SETTINGS
        ),
        polished_runs=expand(
            rules.polish_jacot2022_fig1_study.output.runs, zip, **J22_STUDY_SETTINGS
        ),
        certificates=expand(
            rules.polish_jacot2022_fig1_study.output.certificate, zip, **J22_STUDY_SETTINGS
        ),
        registry=claims_registry("jacot2022_fig1_study"),
        code=script_code("aggregate_jacot2022_fig1_study"),
    output:
        networks=f"results/jacot2022/fig1_study/s{J22_STUDY_SEEDS}_networks.csv",
        polished=f"results/jacot2022/fig1_study/s{J22_STUDY_SEEDS}_polished.csv",
        claims=claims_rows("jacot2022_fig1_study"),
    log:
        f"logs/jacot2022/fig1_study/s{J22_STUDY_SEEDS}_aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        n_rays=len(J22_FIG1["digits"]),  # one ray per class, as Fig. 1
        ray_readings=readings_parameters(J22_STUDY_RAYS),
    script:
        "../../scripts/aggregate_jacot2022_fig1_study.py"


register_target(
    "jacot2022_fig1_study",
    "jacot2022 Fig. 1 study: the neurons' rays over many seeds, raw and centred inputs, several lambda and GD schedules",
    tables=dict(
        networks=rules.aggregate_jacot2022_fig1_study.output.networks,
    ),
    ray_angle_deg=reading_parameter(J22_STUDY_RAYS, "angle_deg"),
    ray_readings=readings_parameters(J22_STUDY_RAYS),
    ray_share_bar=claim_floor(J22_STUDY_RAYS),
    settled_bar=claim_ceiling("jacot2022.fig1study.rays_settled"),
)
