"""`python -m benchmarks` commands whose reader leaves early (`... | head -1`): no
traceback, exit 0, and the files `--out` asked for are written all the same; `stats`
writes files only when asked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
SETS = PROJECT / "data" / "sets"


def first_line_then_close(argv: list[str], cwd: Path = PROJECT) -> tuple[int, str, str]:
    """Run `python -m benchmarks ARGV`, read one line of stdout and close the pipe, as
    `head -1` does; return (exit status, that line, stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    line = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    return process.wait(timeout=300), line, stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["run", str(SETS / "sudoku4_minimal.txt"), "--solvers", "up,fl", "--quiet"],
        ["unique", str(SETS / "sudoku4_minimal.txt")],
        ["stats", "--givens", "4-6", "--samples", "3", "--size", "4", "--quiet"],
    ],
    ids=["run", "unique", "stats"],
)
def test_a_reader_that_leaves_early_is_no_error(argv, tmp_path):
    code, line, stderr = first_line_then_close(argv, cwd=tmp_path)
    assert line
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert code == 0, stderr


def test_run_writes_its_files_before_the_tables(tmp_path):
    argv = ["run", str(SETS / "sudoku4_minimal.txt"), "--solvers", "up", "--quiet"]
    code, _, stderr = first_line_then_close([*argv, "--out", str(tmp_path / "out")])
    assert code == 0, stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["metadata"]["grids_done"] == 100
    assert (tmp_path / "out" / "results.csv").exists()


def test_stats_writes_files_only_with_out(tmp_path):
    argv = ["stats", "--givens", "4-5", "--samples", "3", "--size", "4", "--quiet"]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []
    assert "no --out DIR" in done.stdout
    code, _, stderr = first_line_then_close([*argv, "--out", str(tmp_path / "study")])
    assert code == 0, stderr
    assert sorted(p.name for p in (tmp_path / "study").iterdir()) == [
        "solutions_vs_givens.csv",
        "solutions_vs_givens.png",
    ]
