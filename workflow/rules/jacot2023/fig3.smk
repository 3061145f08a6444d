# ------------------------------------------------------------------------------ Fig. 3

J23_FIG3 = J23["fig3"]
J23_CURVE = J23_FIG3["curve"]
J23_MNIST = J23_FIG3["mnist"]
J23_LAM = fmt_lam(J23_FIG3["lam"])
# A seed draws the curve (or the noise), the points and the initialization: one data set per
# seed of the claims, the figure draws the first. The curve autoencoders of one architecture,
# one per seed, train together in one job.
J23_CURVE_RUN = (
    "jacot2023/fig3/curves_g{curve_width}_n{n_train}_r{n_random}".format(**J23_CURVE)
    + f"_s{seed_range(J23_CURVE['seed'], config['seeds'])}/w{{width}}_d{{depth}}_lam{J23_LAM}"
)
J23_MNIST_SUBSET = MNIST_SUBSETS["jacot2023.fig3.mnist"]
J23_MNIST_SEEDS = seeds_from(config, J23_MNIST["seed"])
J23_MNIST_SET = "mnist_n{n_train}_t{n_noisy}_noise{noise}_s{{seed}}".format(**J23_MNIST)
J23_MNIST_RUN = f"jacot2023/fig3/{J23_MNIST_SET}/w{{width}}_d{{depth}}_lam{J23_LAM}"


training_rule(
    "train_jacot2023_fig3_curve",
    script_name="train_jacot2023_fig3_curve",
    job=J23_CURVE_RUN,
    outputs={
        "networks": f"results/{J23_CURVE_RUN}/networks.csv",
        "outputs": f"results/{J23_CURVE_RUN}/outputs.csv",
        "checkpoint": f"results/{J23_CURVE_RUN}/model.pt",
    },
    constraints={
        **architecture_constraints(J23_CURVE),
    },
)


training_rule(
    "train_jacot2023_fig3_mnist",
    script_name="train_jacot2023_fig3_mnist",
    job=J23_MNIST_RUN,
    inputs={
        "data": MNIST_DATA.format(**J23_MNIST_SUBSET),
    },
    outputs={
        "images": f"results/{J23_MNIST_RUN}/images.npz",
        "summary": f"results/{J23_MNIST_RUN}/summary.csv",
        "checkpoint": f"results/{J23_MNIST_RUN}/model.pt",
    },
    constraints={
        **architecture_constraints(J23_MNIST),
        "seed": "|".join(map(str, J23_MNIST_SEEDS)),
    },
)


# Each autoencoder carried on to a stationary point of its objective (l2relu.training.polish): the
# ledger reads the paper's observations on the schedule's networks, these beside them.
J23_CURVE_POLISHED = f"{J23_CURVE_RUN}/polish{J23_FIG3['polish_iterations']}"
J23_MNIST_POLISHED = f"{J23_MNIST_RUN}/polish{J23_FIG3['polish_iterations']}"


training_rule(
    "polish_jacot2023_fig3_curve",
    script_name="polish_jacot2023_fig3_curve",
    job=f"{J23_CURVE_POLISHED}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig3_curve.output.checkpoint,
        "networks": rules.train_jacot2023_fig3_curve.output.networks,
    },
    outputs={
        "checkpoint": f"results/{J23_CURVE_POLISHED}/model.pt",
        "networks": f"results/{J23_CURVE_POLISHED}/networks.csv",
        "outputs": f"results/{J23_CURVE_POLISHED}/outputs.csv",
        "certificate": f"results/{J23_CURVE_POLISHED}/certificate.csv",
    },
    constraints={
        **architecture_constraints(J23_CURVE),
    },
)


training_rule(
    "polish_jacot2023_fig3_mnist",
    script_name="polish_jacot2023_fig3_mnist",
    job=f"{J23_MNIST_POLISHED}/polish",
    inputs={
        "data": MNIST_DATA.format(**J23_MNIST_SUBSET),
        "checkpoint": rules.train_jacot2023_fig3_mnist.output.checkpoint,
        "summary": rules.train_jacot2023_fig3_mnist.output.summary,
    },
    outputs={
        "checkpoint": f"results/{J23_MNIST_POLISHED}/model.pt",
        "summary": f"results/{J23_MNIST_POLISHED}/summary.csv",
        "certificate": f"results/{J23_MNIST_POLISHED}/certificate.csv",
    },
    constraints={
        **architecture_constraints(J23_MNIST),
        "seed": "|".join(map(str, J23_MNIST_SEEDS)),
    },
)


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
        "../../scripts/aggregate_jacot2023_fig3.py"


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
