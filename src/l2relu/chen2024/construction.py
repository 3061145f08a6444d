"""The zero-cost networks of chen2024, built from data: Prop. 4.1 (clustered classes) and
Thm 5.2 (sequentially linearly separable classes).

Both networks have Q hidden layers. Hidden layer l singles out one class: by Lemma 3.4 its
truncation map, written in input space with the cumulative parameters W^(l), b^(l) (eqs. 21-22),
collapses that class to the base point p_l of a cone and is the identity (up to the projector
P^(l)) on the forward cone, which holds everything else. The last, affine layer sends the Q
collapsed points to the labels. The cumulative parameters are then inverted into the per-layer
W_l, b_l of an ordinary network. Every condition the construction needs is checked on the data;
a violated one raises AssumptionError naming it, never a silently wrong network.

Data are columns: X is (M, N), labels is (N,) with values 0..Q-1, Y is (Q, Q), label j in column j.
"""

from dataclasses import dataclass, field
from itertools import permutations

import numpy as np

from l2relu.chen2024.truncation import (
    angle_to,
    cone_layer,
    narrowing_cone_layer,
    relu,
    rotation_onto,
    shrink_matrix,
    truncation_map,
)


class AssumptionError(ValueError):
    """The data or architecture violate an assumption of the construction; `condition` names
    it (e.g. "(55)", "(59)", "Def. 5.1")."""

    def __init__(self, condition: str, message: str, value: float | None = None):
        super().__init__(f"{condition}: {message}")
        self.condition = condition
        self.value = value  # the measured size of the violation, where it has one


@dataclass
class Layer:
    """One hidden layer, x -> relu(W x + b), and the cone it was built from (in its input
    space): the class it collapses, the base point p, the axis h and the aperture theta."""

    weight: np.ndarray
    bias: np.ndarray
    collapsed_class: int
    base_point: np.ndarray
    axis: np.ndarray
    aperture: float


@dataclass
class ConstructedNetwork:
    hidden: list[Layer]
    out_weight: np.ndarray  # (Q, d_Q)
    out_bias: np.ndarray  # (Q,)
    order: tuple[int, ...]  # the class each hidden layer collapses, in layer order
    notes: dict = field(default_factory=dict)  # measured margins of the conditions

    @property
    def weights(self) -> list[np.ndarray]:
        return [layer.weight for layer in self.hidden] + [self.out_weight]

    @property
    def biases(self) -> list[np.ndarray]:
        return [layer.bias for layer in self.hidden] + [self.out_bias]

    def parameter_count(self) -> int:
        return int(sum(w.size + b.size for w, b in zip(self.weights, self.biases, strict=True)))

    def representations(self, x: np.ndarray) -> list[np.ndarray]:
        """X^(0) = x, X^(1), ..., X^(L) (eq. 5), with numpy."""
        out = [x]
        for layer in self.hidden:
            out.append(relu(layer.weight @ out[-1] + layer.bias[:, None]))
        out.append(self.out_weight @ out[-1] + self.out_bias[:, None])
        return out


def cost(outputs: np.ndarray, labels: np.ndarray, y: np.ndarray) -> float:
    """Eq. (14): (1/2) ||X^(L) - Y^ext||^2."""
    return 0.5 * float(np.sum((outputs - y[:, labels]) ** 2))


def class_means(x: np.ndarray, labels: np.ndarray, q: int) -> np.ndarray:
    """(M, Q): column j is the mean of class j (eq. 8)."""
    return np.stack([x[:, labels == j].mean(axis=1) for j in range(q)], axis=1)


