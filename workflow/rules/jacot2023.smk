# jacot2023: Jacot, "Implicit bias of large depth networks: a notion of rank for nonlinear
# functions". Low-rank representations of deep L2-regularized networks, their class boundaries
# and autoencoders.

J23 = config["jacot2023"]
J23_TASK = J23["task"]
# The task's description, in every path that depends on it.
J23_TASK_ID = "latent{latent}_in{d_in}_out{d_out}_k{true_rank}_g{width}_s{seed}".format(**J23_TASK)


# ------------------------------------------------------------------------------ Fig. 1, KRR

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
        "../scripts/train_jacot2023_regression.py"


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
        "../scripts/polish_jacot2023_regression.py"


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
        "../scripts/analyze_jacot2023_fig1.py"


J23_KRR = J23["krr"]
J23_KRR_DIR = "results/{run}/krr_ridge{ridge}_t{n_test}".format(
    run=J23_FIG1_RUN, ridge=fmt_lam(J23_KRR["ridge"]), n_test=J23_KRR["n_test"]
)


rule construct_jacot2023_propositions:
    input:
        code=script_code("construct_jacot2023_propositions"),
    output:
        table="results/jacot2023/theory/constructions.csv",
    log:
        "logs/jacot2023/theory/construct_propositions.log",
    conda:
        ENV
    params:
        constructions=J23["constructions"],
    script:
        "../scripts/construct_jacot2023_propositions.py"


J23_REMARK2 = J23["remark2"]
# A seed is a set of restarts, as in jacot2022's plateaus; one job per group of widths trains
# its seeds in turn.
J23_REMARK2_SEEDS = restart_sets(J23_REMARK2["seed"], J23_REMARK2["restarts"])
# jacot2022's Prop. 14 task: X = I_N, Y = B_N
J23_REMARK2_SETTING = "bipartite"
J23_REMARK2_RUN = "jacot2023/remark2/{setting}_n{N}_d{depth}_lam{lam}/{{group}}_s{{seeds}}".format(
    setting=J23_REMARK2_SETTING, **J23_REMARK2 | {"lam": fmt_lam(J23_REMARK2["lam"])}
)
J23_REMARK2_JOB = seeds_in_turn(J23_REMARK2_RUN, J23_REMARK2_SEEDS)


J23_REMARK2_JOBS = [{"group": g} for g in REMARK2_GROUPS]


# a Remark 2 job's PlateauConfig fields but the seed, from its group (training and polish)
J23_REMARK2_CONFIG = lambda wc: {
    "setting": J23_REMARK2_SETTING,
    "n": J23_REMARK2["N"],
    "classes": 0,  # one-hot outputs only
    "widths": remark2_widths(J23_REMARK2["N"], wc.group),
    "lam": J23_REMARK2["lam"],
    "restarts": J23_REMARK2["restarts"],
    "steps": J23_REMARK2["steps"],
    "depth": J23_REMARK2["depth"],
}


rule train_jacot2023_remark2:
    input:
        code=script_code("train_jacot2022_plateau"),
    output:
        losses=per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_RUN}/losses.csv"),
        networks=per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_RUN}/networks.npz"),
    log:
        job_log(J23_REMARK2_JOB),
    benchmark:
        job_benchmark("train_jacot2023_remark2", J23_REMARK2_JOB)
    wildcard_constraints:
        group="|".join(REMARK2_GROUPS),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_remark2"),
    params:
        resume=resume_dir,
        config=J23_REMARK2_CONFIG,
        seeds=first_restarts(J23_REMARK2_SEEDS),
    script:
        "../scripts/train_jacot2022_plateau.py"


# Each Remark 2 job's networks carried on to a stationary point of their objective, as
# jacot2022's plateaus are: "n* = N(N + 1)" speaks of global minima.
J23_REMARK2_POLISHED = f"{J23_REMARK2_RUN}/polish{J23_REMARK2['polish_iterations']}"
J23_REMARK2_POLISH_JOB = f"{J23_REMARK2_JOB}/polish{J23_REMARK2['polish_iterations']}"


rule polish_jacot2023_remark2:
    input:
        losses=rules.train_jacot2023_remark2.output.losses,
        networks=rules.train_jacot2023_remark2.output.networks,
        code=script_code("polish_jacot2022_plateau"),
    output:
        losses=per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/losses.csv"),
        networks=per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/networks.npz"),
        certificate=per_seed_files(
            J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/certificate.csv"
        ),
    log:
        job_log(J23_REMARK2_POLISH_JOB),
    benchmark:
        job_benchmark("polish_jacot2023_remark2", J23_REMARK2_POLISH_JOB)
    wildcard_constraints:
        group="|".join(REMARK2_GROUPS),
    conda:
        ENV
    threads: 1
    params:
        resume=resume_dir,
        config=J23_REMARK2_CONFIG,
        seeds=first_restarts(J23_REMARK2_SEEDS),
        iterations=J23_REMARK2["polish_iterations"],
    script:
        "../scripts/polish_jacot2022_plateau.py"


