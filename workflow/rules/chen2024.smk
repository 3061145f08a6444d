# chen2024: Chen, Munoz Ewald, "Interpretable global minima of deep ReLU neural networks on
# sequentially separable data". The explicit networks of Prop. 4.1, Cor. 4.2 and Thm 5.2.

CHEN_THEORY = config["chen2024"]["theory"]
# One run: every (M, Q, N) of the grid on the data of one spread and seed.
CHEN_THEORY_RUN = "results/chen2024/theory/spread{spread}_s{seed}".format(
    spread=fmt_lam(CHEN_THEORY["spread"]), seed=CHEN_THEORY["seed"]
)
CHEN_THEORY_LOG = CHEN_THEORY_RUN.replace("results/", "logs/", 1)


rule construct_chen2024_networks:
    input:
        code=src_modules(
            "chen2024/truncation", "chen2024/construction", "chen2024/data", "chen2024/theory",
            "chen2024/ledger", "claims",
        ),
    output:
        networks=f"{CHEN_THEORY_RUN}/networks.csv",
        claims=claims_rows("chen2024_theory"),
    conda:
        ENV
    log:
        f"{CHEN_THEORY_LOG}/construct_networks.log",
    params:
        config=CHEN_THEORY,
    script:
        "../scripts/construct_chen2024_networks.py"


rule train_chen2024_gd:
    input:
        code=src_modules("chen2024/data", "chen2024/theory", "engine"),
    output:
        runs=f"{CHEN_THEORY_RUN}/gd.csv",
    conda:
        ENV
    log:
        f"{CHEN_THEORY_LOG}/train_gd.log",
    threads: 2
    params:
        config=CHEN_THEORY,
        device=config["device"],
    resources:
        runtime=config["resources"]["train_runtime_min"],
        mem_mb=config["resources"]["train_mem_mb"],
    script:
        "../scripts/train_chen2024_gd.py"


rule execute_chen2024_theory_notebook:
    input:
        notebook="notebooks/chen2024_theory.ipynb",
        networks=f"{CHEN_THEORY_RUN}/networks.csv",
        gd=f"{CHEN_THEORY_RUN}/gd.csv",
    output:
        notebook="results/notebooks/chen2024_theory.ipynb",
        pdf="figures/chen2024_theory.pdf",
        png=report(
            "figures/chen2024_theory.png",
            caption="../report/chen2024_theory.rst",
            category="chen2024",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/chen2024_theory.log",
    params:
        parameters=notebook_parameters(
            zero_cost=CHEN_THEORY["zero_cost"], float_zero=CHEN_THEORY["float_zero"]
        ),
    shell:
        PAPERMILL


rule chen2024_theory:
    input:
        target_files("chen2024_theory"),
