# chen2024: Chen, Munoz Ewald, "Interpretable global minima of deep ReLU neural networks on
# sequentially separable data". The explicit networks of Prop. 4.1, Cor. 4.2 and Thm 5.2.

CHEN_FIG1 = config["chen2024"]["fig1"]
CHEN_FIG1_RUN = "results/chen2024/fig1/q3_m3_spread{spread}_s{seed}".format(
    spread=fmt_lam(CHEN_FIG1["spread"]), seed=CHEN_FIG1["seed"]
)
CHEN_FIG2 = config["chen2024"]["fig2"]
CHEN_FIG3 = config["chen2024"]["fig3"]
CHEN_FIG3_RUN = "results/chen2024/fig3/q{q}_n{n}_s{seed}".format(
    q=len(CHEN_FIG3["boxes"]), n=CHEN_FIG3["per_class"], seed=CHEN_FIG3["seed"]
)
CHEN_THEORY = config["chen2024"]["theory"]
# One run: every (M, Q, N) of the grid on the data of one spread and seed.
CHEN_THEORY_RUN = "results/chen2024/theory/spread{spread}_s{seed}".format(
    spread=fmt_lam(CHEN_THEORY["spread"]), seed=CHEN_THEORY["seed"]
)
CHEN_THEORY_LOG = CHEN_THEORY_RUN.replace("results/", "logs/", 1)
CHEN_GD_RUN = f"{CHEN_THEORY_RUN.removeprefix('results/')}/train_gd"


rule construct_chen2024_fig1_layer:
    input:
        registry=claims_registry("chen2024_fig1"),
        code=script_code("construct_chen2024_fig1_layer"),
    output:
        points=f"{CHEN_FIG1_RUN}/points.csv",
        geometry=f"{CHEN_FIG1_RUN}/geometry.csv",
        claims=claims_rows("chen2024_fig1"),
    log:
        "logs/chen2024/fig1/construct_layer.log",
    conda:
        ENV
    params:
        config=CHEN_FIG1,
    script:
        "../scripts/construct_chen2024_fig1_layer.py"


rule compute_chen2024_fig2_map:
    input:
        registry=claims_registry("chen2024_fig2"),
        code=script_code("compute_chen2024_fig2_map"),
    output:
        grid="results/chen2024/fig2/p{p}_h{h}_theta{theta}/grid.csv".format(
            p="_".join(f"{v:g}" for v in CHEN_FIG2["base_point"]),
            h=f"{CHEN_FIG2['axis_deg']:g}",
            theta=f"{CHEN_FIG2['aperture_deg']:g}",
        ),
        claims=claims_rows("chen2024_fig2"),
    log:
        "logs/chen2024/fig2/compute_map.log",
    conda:
        ENV
    params:
        config=CHEN_FIG2,
    script:
        "../scripts/compute_chen2024_fig2_map.py"


rule construct_chen2024_fig3_plan:
    input:
        registry=claims_registry("chen2024_fig3"),
        code=script_code("construct_chen2024_fig3_plan"),
    output:
        points=f"{CHEN_FIG3_RUN}/points.csv",
        steps=f"{CHEN_FIG3_RUN}/steps.csv",
        orderings=f"{CHEN_FIG3_RUN}/orderings.csv",
        centers=f"{CHEN_FIG3_RUN}/centers.csv",
        claims=claims_rows("chen2024_fig3"),
    log:
        "logs/chen2024/fig3/construct_plan.log",
    conda:
        ENV
    params:
        config=CHEN_FIG3,
    script:
        "../scripts/construct_chen2024_fig3_plan.py"


rule construct_chen2024_networks:
    input:
        registry=claims_registry("chen2024_theory"),
        code=script_code("construct_chen2024_networks"),
    output:
        networks=f"{CHEN_THEORY_RUN}/networks.csv",
        narrowing=f"{CHEN_THEORY_RUN}/narrowing.csv",
        claims=claims_rows("chen2024_theory"),
    log:
        f"{CHEN_THEORY_LOG}/construct_networks.log",
    conda:
        ENV
    params:
        config=CHEN_THEORY,
    script:
        "../scripts/construct_chen2024_networks.py"


# one thread: runs beside the one-thread sweeps instead of waiting for two free cores
training_rule(
    "train_chen2024_gd",
    script_name="train_chen2024_gd",
    job=CHEN_GD_RUN,
    outputs={
        "runs": f"{CHEN_THEORY_RUN}/gd.csv",
    },
)


# ------------------------------------------------------------------------------ targets

register_target(
    "chen2024_fig1",
    "chen2024 Fig. 1: Prop. 4.1's first layer on three clusters: the cone and the truncation",
    tables=dict(
        points=rules.construct_chen2024_fig1_layer.output.points,
        geometry=rules.construct_chen2024_fig1_layer.output.geometry,
    ),
)

register_target(
    "chen2024_fig2",
    "chen2024 Fig. 2: the action of a truncation map tau_(W,b) in the plane (Lemma 3.4)",
    tables=dict(
        grid=rules.compute_chen2024_fig2_map.output.grid,
    ),
    base_point=CHEN_FIG2["base_point"],
    axis_deg=CHEN_FIG2["axis_deg"],
    aperture_deg=CHEN_FIG2["aperture_deg"],
)

register_target(
    "chen2024_fig3",
    "chen2024 Fig. 3: a sequentially linearly separable, unclustered data set and its ordering (Thm 5.2)",
    tables=dict(
        points=rules.construct_chen2024_fig3_plan.output.points,
        steps=rules.construct_chen2024_fig3_plan.output.steps,
        orderings=rules.construct_chen2024_fig3_plan.output.orderings,
        centers=rules.construct_chen2024_fig3_plan.output.centers,
    ),
)

register_target(
    "chen2024_theory",
    "chen2024 Props. 3.2, 4.1 and Thm 5.2 (no figure): explicit global minima and their parameter counts",
    tables=dict(
        networks=rules.construct_chen2024_networks.output.networks,
        narrowing=rules.construct_chen2024_networks.output.narrowing,
        gd=rules.train_chen2024_gd.output.runs,
    ),
    zero_cost=CHEN_THEORY["zero_cost"],
    float_zero=claim_ceiling("chen2024.theory.prop41_zero_cost"),
)
