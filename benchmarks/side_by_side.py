"""The table both batching benchmarks print: one layout trained batched in this process, the
other as one process per network, timed side by side for each sweep value."""

import subprocess
import sys
import time


def compare(label: str, values, batched, one_run_code, sample: int = 1) -> None:
    """For each value: time batched(value), then every script of one_run_code(value) in its
    own Python process (or every `sample`-th one, the time scaled by the share run); print both
    times and their ratio, and the totals."""
    print(f"{label:>6} {'batched s':>10} {'one per process s':>18} {'speed-up':>9}")
    total_b = total_p = 0.0
    for value in values:
        start = time.perf_counter()
        batched(value)
        t_batched = time.perf_counter() - start
        start = time.perf_counter()
        scripts = one_run_code(value)
        for code in scripts[::sample]:
            subprocess.run([sys.executable, "-c", code], check=True)
        t_separate = (time.perf_counter() - start) * len(scripts) / len(scripts[::sample])
        total_b, total_p = total_b + t_batched, total_p + t_separate
        print(f"{value:>6} {t_batched:>10.2f} {t_separate:>18.2f} {t_separate / t_batched:>8.1f}x")
    print(f"{'all':>6} {total_b:>10.2f} {total_p:>18.2f} {total_p / total_b:>8.1f}x")
