"""Ctrl-C and a time limit reach compiled code by one path, at any moment, through the
core's signal poll.  Each command is interrupted at many moments; every run must end
cleanly (exit 130 for Ctrl-C, the steps so far and one line for the time limit), never
with a traceback or a signal death.  Wide margins: CI is a loaded 2-core machine."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from benchmarks.paths import PROJECT

DEPTH_2 = PROJECT / "data" / "sets" / "sudoku9_jigsaw_depth2.txt"
EMPTY_36 = ",".join(["0"] * 36 * 36)


@pytest.mark.slow
@pytest.mark.parametrize("timeout", [[], ["--timeout", "100"]], ids=["budget", "timeout"])
def test_ctrl_c_inside_bxb_at_many_moments(timeout):
    """One worker rates depth-2 grids: most of the time is BxB, a kernel that runs a
    whole grid in one call and reads the clock between refutations."""
    for delay in (1.0, 1.7, 2.4, 3.1, 3.8):
        argv = [sys.executable, "-m", "solvers", "rate", str(DEPTH_2), "--quiet", *timeout]
        process = subprocess.Popen(argv, cwd=PROJECT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)  # fmt: skip
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = process.communicate(timeout=120)
        assert process.returncode == 130, (delay, err)
        assert "Traceback" not in err and err.endswith("solvers: interrupted\n"), (delay, err)
        assert time.monotonic() - sent < 30, delay


@pytest.mark.slow
def test_a_time_limit_inside_the_kernels_at_many_moments():
    """A 36x36 explanation under a time limit: the limit lands in the formula's loading,
    the engine's set-up or the first steps, as the moment falls."""
    for seconds in ("1", "1.5", "2", "2.5", "3", "3.5"):
        argv = [sys.executable, "-m", "solvers", "explain", EMPTY_36, "--size", "36"]
        result = subprocess.run([*argv, "--timeout", seconds], cwd=PROJECT, capture_output=True,
                                text=True, timeout=300, check=False)  # fmt: skip
        assert result.returncode == 0, (seconds, result.returncode, result.stderr)
        assert "Traceback" not in result.stderr
        assert f"time limit of {seconds} s reached" in result.stderr.splitlines()[-1]
