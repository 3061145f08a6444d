# timor2022: Timor, Vardi, Shamir, "Implicit regularization towards rank minimization in ReLU
# networks". Fig. 1 (Section 3.1), Figs. 2-3 (Section 6, Lemma 6) and checks of Theorems 1-5.

TIMOR = config["timor2022"]
FIG1 = TIMOR["fig1"]
DEEP = TIMOR["theory"]["deep"]
FIG1_VARIANTS = ["paper_text", "author_code"]
FIG1_SEEDS = seed_range(FIG1["first_seed"], FIG1["n_runs"])
DEEP_SEEDS = seed_range(DEEP["first_seed"], DEEP["n_seeds"])
DEEP_LAM = {4: DEEP["lam_theorem4"], 5: DEEP["lam_theorem5"]}
# One sweep point of Fig. 1 holds all its seeds: the engine trains them together.
FIG1_RUN = "timor2022/fig1/{variant}/w2_d2_lam0_s{seeds}"
DEEP_RUN = "timor2022/theory/theorem{theorem}/w{width}_d{depth}_lam{lam}_s{seeds}"


FIG1_RUNS = expand(f"results/{FIG1_RUN}/runs.csv", variant=FIG1_VARIANTS, seeds=FIG1_SEEDS)


# ---------------------------------------------------------------------------------- training


rule train_timor2022_fig1:
    wildcard_constraints:
        variant="|".join(FIG1_VARIANTS),
        seeds=FIG1_SEEDS,
    input:
        code=src_modules("twolayer", "measures", "seeding", "io", "timor2022/fig1"),
    output:
        runs=f"results/{FIG1_RUN}/runs.csv",
        checkpoint=f"results/{FIG1_RUN}/checkpoint.pt",
    conda:
        ENV
    log:
        f"logs/{FIG1_RUN}.log",
    params:
        config=lambda wc: {
            k: v for k, v in FIG1.items() if k not in ("log_every", "stable_rank_floor")
        }
        | {"variant": wc.variant},
        log_every=FIG1["log_every"],
    threads: 4
    resources:
        **TRAINING_RESOURCES,
    script:
        "../scripts/train_timor2022_fig1.py"


rule train_timor2022_deep:
    wildcard_constraints:
        theorem="4|5",
        width=str(DEEP["width"]),
        depth="|".join(str(d) for d in DEEP["depths"]),
        lam="|".join(re.escape(fmt_lam(v)) for v in DEEP_LAM.values()),
        seeds=DEEP_SEEDS,
    input:
        code=src_modules("engine", "measures", "seeding", "io", "timor2022/deep", "timor2022/theory"),
    output:
        metrics=f"results/{DEEP_RUN}/metrics.csv",
        checkpoint=f"results/{DEEP_RUN}/checkpoint.pt",
    conda:
        ENV
    log:
        f"logs/{DEEP_RUN}.log",
    params:
        resume=resume_dir,
        teacher=lambda wc: TIMOR["theory"]["teacher"] | {"theorem": int(wc.theorem)},
        deep=lambda wc: {
            k: v for k, v in DEEP.items() if k not in ("depths", "lam_theorem4", "lam_theorem5")
        }
        | {"depth": int(wc.depth), "lam": DEEP_LAM[int(wc.theorem)]},
        device=config["device"],
    threads: 1
    resources:
        **TORCH_TRAINING_RESOURCES,
    script:
        "../scripts/train_timor2022_deep.py"


# ---------------------------------------------------------------- computed, not trained


rule compute_timor2022_fig2_regions:
    input:
        code=src_modules("claims", "timor2022/regions", "timor2022/ledger"),
    output:
        regions="results/timor2022/fig2/regions.csv",
        claims=claims_rows("timor2022_fig2"),
    conda:
        ENV
    log:
        "logs/timor2022/fig2/compute_regions.log",
    params:
        x1=FIG1["x1"],
        x2=FIG1["x2"],
        extent=TIMOR["regions"]["extent"],
        grid_size=TIMOR["regions"]["grid_size"],
    script:
        "../scripts/compute_timor2022_fig2_regions.py"


rule compute_timor2022_fig3_regions:
    input:
        code=src_modules("claims", "timor2022/regions", "timor2022/ledger"),
    output:
        regions="results/timor2022/fig3/regions.csv",
        boundaries="results/timor2022/fig3/boundaries.csv",
        claims=claims_rows("timor2022_fig3"),
    conda:
        ENV
    log:
        "logs/timor2022/fig3/compute_regions.log",
    params:
        x1=FIG1["x1"],
        x2=FIG1["x2"],
        **TIMOR["regions"],
    script:
        "../scripts/compute_timor2022_fig3_regions.py"


