"""Compiling kernels never counts against a time limit (issue 23's fresh-venv report:
the first `solvers rate` of Easter Monster ran out of its 10 s while numba compiled)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest
from numba import njit

from solvers import limits

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def test_compilation_is_left_out_of_the_clock():
    limits.watch_compilation()

    @njit  # a kernel of its own, never cached: calling it compiles it
    def total(values):
        s = 0
        for v in values:
            s += v * v
        return s

    before_compile, before_wall, before_clock = (
        limits.compile_seconds(),
        time.monotonic(),
        limits.clock(),
    )
    assert total(np.arange(10)) == 285
    compiled = limits.compile_seconds() - before_compile
    wall = time.monotonic() - before_wall
    counted = limits.clock() - before_clock
    assert compiled > 0
    assert counted == pytest.approx(wall - compiled, abs=1e-3)
    # A second call compiles nothing: the clock runs with the wall again.
    again = limits.compile_seconds()
    total(np.arange(10))
    assert limits.compile_seconds() == again


def test_a_deadline_ignores_the_compilation_inside_it():
    limits.watch_compilation()

    @njit
    def root_sum(values):
        total = 0.0
        for value in values:
            total += np.sqrt(value) * np.cos(value)
        return total

    # An array loop compiles in a few tenths of a second on an idle machine (a bare
    # integer function took only 28 ms there, less than the 0.05 s this test first used).
    deadline = limits.deadline_after(0.02)
    started = time.monotonic()
    root_sum(np.arange(10.0))  # compiling takes far more than 0.02 s ...
    assert time.monotonic() - started > 0.02
    assert limits.clock() < deadline  # ... and none of it counts


@pytest.mark.slow
def test_fresh_cache_rates_easter_monster_within_its_limit(tmp_path):
    """With an empty numba cache (a fresh install), the first rating of Easter Monster
    compiles every kernel, says so once on stderr, and still rates the grid."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "rate", EASTER_MONSTER, "--timeout", "10"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert "time limit" not in done.stderr
    assert done.stderr.count(limits.COMPILE_NOTE) == 1
    fields = done.stdout.strip().splitlines()[-1].split("\t")
    assert fields[2:4] == ["2", "6"], done.stdout  # depth 2; its BxB (issue 25), 6


def test_a_ctrl_c_while_kernels_compile_is_raised_once_they_are_done():
    """A KeyboardInterrupt raised inside llvmlite's ctypes callbacks is lost ("Exception
    ignored"), so the compile watch holds Ctrl-C while the compiler lock is held and
    raises it on release."""
    import signal

    watch = limits._CompileWatch()
    watch.noted = True  # no note on stderr
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        watch.on_start(None)
        signal.raise_signal(signal.SIGINT)  # held: no KeyboardInterrupt here
        with pytest.raises(KeyboardInterrupt):
            watch.on_end(None)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
