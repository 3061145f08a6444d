# ---------------------------------------------------------------- App. D.1 (KRR), constructions

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
        "../../scripts/construct_jacot2023_propositions.py"


J23_REMARK2 = J23["remark2"]
# A seed is a set of restarts, as in jacot2022's plateaus; one job per group of widths trains
# its seeds in turn.
J23_REMARK2_SEEDS = restart_sets(config, J23_REMARK2["seed"], J23_REMARK2["restarts"])
J23_REMARK2_RUN = "jacot2023/remark2/{setting}_n{N}_d{depth}_lam{lam}/{{group}}_s{{seeds}}".format(
    setting=REMARK2_SETTING, **J23_REMARK2 | {"lam": fmt_lam(J23_REMARK2["lam"])}
)
J23_REMARK2_JOB = seeds_in_turn(J23_REMARK2_RUN, J23_REMARK2_SEEDS)


J23_REMARK2_JOBS = [{"group": g} for g in REMARK2_GROUPS]


training_rule(
    "train_jacot2023_remark2",
    script_name="train_jacot2022_plateau",
    job=J23_REMARK2_JOB,
    outputs={
        "losses": per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_RUN}/losses.csv"),
        "networks": per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_RUN}/networks.npz"),
    },
    constraints={
        "group": "|".join(REMARK2_GROUPS),
    },
    device=False,
)


# Each Remark 2 job's networks carried on to a stationary point of their objective, as
# jacot2022's plateaus are: "n* = N(N + 1)" speaks of global minima.
J23_REMARK2_POLISHED = f"{J23_REMARK2_RUN}/polish{J23_REMARK2['polish_iterations']}"
J23_REMARK2_POLISH_JOB = f"{J23_REMARK2_JOB}/polish{J23_REMARK2['polish_iterations']}"


training_rule(
    "polish_jacot2023_remark2",
    script_name="polish_jacot2022_plateau",
    job=J23_REMARK2_POLISH_JOB,
    inputs={
        "losses": rules.train_jacot2023_remark2.output.losses,
        "networks": rules.train_jacot2023_remark2.output.networks,
    },
    outputs={
        "losses": per_seed_files(J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/losses.csv"),
        "networks": per_seed_files(
            J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/networks.npz"
        ),
        "certificate": per_seed_files(
            J23_REMARK2_SEEDS, f"results/{J23_REMARK2_POLISHED}/certificate.csv"
        ),
    },
    constraints={
        "group": "|".join(REMARK2_GROUPS),
    },
    gpu=False,
    device=False,
)


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
        "../../scripts/compute_jacot2023_krr.py"


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