rule construct_timor2022_theorem1:
    input:
        code=src_modules("measures", "timor2022/theory"),
    output:
        table="results/timor2022/theory/theorem1.csv",
    conda:
        ENV
    log:
        "logs/timor2022/theory/construct_theorem1.log",
    params:
        n_datasets=TIMOR["theory"]["theorem1_datasets"],
    script:
        "../scripts/construct_timor2022_theorem1.py"


# ---------------------------------------------------------------------------- aggregation


rule aggregate_timor2022_fig1:
    input:
        code=src_modules("claims", "measures", "timor2022/ledger"),
        runs=FIG1_RUNS,
    output:
        table="results/timor2022/fig1/stable_ranks.csv",
        claims=claims_rows("timor2022_fig1"),
    conda:
        ENV
    log:
        "logs/timor2022/fig1/aggregate.log",
    params:
        stable_rank_floor=FIG1["stable_rank_floor"],
    script:
        "../scripts/aggregate_timor2022_fig1.py"


rule aggregate_timor2022_theory:
    input:
        code=src_modules("claims", "measures", "timor2022/regions", "timor2022/theory", "timor2022/ledger"),
        theorem1="results/timor2022/theory/theorem1.csv",
        deep=expand(
            f"results/{DEEP_RUN}/metrics.csv",
            zip,
            theorem=[t for t in (4, 5) for _ in DEEP["depths"]],
            depth=DEEP["depths"] * 2,
            lam=[fmt_lam(DEEP_LAM[t]) for t in (4, 5) for _ in DEEP["depths"]],
            width=[DEEP["width"]] * 2 * len(DEEP["depths"]),
            seeds=[DEEP_SEEDS] * 2 * len(DEEP["depths"]),
        ),
        fig1_runs=FIG1_RUNS,
    output:
        deep="results/timor2022/theory/deep.csv",
        claims=claims_rows("timor2022_theory"),
    conda:
        ENV
    log:
        "logs/timor2022/theory/aggregate.log",
    params:
        x1=FIG1["x1"],
        x2=FIG1["x2"],
    script:
        "../scripts/aggregate_timor2022_theory.py"


# ---------------------------------------------------------------------------------- figures


rule execute_timor2022_fig1_notebook:
    input:
        notebook="notebooks/timor2022_fig1.ipynb",
        table="results/timor2022/fig1/stable_ranks.csv",
    output:
        notebook="results/notebooks/timor2022_fig1.ipynb",
        pdf="figures/timor2022_fig1.pdf",
        png=report(
            "figures/timor2022_fig1.png",
            caption="../report/timor2022_fig1.rst",
            category="timor2022",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/timor2022_fig1.log",
    params:
        parameters=notebook_parameters(variant=FIG1["variant"]),
    shell:
        PAPERMILL


rule execute_timor2022_fig2_notebook:
    input:
        notebook="notebooks/timor2022_fig2.ipynb",
        regions="results/timor2022/fig2/regions.csv",
    output:
        notebook="results/notebooks/timor2022_fig2.ipynb",
        pdf="figures/timor2022_fig2.pdf",
        png=report(
            "figures/timor2022_fig2.png",
            caption="../report/timor2022_fig2.rst",
            category="timor2022",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/timor2022_fig2.log",
    params:
        parameters=notebook_parameters(x1=FIG1["x1"], x2=FIG1["x2"]),
    shell:
        PAPERMILL


rule execute_timor2022_fig3_notebook:
    input:
        notebook="notebooks/timor2022_fig3.ipynb",
        regions="results/timor2022/fig3/regions.csv",
        boundaries="results/timor2022/fig3/boundaries.csv",
    output:
        notebook="results/notebooks/timor2022_fig3.ipynb",
        pdf="figures/timor2022_fig3.pdf",
        png=report(
            "figures/timor2022_fig3.png",
            caption="../report/timor2022_fig3.rst",
            category="timor2022",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/timor2022_fig3.log",
    params:
        parameters=notebook_parameters(x1=FIG1["x1"], x2=FIG1["x2"]),
    shell:
        PAPERMILL


rule execute_timor2022_theory_notebook:
    input:
        notebook="notebooks/timor2022_theory.ipynb",
        deep="results/timor2022/theory/deep.csv",
    output:
        notebook="results/notebooks/timor2022_theory.ipynb",
        pdf="figures/timor2022_theory.pdf",
        png=report(
            "figures/timor2022_theory.png",
            caption="../report/timor2022_theory.rst",
            category="timor2022",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/timor2022_theory.log",
    params:
        parameters=notebook_parameters(),
    shell:
        PAPERMILL


# ------------------------------------------------------------------------- target rules


rule timor2022_fig1:
    input:
        target_files("timor2022_fig1"),


rule timor2022_fig2:
    input:
        target_files("timor2022_fig2"),


rule timor2022_fig3:
    input:
        target_files("timor2022_fig3"),


rule timor2022_theory:
    input:
        target_files("timor2022_theory"),
