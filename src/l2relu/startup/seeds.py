"""Seeds and lambdas as the paths name them and the jobs receive them: the rules and the
experiments' declarations read both from here."""


def fmt_lam(lam) -> str:
    """lambda as it appears in paths: 0.001, 1e-05, 0."""
    return f"{lam:g}"


def seed_range(first: int, n: int) -> str:
    return f"{first}-{first + n - 1}"


def seed_list(first: int, n: int) -> list[int]:
    """The n seeds from `first` on, which seed_range(first, n) names in a path."""
    return list(range(first, first + n))


def seeds_from(config: dict, first: int) -> list[int]:
    """The seeds of an experiment whose first seed is `first`: config `seeds` of them, over
    which every empirical claim is measured."""
    return seed_list(first, config["seeds"])


def restart_sets(config: dict, first: int, restarts: int) -> list[str]:
    """The config `seeds` claims' seeds of an experiment whose seed is a set of `restarts`
    initializations, as the seed ranges that name them in paths: first-..., next-..., ..."""
    return [
        seed_range(s, restarts) for s in range(first, first + config["seeds"] * restarts, restarts)
    ]


def first_restarts(seed_sets: list[str]) -> list[int]:
    """Each seed set's first restart (what a seed's PlateauConfig takes)."""
    return [int(s.split("-")[0]) for s in seed_sets]
