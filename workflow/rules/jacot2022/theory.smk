# ------------------------------------------------------------------------------ theory

J22_THEORY = config["jacot2022"]["theory"]
J22_PLATEAU_N = {
    "bipartite": J22_THEORY["bipartite_N"],
    "onehot": J22_THEORY["onehot_N"],
    "oned": J22_THEORY["oned_N"],
}
# A seed of the claims is a set of restarts: every width, each width's restarts trained together
# (the seed's estimate of the minimum is the best restart). One job per data set and N trains
# its seeds in turn (a seed is seconds of work: a job a seed would be mostly start-up).
J22_PLATEAU_SEEDS = restart_sets(config, J22_THEORY["seed"], J22_THEORY["restarts"])
J22_PLATEAU_RUN = "jacot2022/theory/plateau_{setting}/n{n}_d2_lam{lam}_s{seeds}"
J22_PLATEAU_JOB = seeds_in_turn(J22_PLATEAU_RUN, J22_PLATEAU_SEEDS)
J22_PLATEAU_WILDCARDS = {
    "setting": "|".join(J22_PLATEAU_N),
    "n": "|".join(str(n) for ns in J22_PLATEAU_N.values() for n in ns),
    "lam": re.escape(fmt_lam(J22_THEORY["lam"])),
}


# every plateau job's wildcards, in the order the aggregate reads their seeds' files
J22_PLATEAU_JOBS = [
    {"setting": s, "n": n, "lam": fmt_lam(J22_THEORY["lam"])}
    for s, ns in J22_PLATEAU_N.items()
    for n in ns
]


J22_PROPOSITIONS = {
    k: f"results/jacot2022/theory/{k}.csv"
    for k in (
        "prop13",
        "remark23",
        "prop1",
        "prop19",
        "onehot_root",
        "reduction",
        "prop5",
        "alignment",
        "cp_rank",
        "linear_construction",
        "linear_trained",
    )
}


rule construct_jacot2022_propositions:
    input:
        code=script_code("construct_jacot2022_propositions"),
    output:
        **J22_PROPOSITIONS,
    log:
        "logs/jacot2022/theory/construct_propositions.log",
    conda:
        ENV
    params:
        bipartite_n=J22_THEORY["bipartite_N"],
        prop1_trials=J22_THEORY["prop1_trials"],
        prop19=J22_THEORY["prop19"],
        onehot_root_sizes=J22_THEORY["onehot_root_sizes"],
        reduction=J22_THEORY["reduction"],
        prop5_segments=J22_THEORY["prop5_segments"],
        cp_rank=J22_THEORY["cp_rank"] | {"seed": J22_THEORY["seed"]},
        linear=J22_THEORY["linear"] | {"seed": J22_THEORY["seed"], "seeds": config["seeds"]},
    script:
        "../../scripts/construct_jacot2022_propositions.py"


training_rule(
    "train_jacot2022_plateau",
    script_name="train_jacot2022_plateau",
    job=J22_PLATEAU_JOB,
    outputs={
        "losses": per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_RUN}/losses.csv"),
        "networks": per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_RUN}/networks.npz"),
    },
    constraints={
        **J22_PLATEAU_WILDCARDS,
    },
    device=False,
)


# Each plateau job's networks carried on to a stationary point of their objective: the onsets
# of Props. 14-15, statements about global minima, read these beside the schedule's.
J22_PLATEAU_POLISHED = f"{J22_PLATEAU_RUN}/polish{J22_THEORY['polish_iterations']}"
J22_PLATEAU_POLISH_JOB = f"{J22_PLATEAU_JOB}/polish{J22_THEORY['polish_iterations']}"


training_rule(
    "polish_jacot2022_plateau",
    script_name="polish_jacot2022_plateau",
    job=J22_PLATEAU_POLISH_JOB,
    inputs={
        "losses": rules.train_jacot2022_plateau.output.losses,
        "networks": rules.train_jacot2022_plateau.output.networks,
    },
    outputs={
        "losses": per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/losses.csv"),
        "networks": per_seed_files(
            J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/networks.npz"
        ),
        "certificate": per_seed_files(
            J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/certificate.csv"
        ),
    },
    constraints={
        **J22_PLATEAU_WILDCARDS,
    },
    gpu=False,
    device=False,
)


rule aggregate_jacot2022_theory:
    input:
        **J22_PROPOSITIONS,
        registry=claims_registry("jacot2022_theory"),
        plateaus=every_job_file(rules.train_jacot2022_plateau.output.losses, J22_PLATEAU_JOBS),
        networks=every_job_file(rules.train_jacot2022_plateau.output.networks, J22_PLATEAU_JOBS),
        polished=every_job_file(rules.polish_jacot2022_plateau.output.losses, J22_PLATEAU_JOBS),
        polished_networks=every_job_file(
            rules.polish_jacot2022_plateau.output.networks, J22_PLATEAU_JOBS
        ),
        certificates=every_job_file(
            rules.polish_jacot2022_plateau.output.certificate, J22_PLATEAU_JOBS
        ),
        code=script_code("aggregate_jacot2022_theory"),
    output:
        plateau="results/jacot2022/theory/plateau.csv",
        onsets="results/jacot2022/theory/onsets.csv",
        polished_onsets=(
            f"results/jacot2022/theory/onsets_polished{J22_THEORY['polish_iterations']}.csv"
        ),
        compression="results/jacot2022/theory/compression.csv",
        claims=claims_rows("jacot2022_theory"),
    log:
        "logs/jacot2022/theory/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        onehot_classes=J22_THEORY["onehot_classes"],
        lam=J22_THEORY["lam"],
    script:
        "../../scripts/aggregate_jacot2022_theory.py"


register_target(
    "jacot2022_theory",
    "jacot2022 Props. 1, 3, 5, 7, 8, 13, 14, 15, 19, Lemma 10 and Remark 23 (no figure): plateau onsets and constructions",
    tables=dict(
        plateau=rules.aggregate_jacot2022_theory.output.plateau,
        onsets=rules.aggregate_jacot2022_theory.output.onsets,
    ),
    onehot_classes=J22_THEORY["onehot_classes"],
)
