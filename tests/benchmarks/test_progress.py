"""Progress on stderr, never on stdout: lines when stderr is not a terminal (one at the
start, one per set done, one at least every TICK seconds of silence), a bar redrawn by a
timer on a terminal, nothing with --quiet."""

from __future__ import annotations

import fcntl
import io
import itertools
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_redrawn_while_no_grid_finishes(monkeypatch):
    """The bar's clock moves through a long grid: a timer redraws it, with no add()."""
    monkeypatch.setattr(progress, "REDRAW", 0.2)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    bar = progress.Progress(10, {"a": 10}, quiet=False, prog="benchmarks")
    try:
        time.sleep(2.5)
        drawn = terminal.getvalue()
    finally:
        bar.close()
    assert bar.bar is not None
    assert "00:01" in drawn or "00:02" in drawn, drawn  # the elapsed time moved on
    assert drawn.count("\r") >= 3  # wide margins: a loaded machine may wake the timer late


@pytest.mark.slow
def test_on_a_terminal_the_bar_shows_at_once_and_never_freezes():
    """A run under a pseudo-terminal: the bar's first bytes within 5 s of the start (wide
    margin for a loaded machine: 15 s), nothing on it then left silent for 10 s."""
    sets = [PROJECT / "data" / "sets" / "sudoku16_minimal.txt"]
    argv = [
        sys.executable,
        "-m",
        "benchmarks",
        "run",
        *map(str, sets),
        "--solvers",
        "up",
        "--limit",
        "12",
        "--length",
    ]  # fmt: skip (about 20 s, some grids seconds long)
    main, sub = pty.openpty()
    # A terminal of 24 rows and 100 columns (a new pseudo-terminal has none: tqdm would
    # draw bars of width 0)
    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    started = time.monotonic()
    process = subprocess.Popen(argv, cwd=PROJECT, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=sub)  # fmt: skip
    os.close(sub)
    moments = []
    try:
        while time.monotonic() - started < 300:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # the other side closed
                    break
                if not chunk:
                    break
                moments.append(time.monotonic() - started)
            elif process.poll() is not None:
                break
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
    assert process.returncode == 0
    assert moments and moments[0] < 15.0, moments
    gaps = [b - a for a, b in itertools.pairwise(moments)]
    assert max(gaps, default=0.0) < 10.0, gaps
