# jacot2022: Jacot, Golikov, Hongler, Gabriel, "Feature learning in L2-regularized DNNs:
# attraction/repulsion and sparsity". Numerical checks of its propositions.

J22_THEORY = config["jacot2022"]["theory"]
J22_PLATEAU_N = {
    "bipartite": J22_THEORY["bipartite_N"],
    "onehot": J22_THEORY["onehot_N"],
    "oned": J22_THEORY["oned_N"],
}
# A seed of the claims is a set of restarts: every width, each width's restarts trained together
# (the seed's estimate of the minimum is the best restart). One job per data set and N trains
# its seeds in turn (a seed is seconds of work: a job a seed would be mostly start-up).
J22_PLATEAU_SEEDS = restart_sets(J22_THEORY["seed"], J22_THEORY["restarts"])
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


# a plateau job's PlateauConfig fields but the seed, from its wildcards (training and polish)
J22_PLATEAU_CONFIG = lambda wc: {
    "setting": wc.setting,
    "n": int(wc.n),
    "classes": J22_THEORY["onehot_classes"],
    "widths": plateau_widths(wc.setting, int(wc.n), J22_THEORY["onehot_classes"]),
    "lam": J22_THEORY["lam"],
    "restarts": J22_THEORY["restarts"],
    "steps": J22_THEORY["steps"],
}


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
    script:
        "../scripts/construct_jacot2022_propositions.py"


rule train_jacot2022_plateau:
    input:
        code=script_code("train_jacot2022_plateau"),
    output:
        losses=per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_RUN}/losses.csv"),
        networks=per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_RUN}/networks.npz"),
    log:
        job_log(J22_PLATEAU_JOB),
    benchmark:
        job_benchmark("train_jacot2022_plateau", J22_PLATEAU_JOB)
    wildcard_constraints:
        **J22_PLATEAU_WILDCARDS,
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2022_plateau"),
    params:
        resume=resume_dir,
        config=J22_PLATEAU_CONFIG,
        seeds=first_restarts(J22_PLATEAU_SEEDS),
    script:
        "../scripts/train_jacot2022_plateau.py"


# Each plateau job's networks carried on to a stationary point of their objective: the onsets
# of Props. 14-15, statements about global minima, read these beside the schedule's.
J22_PLATEAU_POLISHED = f"{J22_PLATEAU_RUN}/polish{J22_THEORY['polish_iterations']}"
J22_PLATEAU_POLISH_JOB = f"{J22_PLATEAU_JOB}/polish{J22_THEORY['polish_iterations']}"


