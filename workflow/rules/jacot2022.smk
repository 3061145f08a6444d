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
        code=script_code("construct_jacot2022_propositions"),
    output:
        **JACOT_PROPOSITIONS,
    log:
        "logs/jacot2022/theory/construct_propositions.log",
    conda:
        ENV
    params:
        bipartite_n=JACOT_THEORY["bipartite_N"],
        prop1_trials=JACOT_THEORY["prop1_trials"],
        prop19=JACOT_THEORY["prop19"],
    script:
        "../scripts/construct_jacot2022_propositions.py"


rule train_jacot2022_plateau:
    input:
        code=script_code("train_jacot2022_plateau"),
    output:
        losses=f"results/{PLATEAU_RUN}/losses.csv",
    log:
        f"logs/{PLATEAU_RUN}.log",
    wildcard_constraints:
        setting="|".join(PLATEAU_N),
        n="|".join(str(n) for ns in PLATEAU_N.values() for n in ns),
        lam=re.escape(fmt_lam(JACOT_THEORY["lam"])),
        seeds=PLATEAU_SEEDS,
    conda:
        ENV
    threads: 1
    resources:
        **TORCH_TRAINING_RESOURCES,
    params:
        resume=resume_dir,
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
    script:
        "../scripts/train_jacot2022_plateau.py"


rule aggregate_jacot2022_theory:
    input:
        **JACOT_PROPOSITIONS,
        plateaus=PLATEAU_RUNS,
        code=script_code("aggregate_jacot2022_theory"),
    output:
        plateau="results/jacot2022/theory/plateau.csv",
        onsets="results/jacot2022/theory/onsets.csv",
        claims=claims_rows("jacot2022_theory"),
    log:
        "logs/jacot2022/theory/aggregate.log",
    conda:
        ENV
    params:
        onset_rel_tol=JACOT_THEORY["onset_rel_tol"],
        onehot_classes=JACOT_THEORY["onehot_classes"],
        lam=JACOT_THEORY["lam"],
    script:
        "../scripts/aggregate_jacot2022_theory.py"


rule execute_jacot2022_theory_notebook:
    input:
        **notebook_inputs("jacot2022_theory"),
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
    log:
        "logs/notebooks/jacot2022_theory.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(onehot_classes=JACOT_THEORY["onehot_classes"]),
    shell:
        PAPERMILL


rule jacot2022_theory:
    """jacot2022 Props. 1, 13, 14, 15, 19 and Remark 23 (no figure): plateau onsets and constructions"""
    input:
        target_files("jacot2022_theory"),


# ------------------------------------------------------------------------------ data

JACOT_DATA = config["jacot2022"]["data"]
# MNIST subsets: digits (joined), train and test sizes, seed; drawn once, read by every step.
MNIST_DATA = "results/jacot2022/data/mnist_d{digits}_n{n_train}_t{n_test}_s{seed}.npz"
MNIST_SUBSETS = {
    key: subset | {"digits": "".join(map(str, subset["digits"]))}
    for key, subset in mnist_subsets(config).items()
}

# ------------------------------------------------------------------------------ Fig. 1

JACOT_FIG1 = config["jacot2022"]["fig1"]
FIG1_DATA = MNIST_DATA.format(**MNIST_SUBSETS["jacot2022.fig1"])
FIG1_RUN = "jacot2022/fig1/w{width}_d3_lam{lam}_s{seed}".format(
    width=JACOT_FIG1["width"], lam=fmt_lam(JACOT_FIG1["lam"]), seed=JACOT_FIG1["seed"]
)
FIG1_TRAINING = {
    k: JACOT_FIG1[k] for k in ("digits", "width", "lam", "lr", "steps", "seed", "log_every")
}
FIG1_TABLES = {k: f"results/{FIG1_RUN}/{k}.csv" for k in ("points", "neurons", "rays", "layers")}


