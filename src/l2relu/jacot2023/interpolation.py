"""Sec. 4's comparison of two constructions on data y_i = f*(x_i) of a BN-rank-k true function:
Prop. 2's rank-1 interpolator (||W||^2 = L + C_N, App. C) and Prop. 5's rank-k network of f*
(||W||^2 = kL + C); the range of depths where the second is cheaper, the depth past which the
first undercuts every network of f* (Prop. 3's lower bound), and Thm. 2's TSP bound."""

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.spatial.distance import pdist


def _slopes(x, y, u):
    """Points ordered along u: their positions t (increasing) and the interpolant's slope
    changes c (d_out, N - 1): c_1 = m_1, c_j = m_j - m_(j-1), m_j the slope on [t_j, t_(j+1)]."""
    t = u @ x
    order = np.argsort(t)
    t, y = t[order], y[:, order]
    m = np.diff(y, axis=1) / np.diff(t)
    return t, y, np.concatenate([m[:, :1], np.diff(m, axis=1)], axis=1)


def rank_one_interpolator(x: np.ndarray, y: np.ndarray, depth: int, u: np.ndarray):
    """App. C's BN-rank-1 network fitting y_i at x_i (columns) exactly, depth >= 3: s = relu(
    alpha (u.x - t_1)) (g, one neuron), depth - 3 identity layers on R_+, then h(s) = y_1 +
    sum_j c_j relu(t - t_j), one hidden neuron a kink. u is a unit direction on which the points
    project apart; alpha and each kink neuron's scale are chosen for the least norm (rescalings
    that leave the function unchanged)."""
    t, y, c = _slopes(x, y, u)
    tau = t[:-1] - t[0]  # the kinks, measured from the first point
    out = np.linalg.norm(c, axis=0)

    def cost(log_alpha):
        a = np.exp(log_alpha)
        return a**2 * (1 + t[0] ** 2) + (2 * out * np.sqrt(a**-2 + tau**2)).sum()

    alpha = np.exp(minimize_scalar(cost, bounds=(-20, 20), method="bounded").x)
    # each kink neuron balanced; one whose slope does not change (out = 0) is left at 1
    beta = np.where(out > 0, np.sqrt(out / np.sqrt(alpha**-2 + tau**2)), 1.0)
    first = (alpha * u[None, :], np.array([[-alpha * t[0]]]))
    identity = [(np.ones((1, 1)), np.zeros((1, 1)))] * (depth - 3)
    kinks = ((beta / alpha)[:, None], (-beta * tau)[:, None])
    return [first, *identity, kinks, (c / beta, y[:, :1])]


def squared_norm(net) -> float:
    """||W||^2 of a network [(W_l, b_l)], biases included."""
    return float(sum((w**2).sum() + (b**2).sum() for w, b in net))


def range_width(c_n: float, c: float, k: int, shallowest: int) -> int:
    """The number of depths L >= shallowest at which Prop. 5's bound kL + C is below Prop. 2's
    L + C_N, i.e. L < (C_N - C) / (k - 1)."""
    end = int(np.ceil((c_n - c) / (k - 1)))  # first depth not in the range
    return max(0, end - shallowest)


def undercut_depth(c_n: float, singular_values: np.ndarray, largest=10**12) -> float:
    """The least depth L past which the rank-1 interpolator's ||W||^2 / L = 1 + C_N / L is below
    Prop. 3's lower bound max_x sum_i s_i(Jf*(x))^(2/L) for any network representing f*
    (singular_values: (points, k), f*'s Jacobian at points of the data); inf if not by
    `largest`. Bisection: the bound minus 1 + C_N / L changes sign once from - to +."""

    def gap(depth):
        return (singular_values ** (2 / depth)).sum(axis=1).max() - 1 - c_n / depth

    if gap(largest) <= 0:
        return np.inf
    low, high = 1, largest
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if gap(mid) <= 0 else (low, mid)
    return float(high)


def spanning_length(y: np.ndarray) -> float:
    """Length of the minimum spanning tree of the columns of y: a lower bound on the TSP. Prim's
    algorithm on the dense graph, distances from each new vertex computed as it joins (O(N^2)
    time, O(N) memory)."""
    points = y.T
    dist = np.linalg.norm(points - points[0], axis=1)
    inside = np.zeros(len(points), dtype=bool)
    inside[0] = True
    total = 0.0
    for _ in range(len(points) - 1):
        j = int(np.where(inside, np.inf, dist).argmin())
        total += dist[j]
        inside[j] = True
        dist = np.minimum(dist, np.linalg.norm(points - points[j], axis=1))
    return float(total)


def prop10_ratio(net, x: np.ndarray, y: np.ndarray, depth: int) -> float:
    """||W||^2 of a network of depth `depth` over Prop. 10's bound L (TSP(y)/diam(x))^(2/L), with
    2 MST(y), an upper bound on the TSP, in its place: at least 1 establishes the bound."""
    tsp_upper = 2 * spanning_length(y) / diameter(x)
    return squared_norm(net) / (depth * tsp_upper ** (2 / depth))


def diameter(x: np.ndarray) -> float:
    return float(pdist(x.T).max())


def largest_slope(x: np.ndarray, y: np.ndarray, u: np.ndarray) -> float:
    """max over the segment of the data's extreme points along u of ||Jf(x)||_op, f the
    interpolator: |u| times the largest |h'| (the largest slope norm of h)."""
    _, _, c = _slopes(x, y, u)
    return float(np.linalg.norm(np.cumsum(c, axis=1), axis=0).max() * np.linalg.norm(u))


def growth_exponent(sizes, lengths) -> float:
    """The least-squares slope of log(length) against log(N)."""
    return float(np.polyfit(np.log(sizes), np.log(lengths), 1)[0])
