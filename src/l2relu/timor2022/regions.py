"""The regions of weight space of timor2022 Section 6 / Appendix B, from their definitions.

With x1, x2 unit vectors at an angle theta in (pi/2, pi) (Assumption 2):
  D   = {w : relu(w.x1) <= 0, relu(w.x2) <= 0}      dead
  S   = {w : relu(w.x1) > 0,  relu(w.x2) > 0}       active on both
  S_j = {w : relu(w.x_j) > 0, relu(w.x_{3-j}) <= 0} active on x_j only
Lemma 6: T_i = S_i n cl B(r0), U_i = boundary(S_i) minus D, E_i = T_i u U_i,
  A_i = {e + lambda x_i : e in E_i, lambda >= 0},  F_i = A_i minus B(sqrt(1 - |eps0|)),
where r0 = ||w_i(0)|| and eps0 = ||w_i(0)||^2 - ||v_i(0)||^2.
"""

import numpy as np
import pandas as pd

REGIONS = ("D", "S", "S1", "S2")


def _unit(x):
    x = np.asarray(x, dtype=float)
    return x / np.linalg.norm(x)


def region_of(w, x1, x2) -> np.ndarray:
    """Label 'D', 'S', 'S1' or 'S2' of every point w (..., 2)."""
    w = np.asarray(w, dtype=float)
    on1 = np.maximum(w @ np.asarray(x1, float), 0.0) > 0
    on2 = np.maximum(w @ np.asarray(x2, float), 0.0) > 0
    return np.select([on1 & on2, on1 & ~on2, ~on1 & on2], ["S", "S1", "S2"], default="D")


def boundary_directions(i, x1, x2):
    """Unit vectors u (boundary of S_i shared with S) and n (boundary of S_i shared with D)."""
    xi, xj = (_unit(x1), _unit(x2)) if i == 1 else (_unit(x2), _unit(x1))
    perp_j = np.array([-xj[1], xj[0]])
    u = perp_j if perp_j @ xi > 0 else -perp_j  # u.x_j = 0, u.x_i > 0
    perp_i = np.array([-xi[1], xi[0]])
    n = perp_i if perp_i @ xj <= 0 else -perp_i  # n.x_i = 0, n.x_j <= 0
    return u, n


def in_A(w, i, x1, x2, r0) -> np.ndarray:
    """Membership of every point w (..., 2) in A_i, decided from the definition."""
    w = np.asarray(w, dtype=float)
    xi, xj = (_unit(x1), _unit(x2)) if i == 1 else (_unit(x2), _unit(x1))
    c = xi @ xj
    if not c < 0:
        raise ValueError("A_i is defined under Assumption 2: the angle between x1, x2 > pi/2")
    p, q = w @ xi, w @ xj
    # T part: some lambda >= 0 with e = w - lambda x_i in S_i and ||e|| <= r0, i.e.
    # lambda < p (e.x_i > 0), lambda <= -q/|c| (e.x_j <= 0), and |lambda - p| <= sqrt(disc).
    disc = p**2 - (w**2).sum(-1) + r0**2
    root = np.sqrt(np.maximum(disc, 0.0))
    lo = np.maximum(0.0, p - root)
    hi = np.minimum(p + root, -q / abs(c))
    in_t = (disc >= 0) & (lo <= hi) & (lo < p)
    # U part: w = a u + lambda x_i with a > 0, lambda >= 0.
    u, _ = boundary_directions(i, x1, x2)
    a, lam = np.linalg.solve(np.stack([u, xi], axis=1), w.reshape(-1, 2).T).reshape(2, *p.shape)
    in_u = (a > 0) & (lam >= 0)
    return in_t | in_u


def in_F(w, i, x1, x2, r0, eps0, slack: float = 0.0) -> np.ndarray:
    """Membership in F_i = A_i minus the open ball of radius sqrt(1 - |eps0|).

    `slack` shrinks that radius by a relative amount: gradient *descent* conserves
    ||w||^2 - ||v||^2 (Lemma 9) only up to its step size, so trained weights sit on the sphere
    up to rounding-level drift.
    """
    w = np.asarray(w, dtype=float)
    radius = np.sqrt(1 - abs(eps0)) * (1 - slack)
    return in_A(w, i, x1, x2, r0) & (np.linalg.norm(w, axis=-1) >= radius)


def grid(extent: float, size: int) -> np.ndarray:
    """(size*size, 2) points of the square [-extent, extent]^2."""
    axis = np.linspace(-extent, extent, size)
    g1, g2 = np.meshgrid(axis, axis)
    return np.stack([g1.ravel(), g2.ravel()], axis=1)


def fig2_table(x1, x2, extent, size) -> pd.DataFrame:
    pts = grid(extent, size)
    return pd.DataFrame({"w_1": pts[:, 0], "w_2": pts[:, 1], "region": region_of(pts, x1, x2)})


def fig3_table(x1, x2, r0, eps0, extent, size) -> pd.DataFrame:
    pts = grid(extent, size)
    table = {"w_1": pts[:, 0], "w_2": pts[:, 1], "region": region_of(pts, x1, x2)}
    for i in (1, 2):
        table[f"A{i}"] = in_A(pts, i, x1, x2, r0)
        table[f"F{i}"] = in_F(pts, i, x1, x2, r0, eps0)
    return pd.DataFrame(table)


def fig3_boundaries(x1, x2, r0, eps0, extent, arc_points: int = 64) -> pd.DataFrame:
    """Boundary pieces of A_i and F_i as polylines, with whether the region contains them.

    In the frame w = s n + t x_i, A_i is the closed cone between U_i's ray and x_i (s <= 0),
    plus the half-strip 0 < s < r0, t > 0 swept by T_i. Its boundary is U_i's ray (contained),
    the strip's far edge s = r0 and its base t = 0 (both open: T_i excludes e.x_i = 0). The
    arc ||w|| = sqrt(1 - |eps0|) inside A_i separates F_i (which contains it) from the rest.
    """
    rho = np.sqrt(1 - abs(eps0))
    far = 2 * extent
    rows = []
    for i in (1, 2):
        xi = _unit(x1 if i == 1 else x2)
        u, n = boundary_directions(i, x1, x2)
        edge = r0 * n + np.sqrt(max(rho**2 - r0**2, 0.0)) * xi
        tau = np.linspace(0.0, 1.0, arc_points)[:, None]
        arc = (1 - tau) * u + tau * edge / np.linalg.norm(edge)
        arc = rho * arc / np.linalg.norm(arc, axis=1, keepdims=True)
        pieces = [
            (f"A{i}", "U ray", False, np.stack([np.zeros(2), far * u])),
            (f"A{i}", "strip edge", True, np.stack([r0 * n, r0 * n + far * xi])),
            (f"A{i}", "strip base", True, np.stack([np.zeros(2), r0 * n])),
            (f"F{i}", "arc", False, arc),
        ]
        for region, piece, is_open, points in pieces:
            for k, (p1, p2) in enumerate(points):
                rows.append(
                    {
                        "region": region,
                        "piece": piece,
                        "open": is_open,
                        "order": k,
                        "w_1": p1,
                        "w_2": p2,
                    }
                )
    return pd.DataFrame(rows)
