"""`benchmarks run` when its results cannot all be kept or a solver breaks: the tables
reach stdout before any file is written, a file that cannot be written is one line and
exit 1 (the other files kept), and a solver that fails on some grids is counted per
solver on stderr and makes the exit status 1 once everything is reported.

The runs are in-process with `--workers 1` (the serial executor), so that PATH and the
folders prepared here are the harness's own.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from benchmarks.__main__ import main as benchmarks_main
from benchmarks.paths import PROJECT

FOUR = PROJECT / "data" / "sets" / "sudoku4_minimal.txt"
ARGS = [str(FOUR), "--limit", "5", "--workers", "1", "--quiet"]


def test_a_plot_on_a_full_disk_loses_no_table(tmp_path, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full (Linux) to stand for a full disk")
    out = tmp_path / "out"
    out.mkdir()
    # A target that is a device is written in place, as a shell redirection would: the
    # plot lands on a disk that is always full.
    (out / "no_search.png").symlink_to("/dev/full")
    code = benchmarks_main(["run", *ARGS, "--solvers", "up,fl", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    assert "| centrale   | fl " in captured.out  # the tables came out first
    assert "### Time per solver" in captured.out
    last = captured.err.strip().splitlines()[-1]
    assert last == f"benchmarks: {out / 'no_search.png'}: cannot write: No space left on device"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["metadata"]["grids_done"] == 5  # written before the plot failed
    assert (out / "results.csv").read_text(encoding="utf-8").count("\n") == 1 + 2 * 5


def test_an_unwritable_folder_is_refused_before_the_run(tmp_path, capsys):
    if os.geteuid() == 0:
        folder = Path("/sys")  # not even root writes there
    else:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    code = benchmarks_main(["run", *ARGS, "--solvers", "up", "--out", str(folder)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""  # refused before any grid was run
    assert captured.err.strip() == (
        f"benchmarks: {folder}: cannot write in this folder: Permission denied"
    )


def test_a_solver_that_fails_is_counted_and_exits_1(tmp_path, capsys, monkeypatch):
    # A `minisat` on PATH that crashes: the registry's binary adapter runs it.
    fake = tmp_path / "bin" / "minisat"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "out"
    code = benchmarks_main(["run", *ARGS, "--solvers", "up,minisat", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    lines = captured.err.strip().splitlines()
    assert lines[-1] == (
        "benchmarks: minisat: the solver failed on 5 of 5 grids "
        "(results.csv gives the reason per grid)"
    )
    table = [line for line in captured.out.splitlines() if line.startswith("| ")]
    header = next(line for line in table if line.startswith("| encoding "))  # the set's
    headers = [cell.strip() for cell in header.split("|")[1:-1]]
    row = next(line for line in table if line.startswith("| centrale   | minisat "))
    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    assert headers[-1] == "failed" and cells[-1] == "5"  # shown because a grid failed
    csv_text = (out / "results.csv").read_text(encoding="utf-8")
    assert csv_text.count(",minisat,UNKNOWN,") == 5
