# ------------------------------------------------------------------------------ Fig. 1

J22_FIG1 = config["jacot2022"]["fig1"]
# the entries whose readings set the angle that puts a neuron on a ray (the figures draw the
# primary's)
J22_RAYS = "jacot2022.fig1.neurons_along_rays"
J22_STUDY_RAYS = "jacot2022.fig1study.z1_rays"
J22_FIG1_DATA = MNIST_DATA.format(**MNIST_SUBSETS["jacot2022.fig1"])
# One run per seed; the figure draws the first seed's, the ledger measures every seed.
J22_FIG1_RUN = "jacot2022/fig1/w{width}_d3_lam{lam}_s{{seed}}".format(
    width=J22_FIG1["width"], lam=fmt_lam(J22_FIG1["lam"])
)
J22_FIG1_SEEDS = seeds_from(config, J22_FIG1["seed"])
J22_FIG1_TABLES = {
    k: f"results/{J22_FIG1_RUN}/{k}.csv" for k in ("points", "neurons", "rays", "layers")
}


# one thread: runs beside the one-thread sweeps instead of waiting for two free cores
training_rule(
    "train_jacot2022_fig1",
    script_name="train_jacot2022_fig1",
    job=f"{J22_FIG1_RUN}/train",
    inputs={
        "data": J22_FIG1_DATA,
    },
    outputs={
        "checkpoint": f"results/{J22_FIG1_RUN}/model.pt",
    },
    constraints={
        "seed": "|".join(map(str, J22_FIG1_SEEDS)),
    },
)


# The same network carried on to a stationary point of its objective (l2relu.training.polish): the
# statement about minimizers reads it, the paper's observations the schedule's network.
J22_FIG1_POLISHED = "{run}/polish{iterations}".format(
    run=J22_FIG1_RUN, iterations=J22_FIG1["polish_iterations"]
)


training_rule(
    "polish_jacot2022_fig1",
    script_name="polish_jacot2022_fig1",
    job=f"{J22_FIG1_POLISHED}/polish",
    inputs={
        "data": J22_FIG1_DATA,
        "checkpoint": rules.train_jacot2022_fig1.output.checkpoint,
    },
    outputs={
        "checkpoint": f"results/{J22_FIG1_POLISHED}/model.pt",
        "certificate": f"results/{J22_FIG1_POLISHED}/certificate.csv",
    },
    constraints={
        "seed": "|".join(map(str, J22_FIG1_SEEDS)),
    },
)


J22_FIG1_FORCES = dict(
    input=dict(data=J22_FIG1_DATA, code=script_code("compute_jacot2022_fig1_forces")),
    params=dict(
        forces={
            "eps": J22_FIG1["eps"],
            "ray_angle_deg": reading_parameter(J22_RAYS, "angle_deg"),
        },
        ray_readings=readings_parameters(J22_RAYS),
    ),
)


rule compute_jacot2022_fig1_forces:
    input:
        **J22_FIG1_FORCES["input"],
        checkpoint=rules.train_jacot2022_fig1.output.checkpoint,
    output:
        **J22_FIG1_TABLES,
        run=f"results/{J22_FIG1_RUN}/run.csv",
    log:
        f"logs/{J22_FIG1_RUN}/forces.log",
    wildcard_constraints:
        seed="|".join(map(str, J22_FIG1_SEEDS)),
    conda:
        ENV
    params:
        **J22_FIG1_FORCES["params"],
    script:
        "../../scripts/compute_jacot2022_fig1_forces.py"


rule compute_jacot2022_fig1_polished_forces:
    input:
        **J22_FIG1_FORCES["input"],
        checkpoint=rules.polish_jacot2022_fig1.output.checkpoint,
    output:
        **{k: f"results/{J22_FIG1_POLISHED}/{k}.csv" for k in J22_FIG1_TABLES},
        run=f"results/{J22_FIG1_POLISHED}/run.csv",
    log:
        f"logs/{J22_FIG1_POLISHED}/forces.log",
    wildcard_constraints:
        seed="|".join(map(str, J22_FIG1_SEEDS)),
    conda:
        ENV
    params:
        **J22_FIG1_FORCES["params"],
    script:
        "../../scripts/compute_jacot2022_fig1_forces.py"


rule aggregate_jacot2022_fig1:
    input:
        layers=expand(rules.compute_jacot2022_fig1_forces.output.layers, seed=J22_FIG1_SEEDS),
        runs=expand(rules.compute_jacot2022_fig1_forces.output.run, seed=J22_FIG1_SEEDS),
        polished_layers=expand(
            rules.compute_jacot2022_fig1_polished_forces.output.layers, seed=J22_FIG1_SEEDS
        ),
        polished_runs=expand(
            rules.compute_jacot2022_fig1_polished_forces.output.run, seed=J22_FIG1_SEEDS
        ),
        certificates=expand(rules.polish_jacot2022_fig1.output.certificate, seed=J22_FIG1_SEEDS),
        registry=claims_registry("jacot2022_fig1"),
        code=script_code("aggregate_jacot2022_fig1"),
    output:
        claims=claims_rows("jacot2022_fig1"),
    log:
        "logs/jacot2022/fig1/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        n_rays=len(J22_FIG1["digits"]),  # one ray per class, as Fig. 1
        ray_readings=readings_parameters(J22_RAYS),
    script:
        "../../scripts/aggregate_jacot2022_fig1.py"


register_target(
    "jacot2022_fig1",
    "jacot2022 Fig. 1: attraction and repulsion of the hidden representations, depth 3, MNIST 7-8-9",
    tables={
        k: v.format(seed=J22_FIG1_SEEDS[0]) for k, v in J22_FIG1_TABLES.items() if k != "layers"
    },
)
