# timor2022: Timor, Vardi, Shamir, "Implicit regularization towards rank minimization in ReLU
# networks". Fig. 1 (Section 3.1), Figs. 2-3 (Section 6, Lemma 6) and checks of Theorems 1-5.

from l2relu.timor2022.experiments import deep_jobs, deep_lams, deep_networks, fig1_runs_in_all

TIMOR = config["timor2022"]
TIMOR_FIG1 = TIMOR["fig1"]
TIMOR_DEEP = TIMOR["theory"]["deep"]
TIMOR_FIG1_VARIANTS = ["paper_text", "author_code"]
# every seed's runs (Fig. 1) or restarts (Theorems 4-5) in one job
TIMOR_FIG1_RUNS_IN_ALL = fig1_runs_in_all(config)
TIMOR_FIG1_SEEDS = seed_range(TIMOR_FIG1["first_seed"], TIMOR_FIG1_RUNS_IN_ALL)
TIMOR_DEEP_NETWORKS = deep_networks(config)
TIMOR_DEEP_SEEDS = seed_range(TIMOR_DEEP["first_seed"], TIMOR_DEEP_NETWORKS)
TIMOR_DEEP_LAM = deep_lams(config)
# One sweep point of Fig. 1 holds all its seeds: the engine trains them together.
TIMOR_FIG1_RUN = "timor2022/fig1/{variant}/w2_d2_lam0_s{seeds}"
TIMOR_DEEP_RUN = "timor2022/theory/theorem{theorem}/w{width}_d{depth}_lam{lam}_s{seeds}"


TIMOR_FIG1_RUNS = expand(
    f"results/{TIMOR_FIG1_RUN}/runs.csv", variant=TIMOR_FIG1_VARIANTS, seeds=TIMOR_FIG1_SEEDS
)


# ---------------------------------------------------------------------------------- training


training_rule(
    "train_timor2022_fig1",
    script_name="train_timor2022_fig1",
    job=TIMOR_FIG1_RUN,
    outputs={
        "runs": f"results/{TIMOR_FIG1_RUN}/runs.csv",
        "checkpoint": f"results/{TIMOR_FIG1_RUN}/checkpoint.pt",
    },
    constraints={
        "variant": "|".join(TIMOR_FIG1_VARIANTS),
        "seeds": TIMOR_FIG1_SEEDS,
    },
    n_threads=4,
    gpu=False,
    device=False,
    resume=False,
)


training_rule(
    "train_timor2022_deep",
    script_name="train_timor2022_deep",
    job=TIMOR_DEEP_RUN,
    outputs={
        "metrics": f"results/{TIMOR_DEEP_RUN}/metrics.csv",
        "checkpoint": f"results/{TIMOR_DEEP_RUN}/checkpoint.pt",
    },
    constraints={
        "theorem": "4|5",
        "width": "|".join(str(w) for w in [TIMOR_DEEP["width"], *TIMOR_DEEP["other_widths"]]),
        "depth": "|".join(str(d) for d in TIMOR_DEEP["depths"]),
        "lam": "|".join(re.escape(fmt_lam(v)) for v in TIMOR_DEEP_LAM.values()),
        "seeds": TIMOR_DEEP_SEEDS,
    },
)


# The same networks carried on to a stationary point of their objective (l2relu.training.polish):
# Theorems 4-5 speak of optima, and read these.
TIMOR_DEEP_POLISHED = f"{TIMOR_DEEP_RUN}/polish{TIMOR_DEEP['polish_iterations']}"


training_rule(
    "polish_timor2022_deep",
    script_name="polish_timor2022_deep",
    job=f"{TIMOR_DEEP_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_timor2022_deep.output.checkpoint,
        "metrics": rules.train_timor2022_deep.output.metrics,
    },
    outputs={
        "checkpoint": f"results/{TIMOR_DEEP_POLISHED}/checkpoint.pt",
        "metrics": f"results/{TIMOR_DEEP_POLISHED}/metrics.csv",
        "certificate": f"results/{TIMOR_DEEP_POLISHED}/certificate.csv",
    },
)


# ---------------------------------------------------------------- computed, not trained


rule compute_timor2022_fig2_regions:
    input:
        registry=claims_registry("timor2022_fig2"),
        code=script_code("compute_timor2022_fig2_regions"),
    output:
        regions="results/timor2022/fig2/regions.csv",
        claims=claims_rows("timor2022_fig2"),
    log:
        "logs/timor2022/fig2/compute_regions.log",
    conda:
        ENV
    params:
        x1=TIMOR_FIG1["x1"],
        x2=TIMOR_FIG1["x2"],
        extent=TIMOR["regions"]["extent"],
        grid_size=TIMOR["regions"]["grid_size"],
    script:
        "../scripts/compute_timor2022_fig2_regions.py"


