# Replication pipeline: L2 regularization, depth and rank in ReLU networks.
#   snakemake --cores all                      every target in config/config.yaml (default scale)
#   snakemake --cores all timor2022_fig1       one target and what it needs
#   snakemake --report report.html             every figure, its caption and the claims ledger
from snakemake.utils import min_version

min_version("9.0")


# the default scale, found from the workflow itself so that --directory may point anywhere
configfile: f"{workflow.basedir}/config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/mnist.smk"
include: "workflow/rules/timor2022.smk"
include: "workflow/rules/jacot2022.smk"
include: "workflow/rules/chen2024.smk"
include: "workflow/rules/jacot2023.smk"
include: "workflow/rules/targets.smk"
include: "workflow/rules/claims.smk"


# the report opens on the verdict, written from the ledger by the build
report: report_landing_page()


rule all:
    default_target: True
    input:
        all_outputs(),
        rules.claims.output,