def _check_inputs(x, labels, y):
    labels = np.asarray(labels)
    q = y.shape[0]
    if y.shape != (q, q) or np.linalg.matrix_rank(y) < q:
        raise AssumptionError("labels", f"Y must be a {q} x {q} matrix of independent labels")
    if set(np.unique(labels)) != set(range(q)):
        raise AssumptionError("labels", f"every class 0..{q - 1} needs at least one point")
    if q > x.shape[0]:
        raise AssumptionError("Q <= M", f"{q} classes in dimension M = {x.shape[0]}")
    means = class_means(x, labels, q)
    if np.linalg.matrix_rank(means, tol=1e-9 * np.abs(means).max()) < q:
        raise AssumptionError("means", "the class means are linearly dependent")
    return labels, q


def _check_widths(widths, m, q):
    widths = tuple(int(w) for w in widths)
    if len(widths) != q:
        raise AssumptionError("widths", f"need Q = {q} hidden widths, got {len(widths)}")
    chain = (m, *widths)
    if any(a < b for a, b in zip(chain, chain[1:], strict=False)) or widths[-1] < q:
        raise AssumptionError("widths", f"need M = {m} >= d_1 >= ... >= d_Q >= Q = {q}: {widths}")
    return widths


def _ball_aperture(apex, axis, centers, radius) -> float:
    """Full aperture of the narrowest cone apex + C[axis] that contains the balls of the given
    radius around each column of `centers`; inf when a ball holds the apex."""
    d = centers - apex[:, None]
    dist = np.linalg.norm(d, axis=0)
    if np.any(dist <= radius):
        return np.inf
    return float(2 * np.max(angle_to(d, axis) + np.arcsin(radius / dist)))


def _check_cones(w, z, labels, target, p):
    """Lemma 3.4's conclusion on the data, checked where it acts: W(x - p) in the negative
    orthant for the target class (collapsed to p), in the positive orthant for every other
    point (kept)."""
    signs = w @ (z - p[:, None])
    scale = 1e-9 * max(1.0, np.abs(signs).max())
    mine = labels == target
    if np.any(signs[:, mine] > scale):
        raise AssumptionError("Lemma 3.4", f"class {target} is not inside its backward cone")
    if np.any(signs[:, ~mine] < -scale):
        raise AssumptionError("Lemma 3.4", f"points outside class {target} leave the forward cone")


def _after(w_cum, w_prev, layer):
    """W_l with W_l W^(l-1) = W^(l) (eq. 21), or AssumptionError when no such W_l exists: the
    rows of W^(l) must lie in the row space of W^(l-1)."""
    w_layer = w_cum @ np.linalg.pinv(w_prev)
    residual = np.linalg.norm(w_layer @ w_prev - w_cum) / np.linalg.norm(w_cum)
    if residual > 1e-9:
        raise AssumptionError(
            "(21)",
            f"layer {layer}: W^({layer}) is not W_{layer} W^({layer - 1}) for any W_{layer} "
            f"(relative residual {residual:.2e}): the cumulative parameters of a narrowing "
            "layer must keep the kernels of the earlier ones",
            residual,
        )
    return w_layer


