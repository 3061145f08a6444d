"""benchmarks/bench_flops.py's table, on a tree of made-up benchmark files: a rule's seconds are
its files' sum, its FLOPs its declared jobs' (steps times Job.flops_per_step), and a polishing
rule, whose steps are not declared, shows its seconds alone."""

import sys

import pytest
import yaml
from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))


def _benchmark(path, seconds):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"s\th:m:s\tmax_rss\n{seconds}\t0:00:01\t100.0\n")


def test_rule_table_sums_files_and_counts_declared_flops(tmp_path):
    import bench_flops

    from l2relu.startup.experiments import training_jobs

    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    _benchmark(tmp_path / "logs/benchmarks/train_chen2024_gd/a/one.tsv", 2.5)
    _benchmark(tmp_path / "logs/benchmarks/train_chen2024_gd/b/two.tsv", 1.5)
    _benchmark(tmp_path / "logs/benchmarks/polish_timor2022_deep/x.tsv", 7.0)
    rows = {r["rule"]: r for r in bench_flops.rule_table(tmp_path, config)}
    assert set(rows) == {"train_chen2024_gd", "polish_timor2022_deep"}
    trained = rows["train_chen2024_gd"]
    assert (trained["jobs"], trained["job_s"]) == (2, pytest.approx(4.0))
    jobs = [j for j in training_jobs(config) if j.rule == "train_chen2024_gd"]
    flops = sum(j.flops_per_step() * j.steps for j in jobs)
    assert trained["gflops"] == pytest.approx(flops / 1e9)
    assert trained["achieved"] == pytest.approx(flops / 4.0)
    assert trained["product"] > 0
    assert "gflops" not in rows["polish_timor2022_deep"]
    assert rows["polish_timor2022_deep"]["job_s"] == pytest.approx(7.0)
