# MNIST subsets, shared ground: drawn once from the source that jacot2022.data names, and
# read by jacot2022 (Figs. 1-2) and jacot2023 (Fig. 3).

MNIST_CONFIG = config["jacot2022"]["data"]
# one file per subset: digits (joined), train and test sizes, seed
MNIST_DATA = "results/jacot2022/data/mnist_d{digits}_n{n_train}_t{n_test}_s{seed}.npz"
MNIST_SUBSETS = {
    key: subset | {"digits": "".join(map(str, subset["digits"]))}
    for key, subset in mnist_subsets(config).items()
}


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
    localrule: True
    conda:
        ENV
    params:
        source=MNIST_CONFIG["mnist_source"],
        idx_dir=MNIST_CONFIG["mnist_idx_dir"],
        digits=lambda wc: [int(d) for d in wc.digits],
        n_train=lambda wc: int(wc.n_train),
        n_test=lambda wc: int(wc.n_test),
        seed=lambda wc: int(wc.seed),
    script:
        "../scripts/generate_jacot2022_mnist.py"