rule train_jacot2022_fig1:
    input:
        data=FIG1_DATA,
        code=script_code("train_jacot2022_fig1"),
    output:
        checkpoint=f"results/{FIG1_RUN}/model.pt",
    log:
        f"logs/{FIG1_RUN}/train.log",
    conda:
        ENV
    # one thread: runs beside the one-thread sweeps instead of waiting for two free cores
    threads: 1
    resources:
        **TORCH_TRAINING_RESOURCES,
    params:
        resume=resume_dir,
        config=FIG1_TRAINING,
        device=config["device"],
    script:
        "../scripts/train_jacot2022_fig1.py"


rule compute_jacot2022_fig1_forces:
    input:
        data=FIG1_DATA,
        checkpoint=f"results/{FIG1_RUN}/model.pt",
        code=script_code("compute_jacot2022_fig1_forces"),
    output:
        **FIG1_TABLES,
        claims=claims_rows("jacot2022_fig1"),
    log:
        f"logs/{FIG1_RUN}/forces.log",
    conda:
        ENV
    params:
        forces={k: JACOT_FIG1[k] for k in ("eps", "ray_angle_deg")},
        thresholds={k: JACOT_FIG1[k] for k in ("silhouette_min", "ray_mass_min", "balance_max")},
    script:
        "../scripts/compute_jacot2022_fig1_forces.py"


rule execute_jacot2022_fig1_notebook:
    input:
        **notebook_inputs("jacot2022_fig1"),
        **{k: v for k, v in FIG1_TABLES.items() if k != "layers"},
    output:
        notebook="results/notebooks/jacot2022_fig1.ipynb",
        pdf="figures/jacot2022_fig1.pdf",
        png=report(
            "figures/jacot2022_fig1.png",
            caption="../report/jacot2022_fig1.rst",
            category="jacot2022",
        ),
    log:
        "logs/notebooks/jacot2022_fig1.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(),
    shell:
        PAPERMILL


rule jacot2022_fig1:
    """jacot2022 Fig. 1: attraction and repulsion of the hidden representations, depth 3, MNIST 7-8-9"""
    input:
        target_files("jacot2022_fig1"),


# ------------------------------------------------------------------------------ Fig. 2

JACOT_FIG2 = config["jacot2022"]["fig2"]
FIG2_MNIST = JACOT_FIG2["mnist"]
FIG2_TEACHER = JACOT_FIG2["teacher"]
FIG2_PANELS = {"mnist": FIG2_MNIST, "teacher": FIG2_TEACHER}
FIG2_DATA = {
    "mnist": MNIST_DATA.format(**MNIST_SUBSETS["jacot2022.fig2.mnist"]),
    "teacher": "results/jacot2022/data/teacher_w{w}_n{n_train}_t{n_test}_s{seed}.npz".format(
        w="-".join(map(str, FIG2_TEACHER["widths"])), **FIG2_TEACHER
    ),
}
# One job per (data set, width): every lambda and trial of it trained together.
FIG2_RUN = "jacot2022/fig2/{dataset}/w{width}_d3_lam{lams}_s{seeds}"


FIG2_POINT = {
    d: {
        "lams": "+".join(fmt_lam(v) for v in panel["lams"]),
        "seeds": seed_range(panel["seed"], panel["trials"]),
    }
    for d, panel in FIG2_PANELS.items()
}

FIG2_RUNS = [
    f"results/{FIG2_RUN}/runs.csv".format(dataset=d, width=w, **FIG2_POINT[d])
    for d in FIG2_PANELS
    for w in JACOT_FIG2["widths"]
]


rule generate_jacot2022_mnist:
    input:
        code=script_code("generate_jacot2022_mnist"),
    output:
        data=MNIST_DATA,
    log:
        "logs/jacot2022/data/mnist_d{digits}_n{n_train}_t{n_test}_s{seed}.log",
    wildcard_constraints:
        **{
            wildcard: "|".join(str(s[wildcard]) for s in MNIST_SUBSETS.values())
            for wildcard in ("digits", "n_train", "n_test", "seed")
        },
    conda:
        ENV
    params:
        source=JACOT_DATA["mnist_source"],
        idx_dir=JACOT_DATA["mnist_idx_dir"],
        digits=lambda wc: [int(d) for d in wc.digits],
        n_train=lambda wc: int(wc.n_train),
        n_test=lambda wc: int(wc.n_test),
        seed=lambda wc: int(wc.seed),
    script:
        "../scripts/generate_jacot2022_mnist.py"


