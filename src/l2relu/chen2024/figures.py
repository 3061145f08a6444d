"""The data behind chen2024's three figures, computed from the construction itself."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

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
