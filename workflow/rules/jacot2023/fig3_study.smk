# ------------------------------------------------------------------------------ Fig. 3 study

J23_FIG3_STUDY = J23["fig3_study"]
J23_STUDY_CURVE = J23_FIG3_STUDY["curve"]
J23_STUDY_MNIST = J23_FIG3_STUDY["mnist"]
J23_STUDY_CURVE_SET = (
    f"jacot2023/fig3_study/curves_g{J23_STUDY_CURVE['curve_width']}_n{J23_CURVE['n_train']}"
    f"_r{J23_CURVE['n_random']}_injective{J23_STUDY_CURVE['n_curves']}from{J23_CURVE['seed']}"
)
J23_STUDY_CURVE_RUN = (
    f"{J23_STUDY_CURVE_SET}/d{{depth}}_lam{J23_LAM}_s{seed_range(0, J23_STUDY_CURVE['n_seeds'])}"
    f"_repeats{J23_STUDY_CURVE['max_repeats']}"
)
J23_STUDY_MNIST_RUN = (
    f"jacot2023/fig3_study/mnist_n{J23_MNIST['n_train']}_t{J23_MNIST['n_noisy']}"
    f"_noise{J23_MNIST['noise']}/{{kind}}_lam{J23_LAM}"
    f"_s{seed_range(J23_MNIST['seed'], J23_STUDY_MNIST['n_seeds'])}"
    f"_repeats{J23_STUDY_MNIST['max_repeats']}"
)
# a network is settled when its objective moved by at most this over its last stretch
J23_STUDY_SETTLED = reading_parameter(*SETTLED_BAR)


rule screen_jacot2023_fig3_study_curves:
    input:
        code=script_code("screen_jacot2023_fig3_study_curves"),
    output:
        screen=f"results/{J23_STUDY_CURVE_SET}/screen.csv",
    log:
        f"logs/{J23_STUDY_CURVE_SET}/screen.log",
    localrule: True
    conda:
        ENV
    params:
        curve_width=J23_STUDY_CURVE["curve_width"],
        first=J23_CURVE["seed"],
        n_curves=J23_STUDY_CURVE["n_curves"],
    script:
        "../../scripts/screen_jacot2023_fig3_study_curves.py"


training_rule(
    "train_jacot2023_fig3_study_curve",
    script_name="train_jacot2023_fig3_study_curve",
    job=J23_STUDY_CURVE_RUN,
    inputs={
        "screen": rules.screen_jacot2023_fig3_study_curves.output.screen,
    },
    outputs={
        "networks": f"results/{J23_STUDY_CURVE_RUN}/networks.csv",
        "outputs": f"results/{J23_STUDY_CURVE_RUN}/outputs.csv",
        "checkpoint": f"results/{J23_STUDY_CURVE_RUN}/model.pt",
    },
    constraints={
        "depth": "|".join(map(str, J23_STUDY_CURVE["depths"])),
    },
)


training_rule(
    "train_jacot2023_fig3_study_mnist",
    script_name="train_jacot2023_fig3_study_mnist",
    job=J23_STUDY_MNIST_RUN,
    inputs={
        "data": MNIST_DATA.format(**J23_MNIST_SUBSET),
    },
    outputs={
        "networks": f"results/{J23_STUDY_MNIST_RUN}/networks.csv",
        "projections": f"results/{J23_STUDY_MNIST_RUN}/projections.csv",
        "checkpoint": f"results/{J23_STUDY_MNIST_RUN}/model.pt",
    },
    constraints={
        "kind": "shallow|deep",
    },
)


# Every autoencoder carried on, on its own data, to a stationary point of its objective
# (l2relu.training.polish): the ledger reads the study on both networks.
J23_STUDY_POLISH = f"polish{J23_FIG3_STUDY['polish_iterations']}"


training_rule(
    "polish_jacot2023_fig3_study_curve",
    script_name="polish_jacot2023_fig3_study_curve",
    job=f"{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig3_study_curve.output.checkpoint,
        "networks": rules.train_jacot2023_fig3_study_curve.output.networks,
    },
    outputs={
        "checkpoint": f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/model.pt",
        "networks": f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/networks.csv",
        "certificate": f"results/{J23_STUDY_CURVE_RUN}/{J23_STUDY_POLISH}/certificate.csv",
    },
    constraints={
        "depth": "|".join(map(str, J23_STUDY_CURVE["depths"])),
    },
)


