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
    input:
        code=script_code("train_timor2022_fig1"),
    output:
        runs=f"results/{FIG1_RUN}/runs.csv",
        checkpoint=f"results/{FIG1_RUN}/checkpoint.pt",
    log:
        f"logs/{FIG1_RUN}.log",
    wildcard_constraints:
        variant="|".join(FIG1_VARIANTS),
        seeds=FIG1_SEEDS,
    conda:
        ENV
    threads: 4
    resources:
        **TRAINING_RESOURCES,
    params:
        config=lambda wc: {
            k: v for k, v in FIG1.items() if k not in ("log_every", "stable_rank_floor")
        }
        | {"variant": wc.variant},
        log_every=FIG1["log_every"],
    script:
        "../scripts/train_timor2022_fig1.py"


rule train_timor2022_deep:
    input:
        code=script_code("train_timor2022_deep"),
    output:
        metrics=f"results/{DEEP_RUN}/metrics.csv",
        checkpoint=f"results/{DEEP_RUN}/checkpoint.pt",
    log:
        f"logs/{DEEP_RUN}.log",
    wildcard_constraints:
        theorem="4|5",
        width=str(DEEP["width"]),
        depth="|".join(str(d) for d in DEEP["depths"]),
        lam="|".join(re.escape(fmt_lam(v)) for v in DEEP_LAM.values()),
        seeds=DEEP_SEEDS,
    conda:
        ENV
    threads: 1
    resources:
        **TORCH_TRAINING_RESOURCES,
    params:
        resume=resume_dir,
        teacher=lambda wc: TIMOR["theory"]["teacher"] | {"theorem": int(wc.theorem)},
        deep=lambda wc: {
            k: v for k, v in DEEP.items() if k not in ("depths", "lam_theorem4", "lam_theorem5")
        }
        | {"depth": int(wc.depth), "lam": DEEP_LAM[int(wc.theorem)]},
        device=config["device"],
    script:
        "../scripts/train_timor2022_deep.py"


# ---------------------------------------------------------------- computed, not trained


rule compute_timor2022_fig2_regions:
    input:
        code=script_code("compute_timor2022_fig2_regions"),
    output:
        regions="results/timor2022/fig2/regions.csv",
        claims=claims_rows("timor2022_fig2"),
    log:
        "logs/timor2022/fig2/compute_regions.log",
    conda:
        ENV
    params:
        x1=FIG1["x1"],
        x2=FIG1["x2"],
        extent=TIMOR["regions"]["extent"],
        grid_size=TIMOR["regions"]["grid_size"],
    script:
        "../scripts/compute_timor2022_fig2_regions.py"


rule compute_timor2022_fig3_regions:
    input:
        code=script_code("compute_timor2022_fig3_regions"),
    output:
        regions="results/timor2022/fig3/regions.csv",
        boundaries="results/timor2022/fig3/boundaries.csv",
        claims=claims_rows("timor2022_fig3"),
    log:
        "logs/timor2022/fig3/compute_regions.log",
    conda:
        ENV
    params:
        **TIMOR["regions"],
        x1=FIG1["x1"],
        x2=FIG1["x2"],
    script:
        "../scripts/compute_timor2022_fig3_regions.py"


rule construct_timor2022_theorem1:
    input:
        code=script_code("construct_timor2022_theorem1"),
    output:
        table="results/timor2022/theory/theorem1.csv",
    log:
        "logs/timor2022/theory/construct_theorem1.log",
    conda:
        ENV
    params:
        n_datasets=TIMOR["theory"]["theorem1_datasets"],
    script:
        "../scripts/construct_timor2022_theorem1.py"


# ---------------------------------------------------------------------------- aggregation


rule aggregate_timor2022_fig1:
    input:
        code=script_code("aggregate_timor2022_fig1"),
        runs=FIG1_RUNS,
    output:
        table="results/timor2022/fig1/stable_ranks.csv",
        claims=claims_rows("timor2022_fig1"),
    log:
        "logs/timor2022/fig1/aggregate.log",
    conda:
        ENV
    params:
        stable_rank_floor=FIG1["stable_rank_floor"],
    script:
        "../scripts/aggregate_timor2022_fig1.py"


rule aggregate_timor2022_theory:
    input:
        code=script_code("aggregate_timor2022_theory"),
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
    log:
        "logs/timor2022/theory/aggregate.log",
    conda:
        ENV
    params:
        x1=FIG1["x1"],
        x2=FIG1["x2"],
    script:
        "../scripts/aggregate_timor2022_theory.py"


# ---------------------------------------------------------------------------------- figures


rule execute_timor2022_fig1_notebook:
    input:
        **notebook_inputs("timor2022_fig1"),
        table="results/timor2022/fig1/stable_ranks.csv",
    output:
        notebook="results/notebooks/timor2022_fig1.ipynb",
        pdf="figures/timor2022_fig1.pdf",
        png=report(
            "figures/timor2022_fig1.png",
            caption="../report/timor2022_fig1.rst",
            category="timor2022",
        ),
    log:
        "logs/notebooks/timor2022_fig1.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(variant=FIG1["variant"]),
    shell:
        PAPERMILL


rule execute_timor2022_fig2_notebook:
    input:
        **notebook_inputs("timor2022_fig2"),
        regions="results/timor2022/fig2/regions.csv",
    output:
        notebook="results/notebooks/timor2022_fig2.ipynb",
        pdf="figures/timor2022_fig2.pdf",
        png=report(
            "figures/timor2022_fig2.png",
            caption="../report/timor2022_fig2.rst",
            category="timor2022",
        ),
    log:
        "logs/notebooks/timor2022_fig2.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(x1=FIG1["x1"], x2=FIG1["x2"]),
    shell:
        PAPERMILL


rule execute_timor2022_fig3_notebook:
    input:
        **notebook_inputs("timor2022_fig3"),
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
    log:
        "logs/notebooks/timor2022_fig3.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(x1=FIG1["x1"], x2=FIG1["x2"]),
    shell:
        PAPERMILL


rule execute_timor2022_theory_notebook:
    input:
        **notebook_inputs("timor2022_theory"),
        deep="results/timor2022/theory/deep.csv",
    output:
        notebook="results/notebooks/timor2022_theory.ipynb",
        pdf="figures/timor2022_theory.pdf",
        png=report(
            "figures/timor2022_theory.png",
            caption="../report/timor2022_theory.rst",
            category="timor2022",
        ),
    log:
        "logs/notebooks/timor2022_theory.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(),
    shell:
        PAPERMILL


# ------------------------------------------------------------------------- target rules


rule timor2022_fig1:
    """timor2022 Fig. 1: stable ranks of W1, W2 over 288 depth-2, width-2 networks trained by GD"""
    input:
        target_files("timor2022_fig1"),


rule timor2022_fig2:
    """timor2022 Fig. 2: the regions D, S1, S2, S of weight space for the data x1, x2 (Section 6.1)"""
    input:
        target_files("timor2022_fig2"),


rule timor2022_fig3:
    """timor2022 Fig. 3: the regions F_i and A_i (Section 6, Lemma 6)"""
    input:
        target_files("timor2022_fig3"),


rule timor2022_theory:
    """timor2022 Thms 1, 3, 4-5 (no figure): rank-1 zero-loss network, convergence probability, deep L2 students"""
    input:
        target_files("timor2022_theory"),
