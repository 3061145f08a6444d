"""Collect timor2022's theorem checks; measure their claims per seed."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from l2relu.ledger.claims import evaluate_networks, seed_of_claim  # noqa: E402
from l2relu.ledger.registry import load_registry  # noqa: E402
from l2relu.timor2022 import ledger  # noqa: E402
from l2relu.timor2022.data import TeacherConfig, teacher  # noqa: E402
from l2relu.training.io import load_checkpoint, write_table  # noqa: E402

p = snakemake.params
theorem1 = pd.read_csv(snakemake.input.theorem1)


def networks(tables, checkpoints) -> tuple[pd.DataFrame, dict]:
    """Every deep network's metrics, layer-norm spread and rescaling check, its seed of the
    claims, and whether it is its seed's stand-in (lowest objective); and the teacher (x, y,
    layers) of each (theorem, depth k') the networks were trained for."""
    deep, teachers = [], {}
    for metrics, weights in zip(tables, checkpoints, strict=True):
        checkpoint = load_checkpoint(weights)
        arrays = {k: v.numpy() for k, v in checkpoint["arrays"].items()}
        config = checkpoint["config"]
        drawn = teacher(TeacherConfig(**config["teacher"]))
        teachers[config["teacher"]["theorem"], config["deep"]["depth"]] = drawn
        optimum = ledger.optimum_measures(arrays, *drawn, config["teacher"]["theorem"])
        deep.append(
            pd.concat([pd.read_csv(metrics), optimum], axis=1).assign(
                norm_spread=ledger.layer_norm_spread(arrays),
                rescaling_violation=ledger.rescaling_violations(arrays, drawn[0]),
            )
        )
    deep = pd.concat(deep, ignore_index=True)
    deep["claim_seed"] = seed_of_claim(deep.seed, p.deep_first_seed, p.deep_restarts)
    return ledger.mark_best(deep), teachers


deep, teachers = networks(snakemake.input.deep, snakemake.input.deep_weights)
polished, _ = networks(snakemake.input.polished, snakemake.input.polished_weights)
# the same depths and data at the other widths (Secs. 4-5: "does not depend on the width")
widths, _ = networks(snakemake.input.widths, snakemake.input.widths_weights)
widths_polished, _ = networks(
    snakemake.input.widths_polished, snakemake.input.widths_polished_weights
)
fig1_runs = pd.concat([pd.read_csv(f) for f in snakemake.input.fig1_runs], ignore_index=True)
fig1_runs["claim_seed"] = seed_of_claim(fig1_runs.seed, p.fig1_first_seed, p.fig1_runs_per_seed)
registry = load_registry([snakemake.input.registry])
rank_readings = registry["timor2022.theory.thm2_rank_two"].every_reading
measurements = ledger.theory_claims(theorem1, deep, fig1_runs, p.x1, p.x2, rank_readings)
measurements += ledger.assumption_claims(p.x1, p.x2, p.assumption2_pairs)
measurements += ledger.balance_claims(fig1_runs, p.x1, p.x2, p.fig1_lr)
measurements += ledger.lemma7_claims(p.x1, p.x2, p.lemma_networks)
measurements += ledger.lemma3_claims(p.x1, p.x2, p.lemma_networks)
measurements += ledger.lemma_2_5_8_claims(p.x1, p.x2, p.lemma_networks)
measurements += ledger.zero_v_claims(p.x1, p.x2, **p.zero_v)
measurements += ledger.standin_claims(deep)
measurements += ledger.theorem3_claims(p.x1, p.x2, p.claim_seeds, p.converged_loss, **p.theorem3)
measurements += ledger.certificate_claims(polished)
theorem4 = {depth: drawn for (thm, depth), drawn in teachers.items() if thm == 4}
measurements += ledger.construction_claims(theorem4)
theorem5 = {depth: drawn for (thm, depth), drawn in teachers.items() if thm == 5}
measurements += ledger.theorem5_construction_claims(theorem5)
measurements += ledger.optimum_claims(deep)
measurements += ledger.width_free_claims(widths)
bar = registry[ledger.POLISHED_STATIONARY].criterion.bounds()[1]
on_polished = ledger.ratio_claims(polished, bar) + ledger.standin_claims(polished)
on_polished += ledger.optimum_claims(polished, bar)
on_polished += ledger.width_free_claims(widths_polished, bar)
write_table(deep, snakemake.output.deep)
write_table(polished, snakemake.output.polished)
write_table(widths, snakemake.output.widths)
write_table(widths_polished, snakemake.output.widths_polished)
write_table(evaluate_networks(registry, measurements, on_polished), snakemake.output.claims)
