"""App. B.1's bound near infeasible points (jacot2022.theory.appb1_loss_explodes): the
construction, the entry's control and the real construction's verdict under each reading; and
the flow from feasible starts (jacot2022.theory.appb1_flow_stays_feasible)."""

import numpy as np
import pandas as pd
import pytest
import torch
from conftest import controls, judged, reading_status

from l2relu.jacot2022 import infeasible, ledger
from l2relu.jacot2022.forces import with_bias_row
from l2relu.training.seeding import rng_for


@pytest.fixture(scope="module")
def table():
    return infeasible.appb1_table()


def _readings():
    from conftest import readings_of

    return readings_of(ledger.APPB1)


def test_constructed_points_break_the_constraint_at_v():
    """v is in ker Z^sigma_l (bias row included) and ||Z_{l+1} v||^2 exceeds every eps, so
    Im Z_{l+1}^T is not in Im (Z^sigma_l)^T and the bound is positive."""
    for width in infeasible.WIDTHS:
        point = infeasible.infeasible_point(width, rng_for("jacot2022", "appb1", width, 0))
        sigma = with_bias_row(torch.relu(point["zl"]), 1.0)
        assert float(torch.linalg.norm(sigma @ point["v"])) < 1e-14
        assert float(torch.linalg.norm(point["z_next"] @ point["v"])) ** 2 > max(
            infeasible.EPSILONS
        )
        # the projection of Z_{l+1} on the row space of Z^sigma_l moves it by ||Z_{l+1} v||
        dl, dn = torch.zeros_like(point["zl"]), torch.zeros_like(point["z_next"])
        moved = infeasible.read(point, dl, dn)["projected_distance"]
        assert moved == pytest.approx(float(torch.linalg.norm(point["z_next"] @ point["v"])))


def test_the_proofs_first_step_is_not_an_inequality():
    """||M N||_F >= ||M v v^T N||_F fails for M = [[1, 1], [0, 0]], N = [[1, 0], [-1, 0]],
    v = e_1 (the entry's why)."""
    m, n, v = np.array([[1.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 0.0], [-1.0, 0.0]]), np.eye(2)[0]
    assert np.linalg.norm(m @ n) == 0.0
    assert np.linalg.norm(m @ np.outer(v, v) @ n) == 1.0


def test_activating_perturbations_are_feasible_and_the_others_are_not_at_v(table):
    """The activating kind puts v in the row space of Z~^sigma_l, within eps of Z; Z~ = Z and
    the kernel-keeping kind leave it outside, so their projections lie ||Z_{l+1} v|| away."""
    kinds = table.groupby("kind").feasible.mean()
    assert kinds["activating"] == 1.0
    assert kinds["none"] == 0.0 and kinds["kernel"] == 0.0


@controls("jacot2022.theory.appb1_loss_explodes")
def test_appb1_fails_at_infeasible_neighbours(table):
    """Z~ = Z and the perturbations keeping v in ker Z~^sigma_l alone: the pseudo-inverse is
    finite there, the term stays O(1) while the bound grows as 1/eps, so the any-Z~ reading fails
    at every width. No such Z~ is feasible, so the feasible reading measures nothing, which an
    exact row reads as a fail too."""
    infeasible_only = table[table.kind.isin(["none", "kernel"])]
    ms = ledger.appb1_claims(infeasible_only, _readings())
    for width in infeasible.WIDTHS:
        mine = {m.reading: m for m in ms if m.case == f"n_l = {width}"}
        assert mine["any Z~"].values[0] < 0.5
        assert mine["feasible Z~"].values == [None]
        statuses = reading_status(list(mine.values()), ledger.APPB1)
        assert statuses == {"any Z~": "fail", "feasible Z~": "fail"}


def test_appb1_real_construction_passes_for_feasible_neighbours_only(table):
    """On the pipeline's table the feasible reading passes at both widths (far above 1) and the
    words' any-Z~ reading fails (the least ratio is that of an infeasible Z~)."""
    ms = ledger.appb1_claims(table, _readings())
    assert len(ms) == 2 * len(infeasible.WIDTHS)
    for width in infeasible.WIDTHS:
        mine = [m for m in ms if m.case == f"n_l = {width}"]
        statuses = reading_status(mine, ledger.APPB1)
        assert statuses == {"any Z~": "fail", "feasible Z~": "pass"}, (width, mine)
    feasible = [m.values[0] for m in ms if m.reading == "feasible Z~"]
    assert min(feasible) > 10


def test_the_constraint_residual_is_zero_on_a_network_and_not_off_it():
    """Z_2 = W_2 Z_1^sigma lies in the row space of Z_1^sigma (residual at rounding); adding a
    direction orthogonal to that space (3 neurons and a bias row: rank 4 of N = 6) moves it."""
    gen = torch.Generator().manual_seed(0)
    z1 = torch.randn(3, 6, generator=gen, dtype=torch.float64)
    hidden = with_bias_row(torch.relu(z1), infeasible.BETA)
    z2 = torch.randn(2, 4, generator=gen, dtype=torch.float64) @ hidden
    assert infeasible.constraint_residual(z1, z2) < 1e-12
    off = torch.linalg.svd(hidden).Vh[-1]  # orthogonal to every row of Z_1^sigma
    assert infeasible.constraint_residual(z1, z2 + off[None, :]) > 0.1


@controls("jacot2022.theory.appb1_flow_stays_feasible")
def test_the_flow_row_fails_where_descent_leaves_the_feasible_set_and_passes_where_it_cannot():
    """Hidden width 3 (N = 6): the unprojected descent's residual at the flow time is the same at
    both step sizes (the flow is resolved) and fails; width 9, where every Z is feasible, passes."""
    rows = [
        {"width": w, "instance": 0, "steps": n} | infeasible.flow_run(w, 0, n)
        for w in (3, 9)
        for n in infeasible.FLOW_STEPS
    ]
    table = pd.DataFrame(rows)
    narrow = table[table.width == 3].residual
    assert narrow.min() > 1e-3 and narrow.max() / narrow.min() < 1.1
    statuses = judged(ledger.appb1_flow_claims(table), every_entry=False)
    assert list(statuses.status) == ["fail", "pass"]
