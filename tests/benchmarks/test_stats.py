"""The solutions-versus-givens study: samples, summaries, worker independence, CLI output."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.stats import parse_range
from encoder.geometry import standard
from encoder.grids import find_clashes
from puzzles.counting import SolutionCount as Count
from puzzles.fullgrid import GridSampler
from studies.solutions_vs_givens import (
    Point,
    Sample,
    bootstrap_ci,
    crossing,
    run_sample,
    run_study,
    summarize,
    tables,
    thresholds,
)

PROJECT = Path(__file__).resolve().parents[2]


def test_parse_range():
    assert parse_range("20-23") == [20, 21, 22, 23]
    assert parse_range("17-25:4") == [17, 21, 25]
    assert parse_range("30,17-19") == [17, 18, 19, 30]
    for bad in ("x", "25-20", "1-5:0"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_range(bad)


def test_samples_are_reproducible_and_well_formed():
    solver = GridSampler(standard(9))
    for method in ("random", "remove"):
        a = run_sample(solver, method, 30, 0, 1, 50)
        assert run_sample(solver, method, 30, 0, 1, 50) == a
        assert a.givens == 30 and 0 <= a.count.count <= 50
    assert run_sample(solver, "remove", 30, 0, 1, 50).count.count >= 1  # from a full grid


def test_method_one_places_legal_givens():
    from puzzles.generation import random_placement
    from studies.solutions_vs_givens import sample_rng

    geometry = standard(9)
    grid, _ = random_placement(geometry, 35, sample_rng(1, "random", 35, 3))
    assert not find_clashes(grid, geometry)


def test_results_do_not_depend_on_the_number_of_workers():
    geometry = standard(9)
    one = run_study(geometry, [24, 40], samples=4, seed=3, cap=100, workers=1)
    two = run_study(geometry, [24, 40], samples=4, seed=3, cap=100, workers=2)
    assert one == two
    assert len(one) == 2 * 2 * 4


def test_summary_figures():
    samples = [Sample("remove", 30, i, Count(n, n != 9), 0) for i, n in enumerate([1, 1, 3, 9])]
    samples += [
        Sample("random", 30, i, Count(n, True), d) for i, (n, d) in enumerate([(0, 1), (1, 0)])
    ]
    points = {p.method: p for p in summarize(samples, seed=1)}
    remove, random_ = points["remove"], points["random"]
    assert remove.mean == 3.5 and remove.median == 2 and remove.capped == 1
    assert remove.unique_share == 0.5 and remove.none_share == 0
    assert remove.ci_low <= remove.mean <= remove.ci_high
    assert random_.none_share == 0.5 and random_.dead_end_share == pytest.approx(1 / 3)
    text = tables(list(points.values()), cap=9)
    assert "method (1) random placement" in text and "dead ends" in text
    cells = [[c.strip() for c in ln.split("|")[1:-1]] for ln in text.splitlines() if "|" in ln]
    assert cells[-1][:4] == ["30", "4", "1", "3.500"]  # method 2's row: k, n, capped, mean
    assert any("mean ≤ 2 from k=never" in line for line in thresholds(list(points.values())))


def test_crossing_interpolates_in_log_scale():
    def point(k, mean):
        return Point("random", k, 1, 0, mean, mean, mean, mean, 0.0, 0.0, 0.0)

    points = [point(28, 10.0), point(30, 0.1), point(32, 0.0)]
    assert crossing(points, "random") == pytest.approx(29.0)
    assert crossing(points, "random", level=0.05) == 32.0  # falls to 0
    assert crossing(points, "remove") is None


def test_bootstrap_of_a_constant_is_the_constant():
    assert bootstrap_ci([4, 4, 4], np.random.default_rng(0)) == (4.0, 4.0)


def test_cli_prints_a_table_and_draws_a_png(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks", "stats", "--givens", "28-40:12", "--samples", "3",
         "--seed", "2", "--workers", "1", "--cap", "200", "--out", str(tmp_path), "--quiet"],
        capture_output=True, text=True, cwd=PROJECT, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "method (1) random placement" in out and "method (2) removal" in out
    rows = [[c.strip() for c in ln.split("|")[1:-1]] for ln in out.splitlines() if "|" in ln]
    headers = [row for row in rows if row[0] == "k"]
    assert len(headers) == 2 and headers[0][:4] == ["k", "n", "capped (≥200)", "mean"]
    assert "percentile bootstrap" in out
    png = tmp_path / "solutions_vs_givens.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (tmp_path / "solutions_vs_givens.csv").read_text().splitlines()
    assert rows[0].startswith("# command: python -m benchmarks stats --givens 28-40:12")
    assert sum(1 for ln in rows if ln.startswith(("random,", "remove,"))) == 4
