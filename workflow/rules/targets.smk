# Every registered target's notebook rule and target rule, and the check of the config's
# `targets` and of the claims registry against the target registry. Included after every
# paper's rules file.

from l2relu.ledger.verdict import figure_title


def _check_targets():
    """A target id the registry does not know stops the run before any job, with one line."""
    for index, target in enumerate(config["targets"]):
        if target not in TARGETS:
            raise WorkflowError(
                f"config key targets.{index}: {target!r} is not one of {sorted(TARGETS)}"
            )


_check_targets()


def _check_claims():
    """Every registry entry names a registered target, and every target has entries: else the
    run stops before any job, naming them."""
    for claim in CLAIMS.values():
        if claim.target not in TARGETS:
            raise WorkflowError(
                f"claims registry, entry {claim.id!r}: target {claim.target!r} is not one of "
                f"{sorted(TARGETS)}"
            )
    unclaimed = sorted(set(TARGETS) - {c.target for c in CLAIMS.values()})
    if unclaimed:
        raise WorkflowError(f"claims registry: no entry for target(s) {', '.join(unclaimed)}")


_check_claims()


for _target in TARGETS.values():
    _pdf, _png = figure_files(_target.id)
    _figure, _shows = figure_title(_target.doc)

    rule:
        name:
            f"execute_{_target.id}_notebook"
        input:
            **notebook_inputs(_target.id),
            **_target.tables,
        output:
            notebook=executed_notebook(_target.id),
            pdf=_pdf,
            png=report(
                _png,
                caption=report_caption(_target.id),
                category=_target.paper,
                labels={"figure": _figure, "shows": _shows},
            ),
        log:
            f"logs/notebooks/{_target.id}.log",
        localrule: True
        conda:
            ENV
        params:
            parameters=notebook_parameters(**_target.parameters),
        shell:
            PAPERMILL

    rule:
        name:
            _target.id
        input:
            target_files(_target.id),
        localrule: True

    # The target's description (shown by --list-rules) is set once the target exists, since a
    # docstring written as an f-string does not parse under Python 3.12.
    workflow.get_rule(_target.id).docstring = _target.doc
