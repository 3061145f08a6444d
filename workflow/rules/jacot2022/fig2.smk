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
        "../../scripts/generate_jacot2022_teacher.py"


# One thread: a sweep has many such jobs, and two of them side by side on two cores
# do more than one job on both (a second thread speeds one job up 1.05-1.8x).
training_rule(
    "train_jacot2022_fig2",
    script_name="train_jacot2022_fig2",
    job=J22_FIG2_RUN,
    inputs={
        "data": lambda wc: J22_FIG2_DATA[wc.dataset],
    },
    outputs={
        "runs": f"results/{J22_FIG2_RUN}/runs.csv",
        "networks": f"results/{J22_FIG2_RUN}/model.pt",
    },
    constraints={
        **J22_FIG2_WILDCARDS,
    },
)


training_rule(
    "polish_jacot2022_fig2",
    script_name="polish_jacot2022_fig2",
    job=f"{J22_FIG2_POLISHED}/polish",
    inputs={
        "data": lambda wc: J22_FIG2_DATA[wc.dataset],
        "runs": rules.train_jacot2022_fig2.output.runs,
        "networks": rules.train_jacot2022_fig2.output.networks,
    },
    outputs={
        "runs": f"results/{J22_FIG2_POLISHED}/runs.csv",
        "networks": f"results/{J22_FIG2_POLISHED}/model.pt",
        "certificate": f"results/{J22_FIG2_POLISHED}/certificate.csv",
    },
    constraints={
        **J22_FIG2_WILDCARDS,
    },
    gpu=False,
    device=False,
)


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
        "../../scripts/aggregate_jacot2022_fig2.py"


register_target(
    "jacot2022_fig2",
    "jacot2022 Fig. 2: minimal regularized loss against width (MNIST; teacher network)",
    tables=dict(
        curves=rules.aggregate_jacot2022_fig2.output.curves,
        diverged=rules.aggregate_jacot2022_fig2.output.diverged,
    ),
)
