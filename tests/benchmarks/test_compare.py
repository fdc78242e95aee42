"""Tests of `python -m benchmarks compare A.json B.json`, through subprocess.

A is written by a real `benchmarks run`; B is A edited the way a later run could differ
(another commit, a changed figure, a solver more, a different data file).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.paths import PROJECT


def benchmarks(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=PROJECT,
        check=False,
    )


@pytest.fixture(scope="module")
def run_a(tmp_path_factory, public) -> Path:
    source = public.set("hardest")
    out = tmp_path_factory.mktemp("a")
    result = benchmarks("run", source, "--solvers", "up,fl,minisat22", "--workers", 1, "--out", out)
    assert result.returncode == 0, result.stderr
    return out / "results.json"


def edited(path: Path, folder: Path, edit) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    target = folder / "b.json"
    target.write_text(json.dumps(document), encoding="utf-8")
    return target


def test_same_file_shows_no_change(run_a):
    result = benchmarks("compare", run_a, run_a)
    assert result.returncode == 0, result.stderr
    assert "same commit, machine, software and options" in result.stdout
    assert "| norvig_hardest | centrale   | fl " in result.stdout
    assert "+0.00" in result.stdout and "1.00" in result.stdout  # no change, time ratio 1


def test_differences_are_shown(run_a, tmp_path):
    def edit(document):
        document["metadata"]["git_commit"] = "0" * 40
        document["metadata"]["packages"]["numpy"] = "0.0.1"
        document["datasets"][0]["sha256"] = "f" * 64
        up = next(s for s in document["summaries"] if s["solver"] == "up")
        up["without_search_pct"] += 10.0
        up["us_median"] *= 2
        extra = copy.deepcopy(up)
        extra["solver"] = "glucose4"
        document["summaries"].append(extra)
        document["depth_profiles"][0]["shares_pct"]["2"] += 5.0

    b = edited(run_a, tmp_path, edit)
    result = benchmarks("compare", run_a, b)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "- git_commit: " in out and "→ " + "0" * 40 in out
    assert "- numpy: " in out and "→ 0.0.1" in out
    assert "WARNING norvig_hardest: the files differ (sha256)" in out
    up_row = next(line for line in out.splitlines() if "| up " in line)
    cells = [cell.strip() for cell in up_row.strip("|").split("|")]
    assert cells[7] == "+10.00"  # % no search: B - A
    assert cells[-1] == "2.00"  # time ratio B/A
    assert "- only in B: norvig_hardest / centrale / glucose4" in out
    assert "### Depth profiles (A → B)" in out and " → " in out.split("Depth profiles")[1]


def test_not_available_figures_stay_na(run_a, tmp_path):
    def edit(document):
        for s in document["summaries"]:
            if s["solver"] == "minisat22":
                s["decisions_mean"] = None

    result = benchmarks("compare", run_a, edited(run_a, tmp_path, edit))
    row = next(line for line in result.stdout.splitlines() if "| minisat22 " in line)
    assert "n/a" in row


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{", ":1: not JSON"),
        ('{"schema": "other"}', "not a results.json"),
        ('{"schema": "sudoku-sat/benchmark-results", "version": 99}', "results version 99"),
        (
            '{"schema": "sudoku-sat/benchmark-results", "version": 1, "summaries": [{}]}',
            "summaries[0] lacks dataset",
        ),
    ],
)
def test_bad_files_are_one_line_errors(run_a, tmp_path, content, expected):
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = benchmarks("compare", run_a, bad)
    assert result.returncode == 1
    assert result.stderr.startswith(f"benchmarks: {bad}")
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file(tmp_path):
    result = benchmarks("compare", tmp_path / "a.json", tmp_path / "b.json")
    assert result.returncode == 1
    assert f"benchmarks: {tmp_path / 'a.json'}: no such file" in result.stderr
