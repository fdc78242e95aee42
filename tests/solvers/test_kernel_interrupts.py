"""Ctrl-C and a time limit reach compiled code by one path, at any moment, through the
core's signal poll.  Each command is interrupted at many moments; every run must end
cleanly (exit 130 for Ctrl-C, the steps so far and one line for the time limit), never
with a traceback or a signal death, and Ctrl-C leaves nothing running.  Wide margins: CI
is a loaded 2-core machine."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.paths import PROJECT

DEPTH_2 = PROJECT / "data" / "sets" / "sudoku9_jigsaw_depth2.txt"
EMPTY_36 = ",".join(["0"] * 36 * 36)


def left_running(session: int) -> list[str]:
    """Return the processes still running in a session (its leader's id): what a command
    that ended left behind (in /proc/PID/stat, after the name: the state, Z for ended,
    then the parent, the group and the session)."""
    left = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # a process may end while it is read
            name, _, fields = stat.read_text().rpartition(")")
            state, _, _, its_session = fields.split()[:4]
            if int(its_session) == session and state != "Z":
                left.append(name.partition("(")[2])
    return left


@pytest.mark.slow
@pytest.mark.parametrize(
    "flags",
    [[], ["--timeout", "100"], ["--proof", "PROOF"]],
    ids=["budget", "timeout", "proof"],
)
def test_ctrl_c_inside_bxb_at_many_moments(flags, tmp_path):
    """One worker rates depth-2 grids: most of the time is BxB, a kernel that runs a
    whole grid in one call and reads the clock between refutations.  With --proof FILE,
    each grid's depth rating runs first on the clause engine, which logs its lemmas, and
    its proof is written before the next grid."""
    flags = [str(tmp_path / "rate.drup") if flag == "PROOF" else flag for flag in flags]
    for delay in (1.0, 1.7, 2.4, 3.1, 3.8):
        argv = [sys.executable, "-m", "solvers", "rate", str(DEPTH_2), "--quiet", *flags]
        process = subprocess.Popen(
            argv,
            cwd=PROJECT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own session: what it leaves running is found
            # a suite started in the background (`pytest &`) has SIGINT ignored, and a
            # child inherits that: Ctrl-C needs the default disposition
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = process.communicate(timeout=120)
        assert process.returncode == 130, (delay, err)
        assert "Traceback" not in err and err.endswith("solvers: interrupted\n"), (delay, err)
        assert err.count("\n") == 1 + ("--timeout" in flags), (delay, err)  # and the limit's
        assert time.monotonic() - sent < 30, delay
        assert not left_running(process.pid), (delay, left_running(process.pid))


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