def _build(x, labels, y, q, cut, widths, order, notes) -> ConstructedNetwork:
    """One hidden layer per class: cumulative parameters from a cone, its truncation map checked
    on the data (Lemma 3.4), then the last layer (eqs. 62, 110) and the inversion into per-layer
    weights (eqs. 21-22).

    The cones live in a frame: an orthonormal basis of the subspace of input space that the
    layers so far let through (all of it until a layer narrows; then the row space of that
    layer's W^(l), where X^(tau, l) lies). Building later layers in that frame keeps every
    W^(l) a product W_l W^(l-1). cut(layer, coords, basis, width) returns (class, base point,
    axis, aperture, subspace) in the frame's coordinates, given the data's coordinates there
    and the frame's basis; the subspace (orthonormal columns, or None) is the one a narrowing
    layer's rows must span (Lemma 3.4's own rows do not keep the class means, see
    narrowing_cone_layer)."""
    m = x.shape[0]
    tau = x  # X^(tau, l) of eq. (25)
    basis = np.eye(m)
    w_prev, b_prev = np.eye(m), np.zeros(m)
    hidden = []
    for layer, width in enumerate(widths, 1):
        coords = basis.T @ tau
        target, p, h, theta, keep = cut(layer, coords, basis, width)
        if width < basis.shape[1] and keep is not None:
            w_frame, b_cum = narrowing_cone_layer(p, h, theta, keep)
        else:
            w_frame, b_cum = cone_layer(p, h, theta, width)  # eqs. (61) / (109)
        w_cum = w_frame @ basis.T
        w_layer = _after(w_cum, w_prev, layer)
        _check_cones(w_frame, coords, labels, target, p)
        hidden.append(Layer(w_layer, b_cum - w_layer @ b_prev, target, basis @ p, basis @ h, theta))
        tau = truncation_map(w_cum, b_cum, tau)
        if width < basis.shape[1]:
            basis = np.linalg.svd(w_cum, full_matrices=False)[2].T
        w_prev, b_prev = w_cum, b_cum
    return _finish(tau, labels, y, q, hidden, w_prev, b_prev, order, notes)


def _finish(tau, labels, y, q, hidden, w_prev, b_prev, order, notes) -> ConstructedNetwork:
    """The last layer on X^(tau, Q) (eqs. 62, 110: W^(Q+1) = Y (collapsed points)^+, b^(Q+1) =
    0), once the classes are checked collapsed to linearly independent points, inverted into
    the per-layer W_(Q+1), b_(Q+1) (eqs. 21-22)."""
    points = class_means(tau, labels, q)
    spread = np.abs(tau - points[:, labels]).max()
    if spread > 1e-9 * max(1.0, np.abs(points).max()):
        raise AssumptionError("collapse", f"classes not collapsed to points (spread {spread:.2e})")
    if np.linalg.matrix_rank(points) < q:
        raise AssumptionError("rank", "the collapsed points are linearly dependent")
    w_last = y @ np.linalg.pinv(points)  # eq. (62), b^(Q+1) = 0
    w_out = _after(w_last, w_prev, len(hidden) + 1)
    return ConstructedNetwork(hidden, w_out, -w_out @ b_prev, tuple(order), notes)


def _clustered_geometry(z, labels, q):
    """Prop. 4.1's geometry of the data z: means, barycenter x-bar (eq. 56), delta (eq. 54),
    f_j (eq. 57) and theta_{*,j} (eq. 58), with conditions (55) and (59) checked."""
    means = class_means(z, labels, q)
    center = means.mean(axis=1)
    delta = float(np.max(np.linalg.norm(z - means[:, labels], axis=0)))
    gaps = np.linalg.norm(means - center[:, None], axis=0)
    if not delta < gaps.min() / 4:  # (55) holds for some c0 < 1/4
        raise AssumptionError(
            "(55)",
            f"clusters of radius delta = {delta:.3g} are not below "
            f"min_j |x_j - x| / 4 = {gaps.min() / 4:.3g}",
        )
    f = (center[:, None] - means) / gaps
    apertures = [
        _ball_aperture(means[:, j], f[:, j], np.delete(means, j, axis=1), 4 * delta)
        for j in range(q)
    ]
    if not max(apertures) < np.pi:
        raise AssumptionError("(59)", f"max_j theta_*,j = {max(apertures):.3f} >= pi")
    return means, f, delta, max(apertures), delta / gaps.min()


def _keep(coords, means, width):
    """The subspace a narrowing layer keeps: the span of the class means (so that the data's
    projection there keeps the means and only shrinks the clusters), topped up to `width`
    dimensions with the directions of largest spread of the data around their means."""
    span = np.linalg.svd(means, full_matrices=False)[0]
    rest = coords - span @ (span.T @ coords)
    extra = np.linalg.svd(rest, full_matrices=True)[0][:, : width - span.shape[1]]
    return np.linalg.qr(np.hstack([span, extra]))[0]


