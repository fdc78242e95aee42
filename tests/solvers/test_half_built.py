"""A native object whose construction did not complete refuses every call (issue 42,
item 4): made with `__new__` alone, or after an `__init__` that raised, each kernel
entry raises RuntimeError instead of answering for an empty formula or board.

The calls are the ones the Python faces make on a complete object (recorded by a spy
around it, so every entry and its real arguments are covered), replayed on a half-built
one."""

from __future__ import annotations

import numpy as np
import pytest

from encoder.geometry import standard
from solvers.core import Board, Clauses
from solvers.core.extension import load_extension

_core = load_extension("_core")

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
GRID = [0 if c == "." else int(c) for c in EASTER_MONSTER]


class Spy:
    """Records each method call made on the native object it stands for."""

    def __init__(self, native, calls: list):
        self._native, self._calls = native, calls

    def __getattr__(self, name):
        attr = getattr(self._native, name)
        if not callable(attr):
            return attr

        def record(*args, **kwargs):
            self._calls.append((name, args, kwargs))
            return attr(*args, **kwargs)

        return record


def board_calls() -> list:
    board, calls = Board(standard()), []
    board._board = board._native = Spy(board._native, calls)
    rows = np.array([GRID], np.int8)
    board.probe([1], 1, as_array=True)
    board.probe([1], 1)
    board.depths(rows, 2)
    board.propagate_batch(rows)
    return calls


def clauses_calls() -> list:
    clauses, calls = Clauses([[1, 2], [-1, 2], [-2, 3]]), []
    clauses._cnf = clauses._native = Spy(clauses._native, calls)
    clauses.propagate_list = clauses._cnf.propagate_list
    clauses.trace = clauses._cnf.trace
    clauses.probe([1], 1, as_array=True)
    clauses.probe([1], 1)
    clauses.propagate_list([1])
    clauses.trace([1])
    clauses.counters()
    return calls


def half_built(kind: str, failed_init: bool):
    cls = _core.Board if kind == "Board" else _core.Clauses
    obj = cls.__new__(cls)
    if failed_init:
        with pytest.raises((ValueError, TypeError)):
            if kind == "Board":
                obj.__init__(9, np.zeros((27, 9), np.int32) + 99, np.zeros((81, 20), np.int32))
            else:
                obj.__init__(np.array([1, 5], np.int64), np.array([0, 2], np.int64), 2)
    return obj


@pytest.mark.parametrize("failed_init", [False, True])
@pytest.mark.parametrize("kind", ["Board", "Clauses"])
def test_a_half_built_object_refuses_every_entry(kind, failed_init):
    calls = board_calls() if kind == "Board" else clauses_calls()
    assert len({name for name, _, _ in calls}) >= 4  # (every entry the face reaches)
    obj = half_built(kind, failed_init)
    for name, args, kwargs in calls:
        with pytest.raises(RuntimeError, match="not initialised"):
            getattr(obj, name)(*args, **kwargs)
