"""Progress on stderr, never on stdout: lines when stderr is not a terminal (one at the
start, one per set done, one at least every TICK seconds of silence), nothing with
--quiet."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks import progress
from benchmarks.paths import PROJECT


def test_a_run_says_where_it_is_on_stderr_and_nothing_on_stdout():
    sets = [
        PROJECT / "data" / "sets" / name for name in ("sudoku4_minimal.txt", "sudoku6_minimal.txt")
    ]
    argv = [sys.executable, "-m", "benchmarks", "run", *map(str, sets), "--solvers", "up,fl"]
    result = subprocess.run(
        argv, cwd=PROJECT, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == "benchmarks: running 200 grid runs of 2 sets"
    done = [line for line in lines if " done; " in line]
    assert sorted(line.split()[1] for line in done) == ["sudoku4_minimal", "sudoku6_minimal"]
    assert "200 of 200 grid runs" in done[-1]
    assert "grid runs" not in result.stdout
    quiet = subprocess.run([*argv, "--quiet"], cwd=PROJECT, capture_output=True, text=True,
                           timeout=300, check=False)  # fmt: skip
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_long_silence_gets_a_line_every_tick(monkeypatch, capsys):
    monkeypatch.setattr(progress, "TICK", 0.3)
    bar = progress.Progress(10, {"a": 10}, quiet=False, prog="benchmarks")
    try:
        time.sleep(2.5)
        bar.add("a", 4)
    finally:
        bar.close()
    err = capsys.readouterr().err.splitlines()
    ticks = [line for line in err if line.startswith("benchmarks: 0 of 10 grid runs done")]
    assert err[0] == "benchmarks: running 10 grid runs of 1 set"
    assert len(ticks) >= 2  # wide margins: a loaded machine may run the ticker late