rule polish_jacot2022_plateau:
    input:
        losses=rules.train_jacot2022_plateau.output.losses,
        networks=rules.train_jacot2022_plateau.output.networks,
        code=script_code("polish_jacot2022_plateau"),
    output:
        losses=per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/losses.csv"),
        networks=per_seed_files(J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/networks.npz"),
        certificate=per_seed_files(
            J22_PLATEAU_SEEDS, f"results/{J22_PLATEAU_POLISHED}/certificate.csv"
        ),
    log:
        job_log(J22_PLATEAU_POLISH_JOB),
    benchmark:
        job_benchmark("polish_jacot2022_plateau", J22_PLATEAU_POLISH_JOB)
    wildcard_constraints:
        **J22_PLATEAU_WILDCARDS,
    conda:
        ENV
    threads: 1
    params:
        resume=resume_dir,
        config=J22_PLATEAU_CONFIG,
        seeds=first_restarts(J22_PLATEAU_SEEDS),
        iterations=J22_THEORY["polish_iterations"],
    script:
        "../scripts/polish_jacot2022_plateau.py"


rule aggregate_jacot2022_theory:
    input:
        **J22_PROPOSITIONS,
        registry=claims_registry("jacot2022_theory"),
        plateaus=every_job_file(rules.train_jacot2022_plateau.output.losses, J22_PLATEAU_JOBS),
        networks=every_job_file(rules.train_jacot2022_plateau.output.networks, J22_PLATEAU_JOBS),
        polished=every_job_file(rules.polish_jacot2022_plateau.output.losses, J22_PLATEAU_JOBS),
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
        "../scripts/aggregate_jacot2022_theory.py"


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
J22_FIG1_SEEDS = seeds_from(J22_FIG1["seed"])
J22_FIG1_TRAINING = {k: J22_FIG1[k] for k in ("digits", "width", "lam", "lr", "steps", "log_every")}
J22_FIG1_TABLES = {
    k: f"results/{J22_FIG1_RUN}/{k}.csv" for k in ("points", "neurons", "rays", "layers")
}


rule train_jacot2022_fig1:
    input:
        data=J22_FIG1_DATA,
        code=script_code("train_jacot2022_fig1"),
    output:
        checkpoint=f"results/{J22_FIG1_RUN}/model.pt",
    log:
        job_log(f"{J22_FIG1_RUN}/train"),
    benchmark:
        job_benchmark("train_jacot2022_fig1", f"{J22_FIG1_RUN}/train")
    wildcard_constraints:
        seed="|".join(map(str, J22_FIG1_SEEDS)),
    conda:
        ENV
    # one thread: runs beside the one-thread sweeps instead of waiting for two free cores
    threads: 1
    resources:
        **training_resources("train_jacot2022_fig1"),
    params:
        resume=resume_dir,
        config=lambda wc: J22_FIG1_TRAINING | {"seed": int(wc.seed)},
        device=config["device"],
    script:
        "../scripts/train_jacot2022_fig1.py"


# The same network carried on to a stationary point of its objective (l2relu.polish): the
# statement about minimizers reads it, the paper's observations the schedule's network.
J22_FIG1_POLISHED = "{run}/polish{iterations}".format(
    run=J22_FIG1_RUN, iterations=J22_FIG1["polish_iterations"]
)


rule polish_jacot2022_fig1:
    input:
        data=J22_FIG1_DATA,
        checkpoint=rules.train_jacot2022_fig1.output.checkpoint,
        code=script_code("polish_jacot2022_fig1"),
    output:
        checkpoint=f"results/{J22_FIG1_POLISHED}/model.pt",
        certificate=f"results/{J22_FIG1_POLISHED}/certificate.csv",
    log:
        job_log(f"{J22_FIG1_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2022_fig1", f"{J22_FIG1_POLISHED}/polish")
    wildcard_constraints:
        seed="|".join(map(str, J22_FIG1_SEEDS)),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J22_FIG1["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2022_fig1.py"


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
        "../scripts/compute_jacot2022_fig1_forces.py"


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
        "../scripts/compute_jacot2022_fig1_forces.py"


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
        "../scripts/aggregate_jacot2022_fig1.py"


# ------------------------------------------------------------------------------ Fig. 1 study

J22_STUDY = config["jacot2022"]["fig1_study"]
J22_STUDY_SEEDS = seed_range(J22_FIG1["seed"], J22_STUDY["n_seeds"])
# One job per setting (inputs, lambda, GD schedule): every seed of it trained together.
J22_STUDY_RUN = (
    "jacot2022/fig1_study/{{inputs}}/w{width}_d3_lam{{lam}}_lr{{lr}}_t{{steps}}_s{seeds}".format(
        width=J22_FIG1["width"], seeds=J22_STUDY_SEEDS
    )
)
J22_STUDY_LAMS = [fmt_lam(lam) for lam in J22_STUDY["lams"]]
J22_STUDY_SCHEDULES = {(fmt_lam(s["lr"]), str(s["steps"])): s for s in J22_STUDY["schedules"]}
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


rule train_jacot2022_fig1_study:
    input:
        data=J22_FIG1_DATA,
        code=script_code("train_jacot2022_fig1_study"),
    output:
        checkpoint=f"results/{J22_STUDY_RUN}/model.pt",
        runs=f"results/{J22_STUDY_RUN}/runs.csv",
    log:
        job_log(f"{J22_STUDY_RUN}/train"),
    benchmark:
        job_benchmark("train_jacot2022_fig1_study", f"{J22_STUDY_RUN}/train")
    wildcard_constraints:
        inputs="|".join(J22_STUDY["inputs"]),
        lam="|".join(map(re.escape, J22_STUDY_LAMS)),
        lr="|".join(map(re.escape, {lr for lr, _ in J22_STUDY_SCHEDULES})),
        steps="|".join({steps for _, steps in J22_STUDY_SCHEDULES}),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2022_fig1_study"),
    params:
        resume=resume_dir,
        config=lambda wc: J22_FIG1_TRAINING
        | {
            "lam": J22_STUDY["lams"][J22_STUDY_LAMS.index(wc.lam)],
            "inputs": wc.inputs,
            "seeds": seed_list(J22_FIG1["seed"], J22_STUDY["n_seeds"]),
        }
        | J22_STUDY_SCHEDULES[(wc.lr, wc.steps)],
        device=config["device"],
    script:
        "../scripts/train_jacot2022_fig1_study.py"


# Every setting's networks carried on to a stationary point of their objective
# (l2relu.polish): the ledger reads the paper's observations on the schedule's networks, these
# beside them.
J22_STUDY_POLISHED = f"{J22_STUDY_RUN}/polish{J22_STUDY['polish_iterations']}"


rule polish_jacot2022_fig1_study:
    input:
        data=J22_FIG1_DATA,
        checkpoint=rules.train_jacot2022_fig1_study.output.checkpoint,
        runs=rules.train_jacot2022_fig1_study.output.runs,
        code=script_code("polish_jacot2022_fig1_study"),
    output:
        checkpoint=f"results/{J22_STUDY_POLISHED}/model.pt",
        runs=f"results/{J22_STUDY_POLISHED}/runs.csv",
        certificate=f"results/{J22_STUDY_POLISHED}/certificate.csv",
    log:
        job_log(f"{J22_STUDY_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2022_fig1_study", f"{J22_STUDY_POLISHED}/polish")
    wildcard_constraints:
        inputs="|".join(J22_STUDY["inputs"]),
        lam="|".join(map(re.escape, J22_STUDY_LAMS)),
        lr="|".join(map(re.escape, {lr for lr, _ in J22_STUDY_SCHEDULES})),
        steps="|".join({steps for _, steps in J22_STUDY_SCHEDULES}),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J22_STUDY["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2022_fig1_study.py"


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
        "../scripts/aggregate_jacot2022_fig1_study.py"


# ------------------------------------------------------------------------------ Fig. 2

J22_FIG2 = config["jacot2022"]["fig2"]
J22_FIG2_MNIST = J22_FIG2["mnist"]
J22_FIG2_TEACHER = J22_FIG2["teacher"]
J22_FIG2_PANELS = {"mnist": J22_FIG2_MNIST, "teacher": J22_FIG2_TEACHER}
J22_FIG2_DATA = {
    "mnist": MNIST_DATA.format(**MNIST_SUBSETS["jacot2022.fig2.mnist"]),
    "teacher": "results/jacot2022/data/teacher_w{w}_n{n_train}_t{n_test}_s{seed}.npz".format(
        w="-".join(map(str, J22_FIG2_TEACHER["widths"])), **J22_FIG2_TEACHER
    ),
}
# One job per (data set, width): every lambda and trial of it trained together. The trials are
# the claims' seeds (3 in the paper), the figure draws the best of them at each width.
J22_FIG2_RUN = "jacot2022/fig2/{dataset}/w{width}_d3_lam{lams}_s{seeds}"


J22_FIG2_POINT = {
    d: {
        "lams": "+".join(fmt_lam(v) for v in panel["lams"]),
        "seeds": seed_range(panel["seed"], config["seeds"]),
    }
    for d, panel in J22_FIG2_PANELS.items()
}

J22_FIG2_RUNS = [
    f"results/{J22_FIG2_RUN}/runs.csv".format(dataset=d, width=w, **J22_FIG2_POINT[d])
    for d in J22_FIG2_PANELS
    for w in J22_FIG2["widths"]
]
J22_FIG2_WILDCARDS = {
    "dataset": "mnist|teacher",
    "width": "|".join(str(w) for w in J22_FIG2["widths"]),
    "lams": "|".join(re.escape(J22_FIG2_POINT[d]["lams"]) for d in J22_FIG2_PANELS),
    "seeds": "|".join(J22_FIG2_POINT[d]["seeds"] for d in J22_FIG2_PANELS),
}
# Each width's trained networks carried on to a stationary point of their objective: the
# statement that the minimum cannot rise with width reads these, the figure's the schedule's.
J22_FIG2_POLISHED = f"{J22_FIG2_RUN}/polish{J22_FIG2['polish_iterations']}"


rule generate_jacot2022_teacher:
    input:
        code=script_code("generate_jacot2022_teacher"),
    output:
        data=J22_FIG2_DATA["teacher"],
    log:
        "logs/jacot2022/data/generate_teacher.log",
    conda:
        ENV
    params:
        n_train=J22_FIG2_TEACHER["n_train"],
        n_test=J22_FIG2_TEACHER["n_test"],
        widths=J22_FIG2_TEACHER["widths"],
        seed=J22_FIG2_TEACHER["seed"],
    script:
        "../scripts/generate_jacot2022_teacher.py"


rule train_jacot2022_fig2:
    input:
        data=lambda wc: J22_FIG2_DATA[wc.dataset],
        code=script_code("train_jacot2022_fig2"),
    output:
        runs=f"results/{J22_FIG2_RUN}/runs.csv",
        networks=f"results/{J22_FIG2_RUN}/model.pt",
    log:
        job_log(J22_FIG2_RUN),
    benchmark:
        job_benchmark("train_jacot2022_fig2", J22_FIG2_RUN)
    wildcard_constraints:
        **J22_FIG2_WILDCARDS,
    conda:
        ENV
    # One thread: a sweep has many such jobs, and two of them side by side on two cores
    # do more than one job on both (a second thread speeds one job up 1.05-1.8x).
    threads: 1
    resources:
        **training_resources("train_jacot2022_fig2"),
    params:
        resume=resume_dir,
        config=lambda wc: {
            k: v
            for k, v in J22_FIG2_PANELS[wc.dataset].items()
            if k not in ("n_train", "n_test", "widths")
        }
        | {
            "dataset": wc.dataset,
            "width": int(wc.width),
            "log_every": J22_FIG2["log_every"],
            "dtype": J22_FIG2["dtype"],
            "trials": config["seeds"],
        },
        device=config["device"],
    script:
        "../scripts/train_jacot2022_fig2.py"


rule polish_jacot2022_fig2:
    input:
        data=lambda wc: J22_FIG2_DATA[wc.dataset],
        runs=rules.train_jacot2022_fig2.output.runs,
        networks=rules.train_jacot2022_fig2.output.networks,
        code=script_code("polish_jacot2022_fig2"),
    output:
        runs=f"results/{J22_FIG2_POLISHED}/runs.csv",
        networks=f"results/{J22_FIG2_POLISHED}/model.pt",
        certificate=f"results/{J22_FIG2_POLISHED}/certificate.csv",
    log:
        job_log(f"{J22_FIG2_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2022_fig2", f"{J22_FIG2_POLISHED}/polish")
    wildcard_constraints:
        **J22_FIG2_WILDCARDS,
    conda:
        ENV
    threads: 1
    params:
        resume=resume_dir,
        iterations=J22_FIG2["polish_iterations"],
    script:
        "../scripts/polish_jacot2022_fig2.py"


rule aggregate_jacot2022_fig2:
    input:
        registry=claims_registry("jacot2022_fig2"),
        runs=J22_FIG2_RUNS,
        polished=[
            rules.polish_jacot2022_fig2.output.runs.format(dataset=d, width=w, **J22_FIG2_POINT[d])
            for d in J22_FIG2_PANELS
            for w in J22_FIG2["widths"]
        ],
        certificates=[
            rules.polish_jacot2022_fig2.output.certificate.format(
                dataset=d, width=w, **J22_FIG2_POINT[d]
            )
            for d in J22_FIG2_PANELS
            for w in J22_FIG2["widths"]
        ],
        code=script_code("aggregate_jacot2022_fig2"),
    output:
        curves="results/jacot2022/fig2/curves.csv",
        diverged="results/jacot2022/fig2/diverged.csv",
        claims=claims_rows("jacot2022_fig2"),
    log:
        "logs/jacot2022/fig2/aggregate.log",
    localrule: True
    conda:
        ENV
    script:
        "../scripts/aggregate_jacot2022_fig2.py"


# ------------------------------------------------------------------------------ targets

register_target(
    "jacot2022_theory",
    "jacot2022 Props. 1, 3, 5, 7, 8, 13, 14, 15, 19, Lemma 10 and Remark 23 (no figure): plateau onsets and constructions",
    tables=dict(
        plateau=rules.aggregate_jacot2022_theory.output.plateau,
        onsets=rules.aggregate_jacot2022_theory.output.onsets,
    ),
    onehot_classes=J22_THEORY["onehot_classes"],
)

register_target(
    "jacot2022_fig1",
    "jacot2022 Fig. 1: attraction and repulsion of the hidden representations, depth 3, MNIST 7-8-9",
    tables={
        k: v.format(seed=J22_FIG1_SEEDS[0]) for k, v in J22_FIG1_TABLES.items() if k != "layers"
    },
)

register_target(
    "jacot2022_fig2",
    "jacot2022 Fig. 2: minimal regularized loss against width (MNIST; teacher network)",
    tables=dict(
        curves=rules.aggregate_jacot2022_fig2.output.curves,
        diverged=rules.aggregate_jacot2022_fig2.output.diverged,
    ),
)

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
