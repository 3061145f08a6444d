"""The data sets of jacot2023's experiments (App. F), each drawn from a seed."""

from dataclasses import dataclass

import numpy as np

from l2relu.training.seeding import rng_for

SCALES = ("he", "torch")


def random_shallow_relu(d_in: int, d_out: int, width: int, rng, scale: str = "he"):
    """x -> A relu(B x + c): a random shallow ReLU net, returned as a function of (d_in, N)
    arrays. scale "he": Gaussian, He-scaled so outputs are O(1) for O(1) inputs; "torch":
    PyTorch's default nn.Linear draw, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weights and
    biases, which makes the outputs about 4 times smaller. App. F states neither."""
    if scale == "he":
        inner = rng.normal(size=(width, d_in)) * np.sqrt(2.0 / d_in)
        bias = rng.normal(size=(width, 1)) * 0.1
        outer = rng.normal(size=(d_out, width)) * np.sqrt(1.0 / width)
    elif scale == "torch":
        inner = rng.uniform(-1.0, 1.0, size=(width, d_in)) / np.sqrt(d_in)
        bias = rng.uniform(-1.0, 1.0, size=(width, 1)) / np.sqrt(d_in)
        outer = rng.uniform(-1.0, 1.0, size=(d_out, width)) / np.sqrt(width)
    else:
        raise ValueError(f"scale {scale!r} is one of {SCALES}")
    return lambda z: outer @ np.maximum(inner @ z + bias, 0.0)


@dataclass(frozen=True)
class LatentTask:
    """App. F's regression task: z ~ N(0, I_latent), x = g(z), y = h(z_1, ..., z_rank)."""

    latent: int  # dimension of z (15 in the paper)
    d_in: int  # dimension of x (50)
    d_out: int  # dimension of y (50)
    true_rank: int  # latent coordinates h reads: k (4 in the caption, 5 in App. F)
    width: int  # inner width of the random shallow nets g and h (100)
    seed: int  # draws g, h (the task) and the points
    scale: str = "he"  # how g and h are drawn: random_shallow_relu's scale

    def functions(self):
        """(g, h): the same pair for every N and every split, fixed by the seed."""
        rng = rng_for(
            "jacot2023",
            "latent_task",
            self.latent,
            self.d_in,
            self.d_out,
            self.true_rank,
            self.width,
            self.seed,
        )
        g = random_shallow_relu(self.latent, self.d_in, self.width, rng, self.scale)
        h = random_shallow_relu(self.true_rank, self.d_out, self.width, rng, self.scale)
        return g, h

    def sample(self, n: int, split: str = "train"):
        """(x, y, z) with points as columns: (d_in, n), (d_out, n), (latent, n)."""
        g, h = self.functions()
        rng = rng_for("jacot2023", "latent_points", self.seed, split, n)
        z = rng.normal(size=(self.latent, n))
        return g(z), h(z[: self.true_rank]), z


def inverted_s(n: int, rng: np.random.Generator, amplitude: float, noise: float) -> np.ndarray:
    """(n, 2) points around the inverted 'S' x = amplitude sin(pi y), y uniform in [-1, 1]
    (the letter S, mirrored: its upper half bulges right, its lower half left), with isotropic
    Gaussian noise. Its translates along x never cross, however close."""
    y = rng.uniform(-1.0, 1.0, size=n)
    points = np.stack([amplitude * np.sin(np.pi * y), y], axis=1)
    return points + noise * rng.normal(size=(n, 2))


def s_classes(
    classes: int, per_class: int, amplitude: float, spacing: float, noise: float, seed: int
):
    """Fig. 2's data: `classes` copies of the same inverted S, class c translated by c * spacing
    along x. Returns (points (N, 2), labels (N,))."""
    rng = rng_for("jacot2023", "s_classes", classes, per_class, amplitude, spacing, noise, seed)
    points = [
        inverted_s(per_class, rng, amplitude, noise) + [c * spacing, 0.0] for c in range(classes)
    ]
    labels = np.repeat(np.arange(classes), per_class)
    return np.concatenate(points), labels


def _curve_parts(width: int, seed: int):
    """The random shallow ReLU net behind curve `seed`: slopes, kinks (in t), outer weights, and
    the centre and scale that put its data at unit RMS distance from their mean."""
    rng = rng_for("jacot2023", "curve", width, seed)
    slope = rng.normal(size=(width, 1))
    kink = rng.normal(size=(width, 1))
    outer = rng.normal(size=(2, width)) * np.sqrt(2.0 / width)

    def raw(t):
        return outer @ np.maximum(slope * (t - kink), 0.0)

    anchor = raw(rng_for("jacot2023", "curve_scale", width, seed).normal(size=(1, 10_000)))
    centre = anchor.mean(axis=1, keepdims=True)
    scale = np.sqrt(((anchor - centre) ** 2).sum(axis=0).mean())
    return raw, kink[:, 0], centre, scale


