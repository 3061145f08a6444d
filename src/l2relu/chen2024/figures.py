"""The data behind chen2024's three figures, computed from the construction itself."""

from dataclasses import dataclass
from itertools import permutations

import numpy as np
import pandas as pd

from l2relu.chen2024 import construction, data, theory
from l2relu.chen2024.truncation import cone_layer, in_cone, relu, truncation_map


@dataclass(frozen=True)
class Fig2Config:
    base_point: tuple[float, float]  # p, the cone's apex
    axis_deg: float  # direction of h, degrees from the x-axis
    aperture_deg: float  # theta, the cone's full opening angle
    extent: float  # the grid covers p +- extent in both coordinates
    grid_size: int  # points per side


def fig2_grid(cfg: Fig2Config) -> tuple[pd.DataFrame, dict]:
    """Lemma 3.4's layer in the plane for the cone p + C_theta[h], and a grid carried through it:
    input x, pre-activation z = Wx + b, sigma(z), and tau(x), with each point's region (forward
    cone, backward cone, or neither)."""
    p = np.asarray(cfg.base_point, dtype=float)
    angle = np.radians(cfg.axis_deg)
    h = np.array([np.cos(angle), np.sin(angle)])
    theta = np.radians(cfg.aperture_deg)
    w, b = cone_layer(p, h, theta)
    side = np.linspace(-cfg.extent, cfg.extent, cfg.grid_size)
    gx, gy = np.meshgrid(p[0] + side, p[1] + side)
    x = np.vstack([gx.ravel(), gy.ravel()])
    z = w @ x + b[:, None]
    s = relu(z)
    t = truncation_map(w, b, x)
    region = np.where(
        in_cone(x, p, h, theta),
        "forward",
        np.where(in_cone(x, p, -h, theta), "backward", "neither"),
    )
    grid = pd.DataFrame(
        {
            "x1": x[0],
            "x2": x[1],
            "z1": z[0],
            "z2": z[1],
            "s1": s[0],
            "s2": s[1],
            "tau1": t[0],
            "tau2": t[1],
            "region": region,
        }
    )
    layer = {"w": w, "b": b, "p": p, "h": h, "theta": theta}
    return grid, layer


@dataclass(frozen=True)
class Fig1Config:
    per_class: int  # points in each of the three clusters
    spread: float  # cluster radius / the centers' smallest distance to their barycenter
    seed: int


def fig1_tables(cfg: Fig1Config) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Three clustered classes in R^3 (so the means are linearly independent), Prop. 4.1's
    network on them, and its first layer drawn in the plane of the means: every point before
    and after tau^(1), in coordinates of that plane (origin at the barycenter x-bar); and the
    geometry (means, base point p, axis f_1, aperture theta_*)."""
    x, labels = data.clustered(3, 3, cfg.per_class, cfg.spread, cfg.seed)
    net = construction.clustered_network(x, labels, np.eye(3))
    first = net.hidden[0]
    means = construction.class_means(x, labels, 3)
    center = means.mean(axis=1)
    plane = np.linalg.svd(means - center[:, None])[0][:, :2]  # the means' affine plane

    def coords(points):
        return plane.T @ (points - center[:, None])

    after = truncation_map(first.weight, first.bias, x)  # the first layer: W^(1) = W_1
    before_2d, after_2d = coords(x), coords(after)
    points = pd.DataFrame(
        {
            "label": labels,
            "u": before_2d[0],
            "v": before_2d[1],
            "u_after": after_2d[0],
            "v_after": after_2d[1],
            "off_plane": np.linalg.norm(x - center[:, None] - plane @ before_2d, axis=0),
            "moved": np.linalg.norm(after - x, axis=0),
            "to_base": np.linalg.norm(after - first.base_point[:, None], axis=0),
            # the caption's cones, in R^3: p + C_theta[-f_1] and p + C_theta[f_1]
            "in_backward_cone": in_cone(x, first.base_point, -first.axis, first.aperture),
            "in_forward_cone": in_cone(x, first.base_point, first.axis, first.aperture),
        }
    )
    means_2d, base_2d = coords(means), coords(first.base_point[:, None])[:, 0]
    axis_2d = plane.T @ first.axis  # f_1 lies in the plane: it points at the barycenter
    half = first.aperture / 2
    edges = [
        np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ axis_2d for a in (half, -half)
    ]  # the forward cone's edges; the backward cone's are their negatives
    geometry = pd.DataFrame(
        {
            "name": [
                "mean0",
                "mean1",
                "mean2",
                "barycenter",
                "base_point",
                "axis",
                "edge_a",
                "edge_b",
            ],
            "u": [*means_2d[0], 0.0, base_2d[0], axis_2d[0], edges[0][0], edges[1][0]],
            "v": [*means_2d[1], 0.0, base_2d[1], axis_2d[1], edges[0][1], edges[1][1]],
        }
    )
    return points, geometry, net.notes


@dataclass(frozen=True)
class Fig3Config:
    boxes: tuple[tuple[float, float, float, float], ...]  # one [x0, x1, y0, y1] per class
    per_class: int
    seed: int


def fig3_tables(cfg: Fig3Config):
    """A planar 3-class set (in z = 1): every ordering of the classes tried against Def. 5.1,
    the steps (p_j, h_j) of the valid one(s), Thm 5.2's network for the first valid one, and
    whether Prop. 4.1's assumptions hold. Returns (points, steps, orderings, notes)."""
    x, labels = data.planar_boxes(cfg.boxes, cfg.per_class, cfg.seed)
    q = len(cfg.boxes)
    plans = construction.valid_orderings(x, labels, q)
    orderings = pd.DataFrame(
        {
            "ordering": ["-".join(str(j + 1) for j in o) for o in permutations(range(q))],
            "valid": [o in plans for o in permutations(range(q))],
        }
    )
    notes = {"clustered_condition": ""}
    try:
        construction.clustered_network(x, labels, np.eye(q))
    except construction.AssumptionError as err:
        notes["clustered_condition"] = err.condition
    steps = []
    if plans:
        order, plan = next(iter(plans.items()))
        net = construction.separable_network(x, labels, np.eye(q), order=order)
        notes["cost"] = theory.engine_cost(net, x, labels, np.eye(q))
        notes["order"] = order
        steps = [
            {
                "step": k + 1,
                "label": s.collapsed_class,
                "p_x": s.base_point[0],
                "p_y": s.base_point[1],
                "h_x": s.normal[0],
                "h_y": s.normal[1],
                "h_z": s.normal[2],
                "t": s.segment_t,
            }
            for k, s in enumerate(plan)
        ]
    means = construction.class_means(x, labels, q)
    points = pd.DataFrame({"x": x[0], "y": x[1], "label": labels})
    centers = pd.DataFrame({"label": range(q), "mean_x": means[0], "mean_y": means[1]})
    columns = ["step", "label", "p_x", "p_y", "h_x", "h_y", "h_z", "t"]
    return points, pd.DataFrame(steps, columns=columns), orderings, centers, notes