rule compute_timor2022_fig3_regions:
    input:
        registry=claims_registry("timor2022_fig3"),
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
        x1=TIMOR_FIG1["x1"],
        x2=TIMOR_FIG1["x2"],
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
        registry=claims_registry("timor2022_fig1"),
        code=script_code("aggregate_timor2022_fig1"),
        runs=TIMOR_FIG1_RUNS,
    output:
        table="results/timor2022/fig1/stable_ranks.csv",
        claims=claims_rows("timor2022_fig1"),
    log:
        "logs/timor2022/fig1/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        first_seed=TIMOR_FIG1["first_seed"],
        runs_per_seed=TIMOR_FIG1["n_runs"],
    script:
        "../scripts/aggregate_timor2022_fig1.py"


# Every (theorem, depth) job at the sweep's width, and the jobs at the other widths (Secs. 4-5:
# "the result does not depend on the width"), each read by rows of their own.
TIMOR_DEEP_JOBS = deep_jobs(config, TIMOR_DEEP_SEEDS, sweep_width=True)
TIMOR_WIDTH_JOBS = deep_jobs(config, TIMOR_DEEP_SEEDS, sweep_width=False)


rule aggregate_timor2022_theory:
    input:
        registry=claims_registry("timor2022_theory"),
        code=script_code("aggregate_timor2022_theory"),
        theorem1=rules.construct_timor2022_theorem1.output.table,
        deep=expand(rules.train_timor2022_deep.output.metrics, zip, **TIMOR_DEEP_JOBS),
        # in the same order as deep: the trained weights of each job's networks
        deep_weights=expand(rules.train_timor2022_deep.output.checkpoint, zip, **TIMOR_DEEP_JOBS),
        # the same networks polished, in the same order
        polished=expand(rules.polish_timor2022_deep.output.metrics, zip, **TIMOR_DEEP_JOBS),
        polished_weights=expand(
            rules.polish_timor2022_deep.output.checkpoint, zip, **TIMOR_DEEP_JOBS
        ),
        fig1_runs=TIMOR_FIG1_RUNS,
        # the networks at the other widths, as deep and polished above
        widths=expand(rules.train_timor2022_deep.output.metrics, zip, **TIMOR_WIDTH_JOBS),
        widths_weights=expand(rules.train_timor2022_deep.output.checkpoint, zip, **TIMOR_WIDTH_JOBS),
        widths_polished=expand(rules.polish_timor2022_deep.output.metrics, zip, **TIMOR_WIDTH_JOBS),
        widths_polished_weights=expand(
            rules.polish_timor2022_deep.output.checkpoint, zip, **TIMOR_WIDTH_JOBS
        ),
    output:
        deep="results/timor2022/theory/deep.csv",
        polished=f"results/timor2022/theory/deep_polish{TIMOR_DEEP['polish_iterations']}.csv",
        widths="results/timor2022/theory/deep_widths.csv",
        widths_polished=(
            f"results/timor2022/theory/deep_widths_polish{TIMOR_DEEP['polish_iterations']}.csv"
        ),
        claims=claims_rows("timor2022_theory"),
    log:
        "logs/timor2022/theory/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        x1=TIMOR_FIG1["x1"],
        x2=TIMOR_FIG1["x2"],
        fig1_first_seed=TIMOR_FIG1["first_seed"],
        fig1_runs_per_seed=TIMOR_FIG1["n_runs"],
        fig1_lr=TIMOR_FIG1["lr"],
        deep_first_seed=TIMOR_DEEP["first_seed"],
        deep_restarts=TIMOR_DEEP["restarts"],
        assumption2_pairs=TIMOR["theory"]["assumption2_pairs"],
        lemma_networks=TIMOR["theory"]["lemma_networks"],
        zero_v=TIMOR["theory"]["zero_v"],
        theorem3=TIMOR["theory"]["theorem3"],
        claim_seeds=config["seeds"],
        converged_loss=TIMOR_FIG1["converged_loss"],
    script:
        "../scripts/aggregate_timor2022_theory.py"


# ------------------------------------------------------------------------------ targets

register_target(
    "timor2022_fig1",
    "timor2022 Fig. 1: stable ranks of W1, W2 over many depth-2, width-2 networks trained by GD",
    tables=dict(
        table=rules.aggregate_timor2022_fig1.output.table,
    ),
    variant=TIMOR_FIG1["variant"],
)

register_target(
    "timor2022_fig2",
    "timor2022 Fig. 2: the regions D, S1, S2, S of weight space for the data x1, x2 (Section 6.1)",
    tables=dict(
        regions=rules.compute_timor2022_fig2_regions.output.regions,
    ),
    x1=TIMOR_FIG1["x1"],
    x2=TIMOR_FIG1["x2"],
)

register_target(
    "timor2022_fig3",
    "timor2022 Fig. 3: the regions F_i and A_i (Section 6, Lemma 6)",
    tables=dict(
        regions=rules.compute_timor2022_fig3_regions.output.regions,
        boundaries=rules.compute_timor2022_fig3_regions.output.boundaries,
    ),
    x1=TIMOR_FIG1["x1"],
    x2=TIMOR_FIG1["x2"],
)

register_target(
    "timor2022_theory",
    "timor2022 Thms 1, 3, 4-5 and Lemmas 2-13 (no figure): rank-1 zero-loss network, convergence probability, deep L2 students",
    tables=dict(
        deep=rules.aggregate_timor2022_theory.output.deep,
    ),
)