def clustered_network(
    x: np.ndarray,
    labels: np.ndarray,
    y: np.ndarray,
    widths=None,
    mu_fraction=0.5,
    theta_margin: float = 0.5,
) -> ConstructedNetwork:
    """Prop. 4.1: hidden layer l collapses class l - 1 at x_l + mu_l f_l, mu_l =
    (2 + mu_fraction) delta in (2 delta, 3 delta) (mu_fraction: one for every layer, or one per
    layer: the proof's family (mu_l)), in the cone of aperture theta_* =
    max(pi/2, max_j theta_{*,j} + theta_margin (pi - max_j theta_{*,j})) (eq. 64).

    widths: d_1 >= ... >= d_Q >= Q (default: all M, the paper's construction exactly). A layer
    that narrows keeps the span of the class means (narrowing_cone_layer), so X^(tau, l) is
    projected onto a subspace holding the means, and the later layers, built in that frame,
    see the geometry of the proof unchanged: the same means, barycenter, f_j and theta_*."""
    labels, q = _check_inputs(x, labels, y)
    widths = _check_widths(widths or (x.shape[0],) * q, x.shape[0], q)
    means, f, delta, widest, c0 = _clustered_geometry(x, labels, q)
    theta = max(np.pi / 2, widest + theta_margin * (np.pi - widest))
    mu = (2 + np.broadcast_to(np.asarray(mu_fraction, dtype=float), (q,))) * delta
    notes = {"c0_needed": c0, "widest_theta_j": widest, "theta_star": theta, "delta": delta}

    def cut(layer, coords, frame, width):
        j = layer - 1
        means_f, f_f = frame.T @ means, frame.T @ f[:, j]
        return j, means_f[:, j] + mu[j] * f_f, f_f, theta, _keep(coords, means_f, width)

    return _build(x, labels, y, q, cut, widths, range(q), notes)


def _frame(v: np.ndarray) -> np.ndarray:
    """An orthogonal matrix whose first column is v / |v|."""
    from scipy.linalg import null_space

    v = v / np.linalg.norm(v)
    return np.column_stack([v, null_space(v[None, :])])


def _cayley(s: np.ndarray) -> np.ndarray:
    """The orthogonal (1 + S)^-1 (1 - S) of a skew-symmetric S."""
    one = np.eye(len(s))
    return np.linalg.solve(one + s, one - s)


def householder_rotations(f: np.ndarray, theta: float, widths, rng=None) -> list[np.ndarray]:
    """R_l with R_l f_l = u / |u| (eqs. 67, 78), each the Householder reflection that
    cone_layer uses: the pipeline's default choice, made layer by layer."""
    u = np.ones(f.shape[0])
    return [rotation_onto(f[:, j], u) for j in range(f.shape[1])]