def random_curve(width: int, seed: int):
    """Fig. 3's 1-D data set on the plane: t -> A relu(w t + b), a random shallow ReLU net
    R -> R^2 whose kinks -b_i / w_i are N(0, 1) draws, so that they fall where the data t ~
    N(0, 1) lie and the curve bends inside the data; centred and scaled so that the data have
    unit RMS distance to their mean. Returns g on (1, N) arrays."""
    raw, _, centre, scale = _curve_parts(width, seed)
    return lambda t: (raw(t) - centre) / scale


def curve_vertices(width: int, seed: int, t_max: float = 4.0) -> np.ndarray:
    """(m, 2) the curve on [-t_max, t_max] exactly: g is affine between its kinks, so it is the
    polyline through g at the ends and at every kink inside."""
    raw, kink, centre, scale = _curve_parts(width, seed)
    inside = kink[(kink > -t_max) & (kink < t_max)]
    t = np.concatenate([[-t_max], np.sort(inside), [t_max]])
    return ((raw(t[None, :]) - centre) / scale).T


def _cross(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _segments_meet(p, q, r, s) -> np.ndarray:
    """Whether segment p-q meets segment r-s (arrays of segments; touching counts)."""
    d1, d2 = q - p, s - r
    o1, o2 = np.sign(_cross(d1, r - p)), np.sign(_cross(d1, s - p))
    o3, o4 = np.sign(_cross(d2, p - r)), np.sign(_cross(d2, q - r))
    proper = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    # collinear segments meet only where their extents overlap
    collinear = (o1 == 0) & (o2 == 0)
    lo = np.minimum(p, q), np.minimum(r, s)
    hi = np.maximum(p, q), np.maximum(r, s)
    overlap = np.all((lo[0] <= hi[1]) & (lo[1] <= hi[0]), axis=-1)
    return np.where(collinear, overlap, proper)


def polyline_shape(vertices: np.ndarray) -> dict:
    """A polyline's shape: whether it is injective (no segment of zero length, no two segments
    meeting other than consecutive ones at their shared vertex, no reversal), its total
    turning and its sharpest kink (degrees)."""
    d = np.diff(vertices, axis=0)
    cross, dot = _cross(d[:-1], d[1:]), np.sum(d[:-1] * d[1:], axis=1)
    turns = np.degrees(np.arctan2(np.abs(cross), dot))
    i, j = np.triu_indices(len(d), k=2)
    meet = _segments_meet(vertices[i], vertices[i + 1], vertices[j], vertices[j + 1])
    reversal = (cross == 0) & (dot < 0)
    degenerate = np.any(np.all(d == 0, axis=1))
    return {
        "injective": not (degenerate or meet.any() or reversal.any()),
        "turning_deg": float(turns.sum()),
        "max_kink_deg": float(turns.max(initial=0.0)),
    }


def screen_curves(width: int, first: int, n: int, t_max: float = 4.0, tries: int = 100):
    """The curves from seed `first` on, screened by Section 5's premise that g is injective:
    one row per seed looked at (its shape, whether admitted) until n are admitted."""
    rows = []
    for seed in range(first, first + tries):
        shape = polyline_shape(curve_vertices(width, seed, t_max))
        rows.append({"curve": seed, **shape, "admitted": shape["injective"]})
        if sum(r["admitted"] for r in rows) == n:
            return rows
    raise ValueError(f"fewer than {n} of curves {first}-{first + tries - 1} are injective")


def curve_points(width: int, n: int, seed: int, split: str = "train") -> np.ndarray:
    """(n, 2) points g(t), t ~ N(0, 1): the curve's data set."""
    g = random_curve(width, seed)
    t = rng_for("jacot2023", "curve_points", seed, split, n).normal(size=(1, n))
    return g(t).T


def curve_polyline(width: int, seed: int, t_max: float = 4.0, n: int = 4001) -> np.ndarray:
    """(n, 2) dense samples of the curve for t in [-t_max, t_max]: the 'data' that outputs are
    measured against (N(0, 1) puts all but 6e-5 of its mass inside +-4)."""
    g = random_curve(width, seed)
    return g(np.linspace(-t_max, t_max, n)[None, :]).T