rule compute_jacot2023_krr:
    input:
        registry=claims_registry("jacot2023_krr"),
        constructions=rules.construct_jacot2023_propositions.output.table,
        remark2=every_job_file(rules.train_jacot2023_remark2.output.losses, J23_REMARK2_JOBS),
        remark2_polished=every_job_file(
            rules.polish_jacot2023_remark2.output.losses, J23_REMARK2_JOBS
        ),
        remark2_certificates=every_job_file(
            rules.polish_jacot2023_remark2.output.certificate, J23_REMARK2_JOBS
        ),
        checkpoint=rules.train_jacot2023_fig1.output.checkpoint,
        runs=rules.train_jacot2023_fig1.output.runs,
        polished=rules.analyze_jacot2023_fig1.input.polished,
        polished_runs=rules.analyze_jacot2023_fig1.input.polished_runs,
        certificate=rules.analyze_jacot2023_fig1.input.certificate,
        code=script_code("compute_jacot2023_krr"),
    output:
        spectra=f"{J23_KRR_DIR}/jacobian_spectra.csv",
        fits=f"{J23_KRR_DIR}/fits.csv",
        claims=claims_rows("jacot2023_krr"),
    log:
        f"logs/{J23_FIG1_RUN}/krr.log",
    conda:
        ENV
    params:
        krr=J23_KRR,
        remark2={"n": J23_REMARK2["N"], "depth": J23_REMARK2["depth"]},
    script:
        "../scripts/compute_jacot2023_krr.py"


# ------------------------------------------------------------------------------ depth sweep

J23_DEPTH = J23["depth"]
J23_DEPTH_SEEDS = seeds_from(0)
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


rule train_jacot2023_depth:
    input:
        code=script_code("train_jacot2023_regression"),
    output:
        checkpoint=f"results/{J23_DEPTH_RUN}/model.pt",
        runs=f"results/{J23_DEPTH_RUN}/runs.csv",
        trace=f"results/{J23_DEPTH_RUN}/trace.csv",
    log:
        job_log(f"{J23_DEPTH_RUN}/train"),
    benchmark:
        job_benchmark("train_jacot2023_depth", f"{J23_DEPTH_RUN}/train")
    wildcard_constraints:
        depth="|".join(map(str, J23_DEPTH["depths"])),
        n_train="|".join(map(str, J23_DEPTH["n_train"])),
    conda:
        ENV
    # One thread: a sweep has many such jobs, and two of them side by side on two cores
    # do more than one job on both (a second thread speeds one job up 1.05-1.8x).
    threads: 1
    resources:
        **training_resources("train_jacot2023_depth"),
    params:
        resume=resume_dir,
        task=J23_TASK,
        fit=lambda wc: fit_params(J23_DEPTH, int(wc.depth), int(wc.n_train), J23_DEPTH_SEEDS),
        device=config["device"],
    script:
        "../scripts/train_jacot2023_regression.py"


# Each (depth, N) job's networks carried on to a stationary point of their objective, as Fig.
# 1's are: the statements about minima read these, Remark 5's about training the schedule's.
J23_DEPTH_POLISHED = f"{J23_DEPTH_RUN}/polish{J23_DEPTH['polish_iterations']}"
J23_DEPTH_POLISHES = [
    J23_DEPTH_POLISHED.format(depth=d, n_train=n)
    for n in sorted(J23_DEPTH["n_train"])
    for d in sorted(J23_DEPTH["depths"])
]