class Eq21Residual:
    """The parameters z = (S_1, ..., S_Q) (each skew S_l by its upper triangle) of
    fitted_rotations, their R_l = F_u diag(1, G_l Cay(S_l)) F_l^T (rotations(z)) and the rows of
    every W^(l) outside the row space of W^(l-1) (self(z), the residual least squares drives to
    0). With `reuse`, each layer's R_l and each pair's gap keeps its last two values, by the
    bits of their parameters: a finite-difference Jacobian moves one layer's parameters at a
    time, so the others' are found there. The same operations on the same values, so the same
    bits as computing every one afresh; `reused` counts the values found."""

    def __init__(self, f: np.ndarray, theta: float, widths, start, reuse: bool = True):
        d0, self.q = f.shape
        w_theta = shrink_matrix(theta, d0)
        self.rows = [np.linalg.qr(w_theta[:, :d])[0] for d in widths]  # W_theta's first d_l rows
        self.f_u, self.f_l = _frame(np.ones(d0)), [_frame(f[:, j]) for j in range(self.q)]
        self.widths, self.d0, self.start, self.reuse = widths, d0, start, reuse
        self.upper = np.triu_indices(d0 - 1, 1)
        self.size = len(self.upper[0])
        self.kept, self.reused = {}, 0  # slot (a layer, or a pair of layers) -> {key: value}

    def rotation(self, j: int, block: np.ndarray) -> np.ndarray:
        """R_j of the upper triangle `block` of S_j."""
        s = np.zeros((self.d0 - 1, self.d0 - 1))
        s[self.upper] = block
        g = np.eye(self.d0)
        g[1:, 1:] = self.start[j] @ _cayley(s - s.T)
        return self.f_u @ g @ self.f_l[j].T

    def rotations(self, z: np.ndarray) -> list[np.ndarray]:
        """Every R_l of z, computed afresh: arrays of the caller's own, never kept ones."""
        return [self.rotation(j, self._block(z, j)) for j in range(self.q)]

    def _block(self, z, j):
        return z[j * self.size : (j + 1) * self.size]

    def _gap(self, layer, r_before, r_layer):
        """The rows of W^(layer) outside the row space of W^(layer-1), flattened."""
        basis = r_before.T @ self.rows[layer - 1]  # row space of W^(l-1), orthonormal
        mine = r_layer.T @ self.rows[layer]
        return (mine - basis @ (basis.T @ mine)).ravel()

    def _remembered(self, slot, key, compute):
        if not self.reuse:
            return compute()
        values = self.kept.setdefault(slot, {})
        if key in values:
            self.reused += 1
            return values[key]
        if len(values) == 2:
            del values[next(iter(values))]  # the older
        values[key] = compute()
        return values[key]

    def __call__(self, z: np.ndarray) -> np.ndarray:
        blocks = [self._block(z, j) for j in range(self.q)]
        keys = [b.tobytes() for b in blocks]
        r = [
            self._remembered(j, keys[j], lambda j=j: self.rotation(j, blocks[j]))
            for j in range(self.q)
        ]
        gaps = [np.zeros(1)]
        for i in range(1, self.q):
            if self.widths[i - 1] < self.d0:
                gap = self._remembered(
                    (i - 1, i), keys[i - 1] + keys[i], lambda i=i: self._gap(i, r[i - 1], r[i])
                )
                gaps.append(gap)
        return np.concatenate(gaps)


def fitted_rotations(f: np.ndarray, theta: float, widths, rng) -> list[np.ndarray]:
    """R_l with R_l f_l = u / |u| (eqs. 67, 78) chosen in that condition's freedom (a copy of
    O(d_0 - 1)) so that eq. (21) holds: each W^(l) = I(d_0, d_l) W_theta R_l must be W_l
    W^(l-1), i.e. its rows must lie in the row space of W^(l-1), which Prop. 4.1 assumes and
    does not arrange. R_l = F_u diag(1, G_l Cay(S_l)) F_l^T (F_u, F_l orthogonal with first
    columns u / |u| and f_l), G_l drawn from rng (Haar) and the skew S_l found by least squares
    (Levenberg-Marquardt from S_l = 0) on the rows of every W^(l) outside the row space of
    W^(l-1) (Eq21Residual). Raises AssumptionError("(21)") when the fit leaves a residual above
    1e-12."""
    from scipy.optimize import least_squares

    d0, q = f.shape
    k = d0 - 1
    start = [np.linalg.qr(rng.standard_normal((k, k)))[0] for _ in range(q)]
    outside = Eq21Residual(f, theta, widths, start)
    zero = np.zeros(q * outside.size)
    if outside.size == 0 or all(d == d0 for d in widths[:-1]):
        return outside.rotations(zero)
    fit = least_squares(outside, zero, method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15)
    residual = float(np.abs(outside(fit.x)).max())
    if residual > 1e-12:
        raise AssumptionError(
            "(21)", f"no R_l found that keeps eq. (21) (residual {residual:.2e})", residual
        )
    return outside.rotations(fit.x)


