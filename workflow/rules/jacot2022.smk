# jacot2022: Jacot, Golikov, Hongler, Gabriel, "Feature learning in L2-regularized DNNs:
# attraction/repulsion and sparsity". Numerical checks of its propositions.

JACOT_THEORY = config["jacot2022"]["theory"]
PLATEAU_N = {
    "bipartite": JACOT_THEORY["bipartite_N"],
    "onehot": JACOT_THEORY["onehot_N"],
    "oned": JACOT_THEORY["oned_N"],
}
PLATEAU_SEEDS = seed_range(JACOT_THEORY["seed"], JACOT_THEORY["restarts"])
# One job per data set: every width, each width's restarts trained together.
PLATEAU_RUN = "jacot2022/theory/plateau_{setting}/n{n}_d2_lam{lam}_s{seeds}"
PLATEAU_RUNS = [
    f"results/{PLATEAU_RUN}/losses.csv".format(
        setting=s, n=n, lam=fmt_lam(JACOT_THEORY["lam"]), seeds=PLATEAU_SEEDS
    )
    for s, ns in PLATEAU_N.items()
    for n in ns
]
JACOT_PROPOSITIONS = {
    k: f"results/jacot2022/theory/{k}.csv" for k in ("prop13", "remark23", "prop1", "prop19")
}


rule construct_jacot2022_propositions:
    input:
        code=src_modules("jacot2022/theory", "jacot2022/forces"),
    output:
        **JACOT_PROPOSITIONS,
    conda:
        ENV
    log:
        "logs/jacot2022/theory/construct_propositions.log",
    params:
        bipartite_n=JACOT_THEORY["bipartite_N"],
        prop1_trials=JACOT_THEORY["prop1_trials"],
        prop19=JACOT_THEORY["prop19"],
    script:
        "../scripts/construct_jacot2022_propositions.py"


rule train_jacot2022_plateau:
    wildcard_constraints:
        setting="|".join(PLATEAU_N),
        n="|".join(str(n) for ns in PLATEAU_N.values() for n in ns),
        lam=fmt_lam(JACOT_THEORY["lam"]),
        seeds=PLATEAU_SEEDS,
    input:
        code=src_modules("engine", "plateau", "jacot2022/theory"),
    output:
        losses=f"results/{PLATEAU_RUN}/losses.csv",
    conda:
        ENV
    log:
        f"logs/{PLATEAU_RUN}.log",
    params:
        config=lambda wc: {
            "setting": wc.setting,
            "n": int(wc.n),
            "classes": JACOT_THEORY["onehot_classes"],
            "widths": plateau_widths(wc.setting, int(wc.n), JACOT_THEORY["onehot_classes"]),
            "lam": JACOT_THEORY["lam"],
            "restarts": JACOT_THEORY["restarts"],
            "steps": JACOT_THEORY["steps"],
            "seed": JACOT_THEORY["seed"],
        },
    threads: 1
    resources:
        runtime=config["resources"]["train_runtime_min"],
        mem_mb=config["resources"]["train_mem_mb"],
    script:
        "../scripts/train_jacot2022_plateau.py"


rule aggregate_jacot2022_theory:
    input:
        **JACOT_PROPOSITIONS,
        plateaus=PLATEAU_RUNS,
        code=src_modules("claims", "plateau", "jacot2022/ledger", "jacot2022/theory"),
    output:
        plateau="results/jacot2022/theory/plateau.csv",
        onsets="results/jacot2022/theory/onsets.csv",
        claims=claims_rows("jacot2022_theory"),
    conda:
        ENV
    log:
        "logs/jacot2022/theory/aggregate.log",
    params:
        onset_rel_tol=JACOT_THEORY["onset_rel_tol"],
        onehot_classes=JACOT_THEORY["onehot_classes"],
        lam=JACOT_THEORY["lam"],
    script:
        "../scripts/aggregate_jacot2022_theory.py"


rule execute_jacot2022_theory_notebook:
    input:
        notebook="notebooks/jacot2022_theory.ipynb",
        plateau="results/jacot2022/theory/plateau.csv",
        onsets="results/jacot2022/theory/onsets.csv",
    output:
        notebook="results/notebooks/jacot2022_theory.ipynb",
        pdf="figures/jacot2022_theory.pdf",
        png=report(
            "figures/jacot2022_theory.png",
            caption="../report/jacot2022_theory.rst",
            category="jacot2022",
        ),
    conda:
        ENV
    log:
        "logs/notebooks/jacot2022_theory.log",
    params:
        parameters=notebook_parameters(onehot_classes=JACOT_THEORY["onehot_classes"]),
    shell:
        PAPERMILL


rule jacot2022_theory:
    input:
        target_files("jacot2022_theory"),