rule polish_jacot2023_depth:
    input:
        checkpoint=rules.train_jacot2023_depth.output.checkpoint,
        runs=rules.train_jacot2023_depth.output.runs,
        code=script_code("polish_jacot2023_regression"),
    output:
        checkpoint=f"results/{J23_DEPTH_POLISHED}/model.pt",
        runs=f"results/{J23_DEPTH_POLISHED}/runs.csv",
        certificate=f"results/{J23_DEPTH_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_DEPTH_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_depth", f"{J23_DEPTH_POLISHED}/polish")
    wildcard_constraints:
        depth="|".join(map(str, J23_DEPTH["depths"])),
        n_train="|".join(map(str, J23_DEPTH["n_train"])),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        seeds=J23_DEPTH_SEEDS,
        iterations=J23_DEPTH["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_regression.py"


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
        "../scripts/aggregate_jacot2023_depth.py"


# ------------------------------------------------------------------------------ Fig. 2

J23_FIG2 = J23["fig2"]
J23_FIG2_DATA = {
    k: J23_FIG2[k]
    for k in ("classes", "per_class", "amplitude", "spacing", "noise", "seed", "grid")
}
# A seed draws the data set and the initializations: one data set per seed of the claims, the
# figure draws the first.
J23_FIG2_SEEDS = seeds_from(J23_FIG2["seed"])
J23_FIG2_SET = (
    "{shape}_c{classes}_n{per_class}_a{amplitude}_sp{spacing}_noise{noise}_s{{seed}}"
).format(**J23_FIG2)
J23_FIG2_RUN = (
    f"jacot2023/fig2/{J23_FIG2_SET}/w{J23_FIG2['width']}_d{{depth}}"
    f"_lam{'+'.join(fmt_lam(v) for v in J23_FIG2['lams'])}"
)
J23_FIG2_DEPTHS = (J23_FIG2["shallow_depth"], J23_FIG2["deep_depth"])
J23_FIG2_ALL = J23_FIG2_SET.format(seed=seed_range(J23_FIG2["seed"], config["seeds"]))


rule train_jacot2023_fig2:
    input:
        code=script_code("train_jacot2023_fig2"),
    output:
        regions=f"results/{J23_FIG2_RUN}/regions.csv",
        summary=f"results/{J23_FIG2_RUN}/summary.csv",
        checkpoint=f"results/{J23_FIG2_RUN}/model.pt",
    log:
        job_log(J23_FIG2_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig2", J23_FIG2_RUN)
    wildcard_constraints:
        depth="|".join(map(str, J23_FIG2_DEPTHS)),
        seed="|".join(map(str, J23_FIG2_SEEDS)),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig2"),
    params:
        resume=resume_dir,
        data=lambda wc: J23_FIG2_DATA | {"seed": int(wc.seed)},
        width=J23_FIG2["width"],
        lams=J23_FIG2["lams"],
        phases=J23_FIG2["phases"],
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig2.py"


# The networks trained with L2 carried on to a stationary point of their objective
# (l2relu.polish): the ledger reads the paper's observations on the schedule's networks, these
# beside them.
J23_FIG2_POLISHED = f"{J23_FIG2_RUN}/polish{J23_FIG2['polish_iterations']}"
J23_FIG2_EVERY = {"depth": J23_FIG2_DEPTHS, "seed": J23_FIG2_SEEDS}


rule polish_jacot2023_fig2:
    input:
        checkpoint=rules.train_jacot2023_fig2.output.checkpoint,
        code=script_code("polish_jacot2023_fig2"),
    output:
        checkpoint=f"results/{J23_FIG2_POLISHED}/model.pt",
        regions=f"results/{J23_FIG2_POLISHED}/regions.csv",
        summary=f"results/{J23_FIG2_POLISHED}/summary.csv",
        certificate=f"results/{J23_FIG2_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_FIG2_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_fig2", f"{J23_FIG2_POLISHED}/polish")
    wildcard_constraints:
        depth="|".join(map(str, J23_FIG2_DEPTHS)),
        seed="|".join(map(str, J23_FIG2_SEEDS)),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG2["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig2.py"


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
        "../scripts/aggregate_jacot2023_fig2.py"


# ------------------------------------------------------------------------------ Fig. 2 study

J23_FIG2_STUDY = J23["fig2_study"]
J23_FIG2_STUDY_FAMILIES = {f["name"]: f for f in J23_FIG2_STUDY["families"]}
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


rule train_jacot2023_fig2_study:
    input:
        code=script_code("train_jacot2023_fig2_study"),
    output:
        networks=f"results/{J23_FIG2_STUDY_RUN}/networks.csv",
        tripoints=f"results/{J23_FIG2_STUDY_RUN}/tripoints.csv",
        maps=f"results/{J23_FIG2_STUDY_RUN}/maps.npz",
        checkpoint=f"results/{J23_FIG2_STUDY_RUN}/model.pt",
    log:
        job_log(J23_FIG2_STUDY_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig2_study", J23_FIG2_STUDY_RUN)
    wildcard_constraints:
        family="|".join(J23_FIG2_STUDY_FAMILIES),
        depth="|".join(map(str, J23_FIG2_STUDY["depths"])),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig2_study"),
    params:
        resume=resume_dir,
        study=lambda wc: {
            "family": J23_FIG2_STUDY_FAMILIES[wc.family],
            "depth": int(wc.depth),
            "width": int(wc.width),
            "seeds": J23_FIG2_STUDY_SEEDS,
            "pads": J23_FIG2_STUDY["pads"],
            "margin": J23_FIG2_STUDY["margin"],
        }
        | {k: J23_FIG2[k] for k in ("classes", "per_class", "noise", "lams", "grid")},
        phases=J23_FIG2_STUDY["phases"],
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig2_study.py"


# The networks trained with L2 carried on to a stationary point of their objective
# (l2relu.polish), each on its seed's data: the ledger reads the study on both.
J23_FIG2_STUDY_POLISHED = f"{J23_FIG2_STUDY_RUN}/polish{J23_FIG2_STUDY['polish_iterations']}"


rule polish_jacot2023_fig2_study:
    input:
        checkpoint=rules.train_jacot2023_fig2_study.output.checkpoint,
        code=script_code("polish_jacot2023_fig2_study"),
    output:
        checkpoint=f"results/{J23_FIG2_STUDY_POLISHED}/model.pt",
        networks=f"results/{J23_FIG2_STUDY_POLISHED}/networks.csv",
        tripoints=f"results/{J23_FIG2_STUDY_POLISHED}/tripoints.csv",
        maps=f"results/{J23_FIG2_STUDY_POLISHED}/maps.npz",
        certificate=f"results/{J23_FIG2_STUDY_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_FIG2_STUDY_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_fig2_study", f"{J23_FIG2_STUDY_POLISHED}/polish")
    wildcard_constraints:
        family="|".join(J23_FIG2_STUDY_FAMILIES),
        depth="|".join(map(str, J23_FIG2_STUDY["depths"])),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG2_STUDY["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig2_study.py"


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
        "../scripts/aggregate_jacot2023_fig2_study.py"


# ------------------------------------------------------------------------------ Fig. 3

J23_FIG3 = J23["fig3"]
J23_CURVE = J23_FIG3["curve"]
J23_MNIST = J23_FIG3["mnist"]
J23_LAM = fmt_lam(J23_FIG3["lam"])
# A seed draws the curve (or the noise), the points and the initialization: one data set per
# seed of the claims, the figure draws the first. The curve autoencoders of one architecture,
# one per seed, train together in one job.
J23_CURVE_SEEDS = seeds_from(J23_CURVE["seed"])
J23_CURVE_RUN = (
    "jacot2023/fig3/curves_g{curve_width}_n{n_train}_r{n_random}".format(**J23_CURVE)
    + f"_s{seed_range(J23_CURVE['seed'], config['seeds'])}/w{{width}}_d{{depth}}_lam{J23_LAM}"
)
J23_MNIST_SUBSET = MNIST_SUBSETS["jacot2023.fig3.mnist"]
J23_MNIST_SEEDS = seeds_from(J23_MNIST["seed"])
J23_MNIST_SET = "mnist_n{n_train}_t{n_noisy}_noise{noise}_s{{seed}}".format(**J23_MNIST)
J23_MNIST_RUN = f"jacot2023/fig3/{J23_MNIST_SET}/w{{width}}_d{{depth}}_lam{J23_LAM}"


rule train_jacot2023_fig3_curve:
    input:
        code=script_code("train_jacot2023_fig3_curve"),
    output:
        networks=f"results/{J23_CURVE_RUN}/networks.csv",
        outputs=f"results/{J23_CURVE_RUN}/outputs.csv",
        checkpoint=f"results/{J23_CURVE_RUN}/model.pt",
    log:
        job_log(J23_CURVE_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig3_curve", J23_CURVE_RUN)
    wildcard_constraints:
        **architecture_constraints(J23_CURVE),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig3_curve"),
    params:
        resume=resume_dir,
        data={k: J23_CURVE[k] for k in ("curve_width", "n_train", "n_random")},
        seeds=J23_CURVE_SEEDS,
        lam=J23_FIG3["lam"],
        phases=J23_CURVE["phases"],
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig3_curve.py"


rule train_jacot2023_fig3_mnist:
    input:
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        code=script_code("train_jacot2023_fig3_mnist"),
    output:
        images=f"results/{J23_MNIST_RUN}/images.npz",
        summary=f"results/{J23_MNIST_RUN}/summary.csv",
        checkpoint=f"results/{J23_MNIST_RUN}/model.pt",
    log:
        job_log(J23_MNIST_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig3_mnist", J23_MNIST_RUN)
    wildcard_constraints:
        **architecture_constraints(J23_MNIST),
        seed="|".join(map(str, J23_MNIST_SEEDS)),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig3_mnist"),
    params:
        resume=resume_dir,
        lam=J23_FIG3["lam"],
        phases=J23_MNIST["phases"],
        noise=lambda wc: {k: J23_MNIST[k] for k in ("noise", "n_noisy")} | {"seed": int(wc.seed)},
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig3_mnist.py"


# Each autoencoder carried on to a stationary point of its objective (l2relu.polish): the
# ledger reads the paper's observations on the schedule's networks, these beside them.
J23_CURVE_POLISHED = f"{J23_CURVE_RUN}/polish{J23_FIG3['polish_iterations']}"
J23_MNIST_POLISHED = f"{J23_MNIST_RUN}/polish{J23_FIG3['polish_iterations']}"


rule polish_jacot2023_fig3_curve:
    input:
        checkpoint=rules.train_jacot2023_fig3_curve.output.checkpoint,
        networks=rules.train_jacot2023_fig3_curve.output.networks,
        code=script_code("polish_jacot2023_fig3_curve"),
    output:
        checkpoint=f"results/{J23_CURVE_POLISHED}/model.pt",
        networks=f"results/{J23_CURVE_POLISHED}/networks.csv",
        outputs=f"results/{J23_CURVE_POLISHED}/outputs.csv",
        certificate=f"results/{J23_CURVE_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_CURVE_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_fig3_curve", f"{J23_CURVE_POLISHED}/polish")
    wildcard_constraints:
        **architecture_constraints(J23_CURVE),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG3["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig3_curve.py"


rule polish_jacot2023_fig3_mnist:
    input:
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        checkpoint=rules.train_jacot2023_fig3_mnist.output.checkpoint,
        summary=rules.train_jacot2023_fig3_mnist.output.summary,
        code=script_code("polish_jacot2023_fig3_mnist"),
    output:
        checkpoint=f"results/{J23_MNIST_POLISHED}/model.pt",
        summary=f"results/{J23_MNIST_POLISHED}/summary.csv",
        certificate=f"results/{J23_MNIST_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_MNIST_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_fig3_mnist", f"{J23_MNIST_POLISHED}/polish")
    wildcard_constraints:
        **architecture_constraints(J23_MNIST),
        seed="|".join(map(str, J23_MNIST_SEEDS)),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG3["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig3_mnist.py"


rule aggregate_jacot2023_fig3:
    input:
        registry=claims_registry("jacot2023_fig3"),
        curve=autoencoder_runs(rules.train_jacot2023_fig3_curve.output.networks, J23_CURVE, None),
        mnist=every_seeds_autoencoders(
            rules.train_jacot2023_fig3_mnist.output.summary, J23_MNIST, J23_MNIST_SEEDS
        ),
        polished_curve=autoencoder_runs(
            rules.polish_jacot2023_fig3_curve.output.networks, J23_CURVE, None
        ),
        polished_mnist=every_seeds_autoencoders(
            rules.polish_jacot2023_fig3_mnist.output.summary, J23_MNIST, J23_MNIST_SEEDS
        ),
        certificates=autoencoder_runs(
            rules.polish_jacot2023_fig3_curve.output.certificate, J23_CURVE, None
        )
        + every_seeds_autoencoders(
            rules.polish_jacot2023_fig3_mnist.output.certificate, J23_MNIST, J23_MNIST_SEEDS
        ),
        code=script_code("aggregate_jacot2023_fig3"),
    output:
        summary="results/jacot2023/fig3/summary.csv",
        claims=claims_rows("jacot2023_fig3"),
    log:
        "logs/jacot2023/fig3/aggregate.log",
    localrule: True
    conda:
        ENV
    script:
        "../scripts/aggregate_jacot2023_fig3.py"


# ------------------------------------------------------------------------------ Fig. 3 study

J23_FIG3_STUDY = J23["fig3_study"]
J23_STUDY_CURVE = J23_FIG3_STUDY["curve"]
J23_STUDY_MNIST = J23_FIG3_STUDY["mnist"]
J23_STUDY_CURVE_SET = (
    f"jacot2023/fig3_study/curves_g{J23_STUDY_CURVE['curve_width']}_n{J23_CURVE['n_train']}"
    f"_r{J23_CURVE['n_random']}_injective{J23_STUDY_CURVE['n_curves']}from{J23_CURVE['seed']}"
)
J23_STUDY_CURVE_RUN = (
    f"{J23_STUDY_CURVE_SET}/d{{depth}}_lam{J23_LAM}_s{seed_range(0, J23_STUDY_CURVE['n_seeds'])}"
    f"_repeats{J23_STUDY_CURVE['max_repeats']}"
)
# the study's MNIST autoencoders: Fig. 3's shallow one, and a deep one of the study's own
J23_STUDY_MNIST_ARCH = {"shallow": J23_MNIST["shallow"], "deep": J23_STUDY_MNIST["deep"]}
J23_STUDY_MNIST_SEEDS = seed_list(J23_MNIST["seed"], J23_STUDY_MNIST["n_seeds"])
J23_STUDY_MNIST_RUN = (
    f"jacot2023/fig3_study/mnist_n{J23_MNIST['n_train']}_t{J23_MNIST['n_noisy']}"
    f"_noise{J23_MNIST['noise']}/{{kind}}_lam{J23_LAM}"
    f"_s{seed_range(J23_MNIST['seed'], J23_STUDY_MNIST['n_seeds'])}"
    f"_repeats{J23_STUDY_MNIST['max_repeats']}"
)
# a network is settled when its objective moved by at most this over its last stretch
J23_STUDY_SETTLED = reading_parameter("jacot2023.fig3study.converged", "bar")


rule screen_jacot2023_fig3_study_curves:
    input:
        code=script_code("screen_jacot2023_fig3_study_curves"),
    output:
        screen=f"results/{J23_STUDY_CURVE_SET}/screen.csv",
    log:
        f"logs/{J23_STUDY_CURVE_SET}/screen.log",
    localrule: True
    conda:
        ENV
    params:
        curve_width=J23_STUDY_CURVE["curve_width"],
        first=J23_CURVE["seed"],
        n_curves=J23_STUDY_CURVE["n_curves"],
    script:
        "../scripts/screen_jacot2023_fig3_study_curves.py"


rule train_jacot2023_fig3_study_curve:
    input:
        screen=rules.screen_jacot2023_fig3_study_curves.output.screen,
        code=script_code("train_jacot2023_fig3_study_curve"),
    output:
        networks=f"results/{J23_STUDY_CURVE_RUN}/networks.csv",
        outputs=f"results/{J23_STUDY_CURVE_RUN}/outputs.csv",
        checkpoint=f"results/{J23_STUDY_CURVE_RUN}/model.pt",
    log:
        job_log(J23_STUDY_CURVE_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig3_study_curve", J23_STUDY_CURVE_RUN)
    wildcard_constraints:
        depth="|".join(map(str, J23_STUDY_CURVE["depths"])),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig3_study_curve"),
    params:
        resume=resume_dir,
        study=lambda wc: {
            "curve_width": J23_STUDY_CURVE["curve_width"],
            "seeds": seed_list(0, J23_STUDY_CURVE["n_seeds"]),
            "n_train": J23_CURVE["n_train"],
            "n_random": J23_CURVE["n_random"],
            "depth": int(wc.depth),
            "width": study_width(J23_CURVE, int(wc.depth)),
            "lam": J23_FIG3["lam"],
        },
        phases=J23_STUDY_CURVE["phases"],
        settling={"bar": J23_STUDY_SETTLED, "max_repeats": J23_STUDY_CURVE["max_repeats"]},
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig3_study_curve.py"


rule train_jacot2023_fig3_study_mnist:
    input:
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        code=script_code("train_jacot2023_fig3_study_mnist"),
    output:
        networks=f"results/{J23_STUDY_MNIST_RUN}/networks.csv",
        projections=f"results/{J23_STUDY_MNIST_RUN}/projections.csv",
        checkpoint=f"results/{J23_STUDY_MNIST_RUN}/model.pt",
    log:
        job_log(J23_STUDY_MNIST_RUN),
    benchmark:
        job_benchmark("train_jacot2023_fig3_study_mnist", J23_STUDY_MNIST_RUN)
    wildcard_constraints:
        kind="shallow|deep",
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_fig3_study_mnist"),
    params:
        resume=resume_dir,
        study=lambda wc: J23_STUDY_MNIST_ARCH[wc.kind]
        | {
            "lam": J23_FIG3["lam"],
            "noise": J23_MNIST["noise"],
            "n_noisy": J23_MNIST["n_noisy"],
            "seeds": J23_STUDY_MNIST_SEEDS,
        },
        phases=J23_STUDY_MNIST["phases"],
        settling={"bar": J23_STUDY_SETTLED, "max_repeats": J23_STUDY_MNIST["max_repeats"]},
        device=config["device"],
    script:
        "../scripts/train_jacot2023_fig3_study_mnist.py"


# Every autoencoder carried on, on its own data, to a stationary point of its objective
# (l2relu.polish): the ledger reads the study on both networks.
J23_STUDY_POLISH = f"polish{J23_FIG3_STUDY['polish_iterations']}"


rule polish_jacot2023_fig3_study_curve:
    input:
        checkpoint=rules.train_jacot2023_fig3_study_curve.output.checkpoint,
        networks=rules.train_jacot2023_fig3_study_curve.output.networks,
        code=script_code("polish_jacot2023_fig3_study_curve"),
    output:
        checkpoint=f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/model.pt",
        networks=f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/networks.csv",
        certificate=f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/certificate.csv",
    log:
        job_log(f"{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/polish"),
    benchmark:
        job_benchmark(
            "polish_jacot2023_fig3_study_curve", f"{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}"
        )
    wildcard_constraints:
        depth="|".join(map(str, J23_STUDY_CURVE["depths"])),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG3_STUDY["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig3_study_curve.py"


rule polish_jacot2023_fig3_study_mnist:
    input:
        checkpoint=rules.train_jacot2023_fig3_study_mnist.output.checkpoint,
        networks=rules.train_jacot2023_fig3_study_mnist.output.networks,
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        code=script_code("polish_jacot2023_fig3_study_mnist"),
    output:
        checkpoint=f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/model.pt",
        networks=f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/networks.csv",
        certificate=f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/certificate.csv",
    log:
        job_log(f"{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/polish"),
    benchmark:
        job_benchmark(
            "polish_jacot2023_fig3_study_mnist", f"{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}"
        )
    wildcard_constraints:
        kind="shallow|deep",
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_FIG3_STUDY["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_fig3_study_mnist.py"


rule aggregate_jacot2023_fig3_study:
    input:
        curves=expand(
            rules.train_jacot2023_fig3_study_curve.output.networks,
            depth=J23_STUDY_CURVE["depths"],
        ),
        mnist=expand(
            rules.train_jacot2023_fig3_study_mnist.output.networks, kind=("shallow", "deep")
        ),
        polished_curves=expand(
            rules.polish_jacot2023_fig3_study_curve.output.networks,
            depth=J23_STUDY_CURVE["depths"],
        ),
        polished_mnist=expand(
            rules.polish_jacot2023_fig3_study_mnist.output.networks, kind=("shallow", "deep")
        ),
        certificates=expand(
            rules.polish_jacot2023_fig3_study_curve.output.certificate,
            depth=J23_STUDY_CURVE["depths"],
        )
        + expand(
            rules.polish_jacot2023_fig3_study_mnist.output.certificate, kind=("shallow", "deep")
        ),
        projections=expand(
            rules.train_jacot2023_fig3_study_mnist.output.projections, kind=("shallow", "deep")
        ),
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        registry=claims_registry("jacot2023_fig3_study"),
        code=script_code("aggregate_jacot2023_fig3_study"),
    output:
        curves="results/jacot2023/fig3_study/curves.csv",
        mnist="results/jacot2023/fig3_study/mnist.csv",
        polished_curves="results/jacot2023/fig3_study/polished_curves.csv",
        polished_mnist="results/jacot2023/fig3_study/polished_mnist.csv",
        projections="results/jacot2023/fig3_study/mnist_projections.csv",
        polyline=f"results/{J23_STUDY_CURVE_SET}/first_curve.csv",
        claims=claims_rows("jacot2023_fig3_study"),
    log:
        "logs/jacot2023/fig3_study/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        shallow_depth=J23_CURVE["shallow"]["depth"],
        deep_from=J23_STUDY_CURVE["deep_from"],
        curve_width=J23_STUDY_CURVE["curve_width"],
    script:
        "../scripts/aggregate_jacot2023_fig3_study.py"


# ------------------------------------------------------------------------------ rank study

J23_RANK = J23["rank_study"]
J23_RANK_SEEDS = seed_list(J23_FIG1["seed"], J23_RANK["n_seeds"])
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


rule train_jacot2023_rank_study:
    input:
        code=script_code("train_jacot2023_rank_study"),
    output:
        checkpoint=f"results/{J23_RANK_RUN}/model.pt",
        runs=f"results/{J23_RANK_RUN}/runs.csv",
        trace=f"results/{J23_RANK_RUN}/trace.csv",
    log:
        job_log(f"{J23_RANK_RUN}/train"),
    benchmark:
        job_benchmark("train_jacot2023_rank_study", f"{J23_RANK_RUN}/train")
    wildcard_constraints:
        scale="|".join(J23_RANK["scales"]),
        depth="|".join(map(str, J23_RANK["depths"])),
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_rank_study"),
    params:
        resume=resume_dir,
        task=J23_TASK,
        study=lambda wc: rank_study_params(J23_RANK, J23_FIG1, int(wc.depth), J23_RANK_SEEDS)
        | {"scale": wc.scale},
        device=config["device"],
    script:
        "../scripts/train_jacot2023_rank_study.py"


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
        "../scripts/select_jacot2023_rank_study_setting.py"


rule train_jacot2023_rank_study_selected:
    input:
        setting=rules.select_jacot2023_rank_study_setting.output.setting,
        code=script_code("train_jacot2023_rank_study"),
    output:
        checkpoint=f"results/{J23_RANK_SELECTED}/model.pt",
        runs=f"results/{J23_RANK_SELECTED}/runs.csv",
        trace=f"results/{J23_RANK_SELECTED}/trace.csv",
    log:
        job_log(f"{J23_RANK_SELECTED}/train"),
    benchmark:
        job_benchmark("train_jacot2023_rank_study_selected", f"{J23_RANK_SELECTED}/train")
    conda:
        ENV
    threads: 1
    resources:
        **training_resources("train_jacot2023_rank_study_selected"),
    params:
        resume=resume_dir,
        task=J23_TASK,
        study=rank_study_params(J23_RANK, J23_FIG1, J23_RANK["extra_depth"], J23_RANK_SEEDS),
        device=config["device"],
    script:
        "../scripts/train_jacot2023_rank_study.py"


J23_RANK_SWEPT = expand(J23_RANK_RUN, scale=J23_RANK["scales"], depth=J23_RANK["depths"]) + [
    J23_RANK_SELECTED
]
# Every network of each run carried on to a stationary point of its objective (l2relu.polish),
# one job a run (either training rule's): the Jacobian's rank, stated at minima, reads these.
J23_RANK_POLISHED = "{{run}}/polish{iterations}".format(iterations=J23_RANK["polish_iterations"])


rule polish_jacot2023_rank_study:
    input:
        checkpoint="results/{run}/model.pt",
        runs="results/{run}/runs.csv",
        code=script_code("polish_jacot2023_rank_study"),
    output:
        checkpoint=f"results/{J23_RANK_POLISHED}/model.pt",
        runs=f"results/{J23_RANK_POLISHED}/runs.csv",
        certificate=f"results/{J23_RANK_POLISHED}/certificate.csv",
    log:
        job_log(f"{J23_RANK_POLISHED}/polish"),
    benchmark:
        job_benchmark("polish_jacot2023_rank_study", f"{J23_RANK_POLISHED}/polish")
    wildcard_constraints:
        run="|".join(map(re.escape, J23_RANK_SWEPT)),
    conda:
        ENV
    threads: 1
    resources:
        gpu=config["resources"]["train_gpus"],
    params:
        resume=resume_dir,
        iterations=J23_RANK["polish_iterations"],
        device=config["device"],
    script:
        "../scripts/polish_jacot2023_rank_study.py"


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
        "../scripts/aggregate_jacot2023_rank_study.py"


# ------------------------------------------------------------------------------ targets

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

register_target(
    "jacot2023_krr",
    "jacot2023 App. D.1 (no figure): the Jacobian rank of kernel ridge regression against the deep net's; the constructions of Secs. 3-5 and Apps. A-F",
    tables=dict(
        spectra=rules.compute_jacot2023_krr.output.spectra,
        fits=rules.compute_jacot2023_krr.output.fits,
    ),
    true_rank=J23_TASK["true_rank"],
    # the figure's approximate-rank line: the threshold reading of the network Jacobian's rank
    approx_rel_tol=readings_parameter("jacot2023.krr.network_jacobian_rank", "rel_tol")[
        "values above 1e-2"
    ],
)

register_target(
    "jacot2023_depth",
    "jacot2023 Section 4 (no figure): learned rank and ||W||^2/L against depth, two data sizes",
    tables=dict(
        sweep=rules.aggregate_jacot2023_depth.output.sweep,
    ),
    true_rank=J23_TASK["true_rank"],
)

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

register_target(
    "jacot2023_fig3",
    "jacot2023 Fig. 3: deep and shallow autoencoders on MNIST and on a curve in the plane",
    tables=dict(
        curve=[
            rules.train_jacot2023_fig3_curve.output.outputs.format(**J23_CURVE[kind])
            for kind in ("shallow", "deep")
        ],
        images=rules.train_jacot2023_fig3_mnist.output.images.format(
            **J23_MNIST["deep"], seed=J23_MNIST_SEEDS[0]
        ),
        summary=rules.aggregate_jacot2023_fig3.output.summary,
    ),
    curve_width=J23_CURVE["curve_width"],
    curve_n_train=J23_CURVE["n_train"],
)

register_target(
    "jacot2023_fig3_study",
    "jacot2023 Fig. 3 study: autoencoders on smooth random curves and MNIST, trained to convergence, over depth",
    tables=dict(
        curves=rules.aggregate_jacot2023_fig3_study.output.curves,
        mnist=rules.aggregate_jacot2023_fig3_study.output.mnist,
        projections=rules.aggregate_jacot2023_fig3_study.output.projections,
        polyline=rules.aggregate_jacot2023_fig3_study.output.polyline,
        polished_curves=rules.aggregate_jacot2023_fig3_study.output.polished_curves,
        polished_mnist=rules.aggregate_jacot2023_fig3_study.output.polished_mnist,
        outputs=expand(
            rules.train_jacot2023_fig3_study_curve.output.outputs,
            depth=J23_STUDY_CURVE["depths"],
        ),
    ),
    distance_bar=claim_ceiling("jacot2023.fig3study.deep_denoises"),
    jacobian_bar=claim_ceiling("jacot2023.fig3study.deep_jacobian_rank_one"),
    settled_bar=J23_STUDY_SETTLED,
    # how each reading of the projection row reads the digits' dimension k, the primary first
    # (a list: the parameters reach the notebook with their keys sorted)
    projection_readings=list(
        readings_parameters("jacot2023.fig3study.mnist_noise_like_projection").items()
    ),
)

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