def eq61_network(
    x: np.ndarray,
    labels: np.ndarray,
    y: np.ndarray,
    widths,
    rotations=householder_rotations,
    rng=None,
    mu_fraction=0.5,
    theta_margin: float = 0.5,
) -> ConstructedNetwork:
    """Prop. 4.1 as eq. (61) writes it, at any widths M >= d_1 >= ... >= d_Q >= Q: in input
    space, W^(l) = I(d_0, d_l) W_theta* R_l and b^(l) = -W^(l)(x_l + mu_l f_l), with W_theta*
    of eq. (40) and R_l from rotations(f, theta_*, widths, rng) (R_l f_l = u / |u|, eq. 78),
    the per-layer W_l, b_l recovered through eqs. (21)-(22) (AssumptionError("(21)") when the
    rows of some W^(l) leave the row space of W^(l-1)), and the last layer of eq. (62). mu_l
    and theta_* as in clustered_network. Unlike clustered_network, no layer is built in a
    frame: every W^(l) is eq. (61)'s, so whether (21) holds is the choice of the R_l's."""
    labels, q = _check_inputs(x, labels, y)
    widths = _check_widths(widths, x.shape[0], q)
    means, f, delta, widest, c0 = _clustered_geometry(x, labels, q)
    theta = max(np.pi / 2, widest + theta_margin * (np.pi - widest))
    mu = (2 + np.broadcast_to(np.asarray(mu_fraction, dtype=float), (q,))) * delta
    w_theta = shrink_matrix(theta, x.shape[0])
    r = rotations(f, theta, widths, rng)
    m = x.shape[0]
    tau, w_prev, b_prev, hidden = x, np.eye(m), np.zeros(m), []
    for j, width in enumerate(widths):
        p = means[:, j] + mu[j] * f[:, j]
        w_cum = (w_theta @ r[j])[:width]  # eq. (61)
        b_cum = -w_cum @ p
        w_layer = _after(w_cum, w_prev, j + 1)
        _check_cones(w_cum, tau, labels, j, p)
        hidden.append(Layer(w_layer, b_cum - w_layer @ b_prev, j, p, f[:, j], theta))
        tau = truncation_map(w_cum, b_cum, tau)
        w_prev, b_prev = w_cum, b_cum
    notes = {"c0_needed": c0, "widest_theta_j": widest, "theta_star": theta, "delta": delta}
    return _finish(tau, labels, y, q, hidden, w_prev, b_prev, range(q), notes | {"rotations": r})


def separating_normal(inside: np.ndarray, outside: np.ndarray, p: np.ndarray):
    """A unit normal h of a hyperplane through p with every column of `inside` strictly on the
    side -h and every column of `outside` strictly on the side +h, with the largest margin
    (in angle: min over points of the angle to the hyperplane); None when there is none."""
    from scipy.optimize import linprog

    d_in, d_out = inside - p[:, None], outside - p[:, None]
    if np.any(np.linalg.norm(d_in, axis=0) == 0) or np.any(np.linalg.norm(d_out, axis=0) == 0):
        return None
    # normalize the points' directions so that the margin is an angle; h in the unit box
    a = np.hstack([d_in / np.linalg.norm(d_in, axis=0), -d_out / np.linalg.norm(d_out, axis=0)])
    n = len(p)
    # maximize t subject to  a_i . h <= -t  for every column (i.e. -a_i . h >= t), |h_k| <= 1
    result = linprog(
        c=np.r_[np.zeros(n), -1.0],
        A_ub=np.hstack([a.T, np.ones((a.shape[1], 1))]),
        b_ub=np.zeros(a.shape[1]),
        bounds=[(-1, 1)] * n + [(None, 1)],
        method="highs",
    )
    if result.status != 0 or result.x[-1] <= 1e-9:
        return None
    h = result.x[:n]
    return h / np.linalg.norm(h)


