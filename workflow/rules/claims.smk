# The replication ledger: every configured target's rows, measured by its own rules.


rule claims:
    """The replication ledger: results/claims.csv and .md, every configured target's rows, the
    rows of each kind apart, and the report's landing page (the verdict)."""
    input:
        rows=[claims_rows(t) for t in config["targets"]],
        registry=sorted({claims_registry(t) for t in config["targets"]}),
        coverage=os.path.relpath(COVERAGE_INDEX),
        code=script_code("build_claims"),
    output:
        csv=report(
            "results/claims.csv",
            caption="../report/claims.rst",
            category="Claims ledger",
            subcategory="0 all rows",
        ),
        md="results/claims.md",
        landing=LANDING_PAGE,
        empirical=report(
            "results/claims_empirical.csv",
            caption="../report/claims_empirical.rst",
            category="Claims ledger",
            subcategory="1 empirical claims",
        ),
        exact=report(
            "results/claims_exact.csv",
            caption="../report/claims_exact.rst",
            category="Claims ledger",
            subcategory="2 exact statements",
        ),
        check=report(
            "results/claims_check.csv",
            caption="../report/claims_check.rst",
            category="Claims ledger",
            subcategory="3 checks",
        ),
    log:
        "logs/claims.log",
    conda:
        ENV
    params:
        fail_once_marker=config["fail_once_marker"],
        docs={t: TARGETS[t].doc for t in config["targets"]},
    script:
        "../scripts/build_claims.py"


rule write_figure_caption:
    """A figure's caption in the report: its description (workflow/report/<target>.rst), then
    the target's ledger rows."""
    input:
        description=lambda wildcards: figure_description(wildcards.target),
        rows=lambda wildcards: claims_rows(wildcards.target),
        code=script_code("write_figure_caption"),
    output:
        figure_caption("{target}"),
    log:
        "logs/report/captions/{target}.log",
    wildcard_constraints:
        target="|".join(TARGETS),
    localrule: True
    conda:
        ENV
    script:
        "../scripts/write_figure_caption.py"


# The reference ledger of the scale in use: comparing against one that does not exist stops
# before any job, in one line.
SCALE_REFERENCE = os.path.relpath(WORKFLOW_DIR / "reference" / config["scale"] / "claims.csv")


rule compare_reference:
    """The rows of this run's ledger whose value or verdict differs from the reference ledger
    of the scale in use (reference/<scale>/claims.csv), over the targets this run built."""
    input:
        ledger=rules.claims.output.csv,
        reference=lambda wildcards: existing_reference(SCALE_REFERENCE),
        registry=[os.path.relpath(p) for p in registry_files(CLAIMS_DIR)],
        code=script_code("compare_reference"),
    output:
        "results/compare_reference.csv",
    log:
        "logs/compare_reference.log",
    localrule: True
    conda:
        ENV
    params:
        rel_tol=config["reference_rel_tol"],
    script:
        "../scripts/compare_reference.py"