training_rule(
    "polish_jacot2023_fig3_study_mnist",
    script_name="polish_jacot2023_fig3_study_mnist",
    job=f"{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/polish",
    inputs={
        "checkpoint": rules.train_jacot2023_fig3_study_mnist.output.checkpoint,
        "networks": rules.train_jacot2023_fig3_study_mnist.output.networks,
        "data": MNIST_DATA.format(**J23_MNIST_SUBSET),
    },
    outputs={
        "checkpoint": f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/model.pt",
        "networks": f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/networks.csv",
        "certificate": f"results/{J23_STUDY_MNIST_RUN}/{J23_STUDY_POLISH}/certificate.csv",
    },
    constraints={
        "kind": "shallow|deep",
    },
)


rule aggregate_jacot2023_fig3_study:
    input:
        curves=expand(
            rules.train_jacot2023_fig3_study_curve.output.networks,
            depth=J23_STUDY_CURVE["depths"],
        ),
        mnist=expand(
            rules.train_jacot2023_fig3_study_mnist.output.networks, kind=("shallow", "deep")
        ),
        polished_curves=expand(
            rules.polish_jacot2023_fig3_study_curve.output.networks,
            depth=J23_STUDY_CURVE["depths"],
        ),
        polished_mnist=expand(
            rules.polish_jacot2023_fig3_study_mnist.output.networks, kind=("shallow", "deep")
        ),
        certificates=expand(
            rules.polish_jacot2023_fig3_study_curve.output.certificate,
            depth=J23_STUDY_CURVE["depths"],
        )
        + expand(
            rules.polish_jacot2023_fig3_study_mnist.output.certificate, kind=("shallow", "deep")
        ),
        projections=expand(
            rules.train_jacot2023_fig3_study_mnist.output.projections, kind=("shallow", "deep")
        ),
        data=MNIST_DATA.format(**J23_MNIST_SUBSET),
        registry=claims_registry("jacot2023_fig3_study"),
        code=script_code("aggregate_jacot2023_fig3_study"),
    output:
        curves="results/jacot2023/fig3_study/curves.csv",
        mnist="results/jacot2023/fig3_study/mnist.csv",
        polished_curves="results/jacot2023/fig3_study/polished_curves.csv",
        polished_mnist="results/jacot2023/fig3_study/polished_mnist.csv",
        projections="results/jacot2023/fig3_study/mnist_projections.csv",
        polyline=f"results/{J23_STUDY_CURVE_SET}/first_curve.csv",
        claims=claims_rows("jacot2023_fig3_study"),
    log:
        "logs/jacot2023/fig3_study/aggregate.log",
    localrule: True
    conda:
        ENV
    params:
        shallow_depth=J23_CURVE["shallow"]["depth"],
        deep_from=J23_STUDY_CURVE["deep_from"],
        curve_width=J23_STUDY_CURVE["curve_width"],
    script:
        "../../scripts/aggregate_jacot2023_fig3_study.py"


register_target(
    "jacot2023_fig3_study",
    "jacot2023 Fig. 3 study: autoencoders on smooth random curves and MNIST, trained to convergence, over depth",
    tables=dict(
        curves=rules.aggregate_jacot2023_fig3_study.output.curves,
        mnist=rules.aggregate_jacot2023_fig3_study.output.mnist,
        projections=rules.aggregate_jacot2023_fig3_study.output.projections,
        polyline=rules.aggregate_jacot2023_fig3_study.output.polyline,
        polished_curves=rules.aggregate_jacot2023_fig3_study.output.polished_curves,
        polished_mnist=rules.aggregate_jacot2023_fig3_study.output.polished_mnist,
        outputs=expand(
            rules.train_jacot2023_fig3_study_curve.output.outputs,
            depth=J23_STUDY_CURVE["depths"],
        ),
    ),
    distance_bar=claim_ceiling("jacot2023.fig3study.deep_denoises"),
    jacobian_bar=claim_ceiling("jacot2023.fig3study.deep_jacobian_rank_one"),
    settled_bar=J23_STUDY_SETTLED,
    # how each reading of the projection row reads the digits' dimension k, the primary first
    # (a list: the parameters reach the notebook with their keys sorted)
    projection_readings=list(
        readings_parameters("jacot2023.fig3study.mnist_noise_like_projection").items()
    ),
)
