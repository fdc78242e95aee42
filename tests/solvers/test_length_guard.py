"""The length kernels' one-kernel-at-a-time guard, and a kernel stopped midway.

A long length kernel runs without the GIL, so a second thread may call another kernel
on the same State, Scratch or Alternatives meanwhile: every entry (each kernel, and the
records' reads and copies) is refused while a kernel holds the record, the refusal
leaves the record held, and the first kernel's answer is the one it gives alone.  A
kernel that a signal stops in the middle of a hypothesis leaves its work arrays half
written: the next call resets them, and answers as with fresh ones."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from encoder.puzzle_files import read_puzzles
from solvers.core import length as K
from solvers.ratings.length import RefutationRater

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sixteen():
    """A 16x16 grid's rater and state: one simplest_first call on it lasts seconds."""
    puzzle = next(read_puzzles(str(PROJECT / "data" / "sets" / "sudoku16_minimal.txt")))
    rater = RefutationRater(puzzle.geometry)
    return rater, rater.start(puzzle.grid)


def resolution(r: RefutationRater, S):
    lengths, steps = np.zeros(r.num_candidates, np.int64), np.zeros(0, np.int64)
    answer = K.simplest_first(r.formula, S, r.X, r.A, r.num_candidates, 10**6, lengths, steps,
                              10**6)  # fmt: skip
    return answer, S.value


def entries(r: RefutationRater, S) -> dict:
    """Every entry that takes S, r.X or r.A, each a call on small arguments."""
    f, X, A, n = r.formula, r.X, r.A, r.num_candidates
    lengths, steps = np.zeros(n, np.int64), np.zeros(4, np.int64)
    work = np.zeros(K.NUM_COUNTERS, np.int64)
    work[K.BUDGET] = 10
    memo = (np.zeros((0, 2 * f.num_vars), np.int8), np.zeros(0, np.int64), np.zeros(0, bool))
    U = K.State(f)
    codes, grid = np.zeros(0, np.int32), np.zeros((1, r.geometry.size**2), np.int8)
    out = np.zeros((1, 5), np.int64)
    return {
        "restart": lambda: K.restart(f, S, codes, codes),
        "assert_facts": lambda: K.assert_facts(f, S, codes, codes, K.REASON_PROBE),
        "eliminate": lambda: K.eliminate(f, S, 1),
        "solved": lambda: K.solved(f, S, n),
        "model_mask": lambda: K.model_mask(f, S, codes, np.zeros(f.num_vars, bool)),
        "shortest_refutation": lambda: K.shortest_refutation(f, S, X, 0, 3),
        "conflict_round": lambda: K.conflict_round(f, S, X, 0, 3),
        "may_refute_within_two": lambda: K.may_refute_within_two(f, S, X, 0),
        "refutation_with_alternatives": lambda: K.refutation_with_alternatives(f, S, X, A, 0, 3),
        "candidate_lengths": lambda: K.candidate_lengths(f, S, X, n, 3, lengths),
        "shorter_lengths": lambda: K.shorter_lengths(f, S, X, A, n, 3, lengths),
        "simplest_first": lambda: K.simplest_first(f, S, X, A, n, 3, lengths, steps, 1),
        "rate_many": lambda: K.rate_many(
            f, S, X, A, n, 3, lengths, steps, r._units, grid, None, r.geometry.size, 10, out
        ),
        "failed_closure": lambda: K.failed_closure(f, S, X, n),
        "refutation_chain": lambda: K.refutation_chain(
            f, S, np.zeros(f.num_words, np.uint64), 0, lengths, lengths
        ),
        "braid_closure": lambda: K.braid_closure(f, S, X, n, 1, np.inf, work),
        "try_hypothesis": lambda: K.try_hypothesis(f, S, U, X, n, 0, 1, np.inf, memo, work),
        "trial_and_error": lambda: K.trial_and_error(
            f, S, U, X, n, 1, np.inf, np.zeros(n, bool), memo, work
        ),
        "State.value": lambda: S.value,
        "State.copy": lambda: S.copy(),
        "State.pool_row": lambda: S.pool_row(0),
        "Scratch.best_cone": lambda: X.best_cone,
    }


def entry_names() -> list[str]:
    return [
        "restart", "assert_facts", "eliminate", "solved", "model_mask", "shortest_refutation",
        "conflict_round", "may_refute_within_two", "refutation_with_alternatives",
        "candidate_lengths", "shorter_lengths", "simplest_first", "rate_many",
        "failed_closure", "refutation_chain", "braid_closure", "try_hypothesis",
        "trial_and_error", "State.value", "State.copy", "State.pool_row", "Scratch.best_cone",
    ]  # fmt: skip


def test_every_entry_is_listed(sixteen):
    r, S0 = sixteen
    assert sorted(entries(r, S0.copy())) == sorted(entry_names())


@pytest.mark.slow
def test_a_refused_call_leaves_the_records_held(sixteen):
    # One long kernel in a worker thread; meanwhile every entry in turn, each refused
    # at least three times (a refusal that let go of the records would let the next
    # call in: it would run, and the kernel's answer could change).
    r, S0 = sixteen
    alone = resolution(r, S0.copy())
    S = S0.copy()
    answers: list = []
    worker = threading.Thread(target=lambda: answers.append(resolution(r, S)))
    calls = entries(r, S)
    refused = dict.fromkeys(calls, 0)
    worker.start()
    time.sleep(0.2)
    for _ in range(10**4):  # bounded: the kernel ends within seconds
        if not worker.is_alive() or min(refused.values()) >= 3:
            break
        for name, call in calls.items():
            try:
                call()
            except RuntimeError as error:
                assert "another thread" in str(error), name
                refused[name] += 1
            else:
                assert not worker.is_alive(), f"{name} ran beside the kernel"
    worker.join()
    assert min(refused.values()) >= 3, f"the kernel ended first: {refused}"
    [(answer, value)] = answers
    assert answer == alone[0] and np.array_equal(value, alone[1])


class Stop(Exception):
    pass


@pytest.mark.slow
def test_a_kernel_stopped_midway_leaves_its_work_arrays_fresh(sixteen):
    r, S0 = sixteen
    alone = resolution(r, S0.copy())

    def stop(signum, frame):
        raise Stop

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)  # (the resolution lasts seconds)
        with pytest.raises(Stop):
            resolution(r, S0.copy())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    answer, value = resolution(r, S0.copy())  # r.X and r.A as the stopped kernel left them
    assert answer == alone[0] and np.array_equal(value, alone[1])
    assert not r.X.arrays()["value"].any()