@dataclass(frozen=True)
class SeparationStep:
    collapsed_class: int
    base_point: np.ndarray  # p_j on the segment from the class mean to the barycenter
    normal: np.ndarray  # h_j, pointing away from the class
    segment_t: float  # p_j = mean_j + t (barycenter - mean_j)


# Where Def. 5.1's point p_j is sought on the segment from the class mean to the barycenter.
SEGMENT_TS = tuple(np.linspace(0.1, 0.9, 9))


def separation_plan(x, labels, q, order, segment_ts=SEGMENT_TS):
    """Def. 5.1 for one ordering of the classes: for each class in turn, a point p on the
    segment from its mean to the barycenter and a hyperplane through p separating the class
    from the later classes and the earlier p's. Where p_j falls matters to the later steps, so
    every tried point is followed (depth first) before the ordering is declared invalid.
    Returns the steps, or None when no choice of the tried points works."""
    means = class_means(x, labels, q)
    center = means.mean(axis=1)

    def extend(steps):
        position = len(steps)
        if position == len(order):
            return steps
        j = order[position]
        later = np.isin(labels, order[position + 1 :])
        outside = np.hstack([x[:, later], *[s.base_point[:, None] for s in steps]])
        for t in segment_ts:
            p = means[:, j] + t * (center - means[:, j])
            h = separating_normal(x[:, labels == j], outside, p)
            if h is not None and (plan := extend([*steps, SeparationStep(j, p, h, float(t))])):
                return plan
        return None

    return extend([])


def _valid_plans(x, labels, q):
    """(ordering, plan) for every ordering of the classes that realizes Def. 5.1, in
    lexicographic order, found lazily."""
    for order in permutations(range(q)):
        plan = separation_plan(x, labels, q, order)
        if plan is not None:
            yield order, plan


def valid_orderings(x, labels, q):
    """Every ordering of the classes that realizes Def. 5.1, with its plan."""
    return dict(_valid_plans(x, labels, q))


def separable_network(x, labels, y, order=None, theta_margin=0.5) -> ConstructedNetwork:
    """Thm 5.2: width M throughout; hidden layer l collapses the l-th class of a valid ordering
    (the first one found when `order` is None) at p_l, in the cone of axis h_l whose aperture
    lies between theta_{l,min} (eq. 112) and pi, at the share theta_margin of that interval
    (one for every layer, or one per layer: the proof's family (theta_l))."""
    labels, q = _check_inputs(x, labels, y)
    if order is None:  # the first valid ordering, in lexicographic order
        found = next(_valid_plans(x, labels, q), None)
        if found is None:
            raise AssumptionError(
                "Def. 5.1", "no ordering of the classes is sequentially separable"
            )
        order, plan = found
    else:
        order = tuple(order)
        plan = separation_plan(x, labels, q, order)
        if plan is None:
            raise AssumptionError("Def. 5.1", f"the ordering {order} is not sequentially separable")
    margins = np.broadcast_to(np.asarray(theta_margin, dtype=float), (q,))
    cuts = []
    for position, step in enumerate(plan):
        p, h = step.base_point, step.normal
        later = x[:, np.isin(labels, order[position + 1 :])]
        forward = np.hstack([later, *[s.base_point[:, None] for s in plan[:position]]])
        own = x[:, labels == step.collapsed_class] - p[:, None]
        need = 2 * max(
            np.max(angle_to(own, -h)),
            np.max(angle_to(forward - p[:, None], h)) if forward.size else 0.0,
        )  # theta_{l,min} of eq. (112)
        cuts.append((step.collapsed_class, p, h, need + margins[position] * (np.pi - need)))
    return _build(
        x,
        labels,
        y,
        q,
        lambda layer, *_: (*cuts[layer - 1], None),
        (x.shape[0],) * q,
        order,
        {"plan": plan},
    )
