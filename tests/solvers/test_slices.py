"""The engine's slices: a query paused and resumed at every possible point gives the same
answer and the same counters as one uninterrupted call; a query stopped by Ctrl-C or by
its deadline leaves the engine ready for the next one.  The same for the ladder that
rates many grids in one call (`Engine.ladder`), whose time limit is per grid.

`next_slice` is patched so that the kernels pause at every place they may (each
hypothesis of a closure, each node of a search): the hardest test of resumption.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys

import numpy as np
import pytest

from solvers.engine import Engine
from solvers.limits import TimeLimitReached
from solvers.probe import LADDER_SAT, LADDER_TIMEOUT

# Grids of different depths (0, 1, 2) from the exam's and Norvig's examples.
GRIDS = [
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
]


def _sliced_engine(clauses, num_vars):
    engine = Engine(clauses, num_vars)
    engine.slice_size = 1
    return engine


def _queries(engine: Engine, assumptions):
    """Every resumable query of the engine, with the counters each one cost."""
    answers = []
    for depth in (1, 2):
        for polarity in ("both", "positive"):
            before = engine.accum_stats()
            answers.append(engine.probe(assumptions, depth=depth, polarity=polarity))
            answers.append((before, engine.accum_stats()))
    for probe_depth in (0, 1):
        answers.append(engine.solve(assumptions, probe_depth=probe_depth))
    answers.append(engine.solve(assumptions, budget=3))
    answers.append(engine.count(limit=3, assumptions=assumptions))
    answers.append(list(engine.enumerate(assumptions, limit=3)))
    return answers


@pytest.mark.parametrize("line", GRIDS)
def test_pausing_at_every_point_changes_nothing_on_sudoku(
    line, sudoku_formula, givens, pause_everywhere
):
    assumptions = givens(line)
    whole = _queries(Engine(sudoku_formula.clauses, sudoku_formula.num_vars), assumptions)
    assert not pause_everywhere  # the default slice is never used up by these queries
    sliced = _queries(_sliced_engine(sudoku_formula.clauses, sudoku_formula.num_vars), assumptions)
    assert pause_everywhere  # ... and here the kernels did pause
    assert sliced == whole


def test_pausing_at_every_point_changes_nothing_on_random_formulas(random_cnf, pause_everywhere):
    rng = random.Random(13)
    for _ in range(40):
        num_vars = rng.randint(5, 30)
        clauses = random_cnf(rng, num_vars, rng.randint(num_vars, 5 * num_vars))
        assumptions = [rng.choice((-1, 1)) * rng.randint(1, num_vars)]
        whole = _queries(Engine(clauses, num_vars), assumptions)
        sliced = _queries(_sliced_engine(clauses, num_vars), assumptions)
        assert sliced == whole
        deep = _sliced_engine(clauses, num_vars)
        assert deep.probe(depth=3) == Engine(clauses, num_vars).probe(depth=3)


@pytest.mark.parametrize("stop_after", [1, 5, 40])
def test_an_interrupted_query_leaves_the_engine_ready(
    stop_after, sudoku_formula, givens, interrupt_at, slice_hook
):
    """Ctrl-C arrives between two slices (simulated: the slice sizing raises it).  The
    search runs in the native core, which is never sliced: a real Ctrl-C reaches it
    through the core's signal poll (tests/solvers/test_core_search.py)."""
    engine = _sliced_engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    expected = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    assumptions = givens(GRIDS[2])
    # Answers, not counters: any earlier query reorders watches, which may change how
    # many literals propagate before a conflict is seen.
    for query in (lambda e: e.probe(assumptions, depth=2),):
        interrupt_at(stop_after)
        with pytest.raises(KeyboardInterrupt):
            query(engine)
        assert engine.fixed() == expected.fixed()  # back at level 0
        slice_hook(lambda size, elapsed, smallest=1: 1)
        assert query(engine) == query(expected)


