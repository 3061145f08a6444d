# The replication ledger: every configured target's rows, measured by its own rules.


rule claims:
    """The replication ledger: results/claims.csv and .md, every configured target's rows."""
    input:
        rows=[claims_rows(t) for t in config["targets"]],
        code=script_code("build_claims"),
    output:
        csv=report(
            "results/claims.csv",
            caption="../report/claims.rst",
            category="Claims ledger",
        ),
        md="results/claims.md",
    log:
        "logs/claims.log",
    conda:
        ENV
    params:
        fail_once_marker=config["fail_once_marker"],
    script:
        "../scripts/build_claims.py"
