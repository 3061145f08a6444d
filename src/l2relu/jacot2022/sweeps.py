"""The widths jacot2022's plateau checks sweep (imported at workflow parse time: keep it light)."""


def plateau_widths(setting: str, n: int, classes: int) -> list[int]:
    """Hidden widths of the plateau runs: 1 up to a little past twice the predicted onset
    (N^2/4 for Y = B_N, the number of classes for one-hot Y, 4N for 1-D data)."""
    top = {"bipartite": n**2 // 2 + 2, "onehot": 2 * classes + 2, "oned": 4 * n + 2}[setting]
    return list(range(1, top + 1))