rule generate_jacot2022_teacher:
    input:
        code=script_code("generate_jacot2022_teacher"),
    output:
        data=FIG2_DATA["teacher"],
    log:
        "logs/jacot2022/data/generate_teacher.log",
    conda:
        ENV
    params:
        n_train=FIG2_TEACHER["n_train"],
        n_test=FIG2_TEACHER["n_test"],
        widths=FIG2_TEACHER["widths"],
        seed=FIG2_TEACHER["seed"],
    script:
        "../scripts/generate_jacot2022_teacher.py"


rule train_jacot2022_fig2:
    input:
        data=lambda wc: FIG2_DATA[wc.dataset],
        code=script_code("train_jacot2022_fig2"),
    output:
        runs=f"results/{FIG2_RUN}/runs.csv",
    log:
        f"logs/{FIG2_RUN}.log",
    wildcard_constraints:
        dataset="mnist|teacher",
        width="|".join(str(w) for w in JACOT_FIG2["widths"]),
        lams="|".join(re.escape(FIG2_POINT[d]["lams"]) for d in FIG2_PANELS),
        seeds="|".join(FIG2_POINT[d]["seeds"] for d in FIG2_PANELS),
    conda:
        ENV
    # One thread: a sweep has many such jobs, and two of them side by side on two cores
    # do more than one job on both (a second thread speeds one job up 1.05-1.8x).
    threads: 1
    resources:
        **TORCH_TRAINING_RESOURCES,
    params:
        resume=resume_dir,
        config=lambda wc: {
            k: v
            for k, v in FIG2_PANELS[wc.dataset].items()
            if k not in ("n_train", "n_test", "widths")
        }
        | {
            "dataset": wc.dataset,
            "width": int(wc.width),
            "log_every": JACOT_FIG2["log_every"],
            "dtype": JACOT_FIG2["dtype"],
        },
        device=config["device"],
    script:
        "../scripts/train_jacot2022_fig2.py"


rule aggregate_jacot2022_fig2:
    input:
        runs=FIG2_RUNS,
        code=script_code("aggregate_jacot2022_fig2"),
    output:
        curves="results/jacot2022/fig2/curves.csv",
        diverged="results/jacot2022/fig2/diverged.csv",
        claims=claims_rows("jacot2022_fig2"),
    log:
        "logs/jacot2022/fig2/aggregate.log",
    conda:
        ENV
    params:
        onset_drop_fraction=JACOT_FIG2["onset_drop_fraction"],
        onset_factor=JACOT_FIG2["onset_factor"],
        rise_drop_fraction=JACOT_FIG2["rise_drop_fraction"],
    script:
        "../scripts/aggregate_jacot2022_fig2.py"


rule execute_jacot2022_fig2_notebook:
    input:
        **notebook_inputs("jacot2022_fig2"),
        curves="results/jacot2022/fig2/curves.csv",
        diverged="results/jacot2022/fig2/diverged.csv",
    output:
        notebook="results/notebooks/jacot2022_fig2.ipynb",
        pdf="figures/jacot2022_fig2.pdf",
        png=report(
            "figures/jacot2022_fig2.png",
            caption="../report/jacot2022_fig2.rst",
            category="jacot2022",
        ),
    log:
        "logs/notebooks/jacot2022_fig2.log",
    conda:
        ENV
    params:
        parameters=notebook_parameters(),
    shell:
        PAPERMILL


rule jacot2022_fig2:
    """jacot2022 Fig. 2: minimal regularized loss against width (MNIST; teacher network)"""
    input:
        target_files("jacot2022_fig2"),