def test_a_deadline_stops_a_long_query_and_the_engine_goes_on(sudoku_formula):
    engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    engine.slice_size = 1_000
    # The empty grid: a depth-3 closure runs for many seconds.
    with engine.limited(0.05), pytest.raises(TimeLimitReached, match=r"time limit of 0\.05 s"):
        engine.probe([], depth=3)
    assert engine.deadline is None
    fresh = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    ok, literals = engine.probe([], depth=1)
    assert (ok, literals) == fresh.probe([], depth=1)
    assert engine.solve(probe_depth=1).model == fresh.solve(probe_depth=1).model


def test_time_limit_counts_for_every_query_of_a_block(sudoku_formula):
    engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    engine.slice_size = 1_000
    with engine.limited(0.0):
        assert engine.propagate([1])[0]  # propagation is bounded by the formula: no limit
        with pytest.raises(TimeLimitReached):
            engine.count(limit=10**9)
        with pytest.raises(TimeLimitReached):
            engine.solve(probe_depth=2)


def _ladder_answers(engine: Engine, lines, max_depth, polarity="both", time_limit=None):
    grids = np.array([[0 if ch == "." else int(ch) for ch in line] for line in lines])
    out = engine.ladder(grids, 9, max_depth, polarity, time_limit)
    return out.status.tolist(), out.depth.tolist(), out.solutions.tolist()


@pytest.mark.parametrize("polarity", ["both", "positive"])
def test_pausing_a_ladder_at_every_point_changes_nothing(
    sudoku_formula, polarity, pause_everywhere
):
    whole_engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    whole_engine.slice_size = 1 << 60  # one slice: no pause
    whole = _ladder_answers(whole_engine, GRIDS, 2, polarity)
    assert not pause_everywhere
    sliced_engine = _sliced_engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    sliced = _ladder_answers(sliced_engine, GRIDS, 2, polarity)
    assert pause_everywhere
    assert sliced == whole
    assert whole[0] == [LADDER_SAT] * 3 and whole[1] == [0, 1, 2]
    assert sliced_engine.fixed() == []  # back at level 0


def test_a_ladder_interrupted_by_ctrl_c_leaves_the_engine_ready(
    sudoku_formula, interrupt_at, slice_hook
):
    engine = _sliced_engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    interrupt_at(7)
    with pytest.raises(KeyboardInterrupt):
        _ladder_answers(engine, GRIDS, 2)
    assert engine.fixed() == []
    fresh = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    slice_hook(lambda size, elapsed, smallest=1: 1)
    assert _ladder_answers(engine, GRIDS, 2) == _ladder_answers(fresh, GRIDS, 2)


def test_a_ladder_time_limit_stops_one_grid_and_rates_the_next(sudoku_formula):
    engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    engine.slice_size = 1_000
    empty = "." * 81  # its depth-3 closure runs for many seconds
    status, depth, _ = _ladder_answers(engine, [empty, GRIDS[2]], 3, time_limit=0.05)
    assert status == [LADDER_TIMEOUT, LADDER_SAT]
    assert depth[0] >= 1 and depth[1] == 2


CTRL_C_IN_BUILD = """
import os, signal, sys, threading
import numpy as np
from solvers.propagate import build
rng = np.random.default_rng(1)
num_vars, clauses = 200_000, 800_000
flat = rng.integers(1, num_vars + 1, 3 * clauses) * rng.choice([-1, 1], 3 * clauses)
offsets = np.arange(0, 3 * clauses + 1, 3, dtype=np.int64)
build(flat[:30], offsets[:11], num_vars, False)  # compiled or loaded first
threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    for _ in range(100):  # a few milliseconds of Python between calls of 50 ms or more
        build(flat, offsets, num_vars, False)
except KeyboardInterrupt:
    sys.exit(130)
sys.exit(3)
"""


def test_a_ctrl_c_during_a_kernel_that_returns_a_record_is_a_keyboard_interrupt():
    """A Ctrl-C landing while `build` runs (it returns a Formula, which numba boxes by
    calling Python code) ends in KeyboardInterrupt.  Called without the Ctrl-C held
    (`propagate._build`), the same script died of a segmentation fault every time
    (numba calls the namedtuple class its failed unpickling left NULL): the crash
    `benchmarks run --workers 1` showed in 4 Ctrl-Cs of 364."""
    child = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_BUILD],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.returncode == 130, child.stderr[-2000:]
