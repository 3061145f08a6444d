# The replication ledger: every configured target's rows, measured by its own rules.


rule claims:
    input:
        rows=[claims_rows(t) for t in config["targets"]],
        code=src_modules("claims"),
    output:
        csv=report(
            "results/claims.csv",
            caption="../report/claims.rst",
            category="Claims ledger",
        ),
        md="results/claims.md",
    conda:
        ENV
    log:
        "logs/claims.log",
    params:
        fail_once_marker=config["fail_once_marker"],
    script:
        "../scripts/build_claims.py"
