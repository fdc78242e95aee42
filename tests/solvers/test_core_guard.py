"""The core's one-kernel-at-a-time guard.

A kernel runs without the GIL, so a second thread may call the same object meanwhile:
the call is refused, and the refusal must leave the busy flag as it found it (it once
cleared it, and the next call ran beside the first: a wrong answer or SIGSEGV)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from encoder.geometry import standard
from solvers.core import Board

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
GRID = [0 if c == "." else int(c) for c in EASTER_MONSTER]


def _entries(board: Board) -> dict:
    """Every kernel entry of the Board, each a call on small arguments."""
    rows = np.array([GRID], np.int8)
    return {
        "probe": lambda: board.probe([1], 1, as_array=True),
        "probe_list": lambda: board.probe([1], 1),
        "depths": lambda: board.depths(rows, 2),
        "batch": lambda: board.propagate_batch(rows),
    }


@pytest.mark.parametrize("entry", ["probe", "probe_list", "depths", "batch"])
def test_a_refused_call_leaves_the_guard_up(entry):
    board = Board(standard())
    many = np.array([GRID] * 4000, np.int8)  # about a second of depth-2 loop
    alone = Board(standard()).depths(many[:50], 2)
    answers, refused, ran = [], [], []

    def first():  # until it gets in: the main thread's call may hold the Board first
        for _ in range(10**6):
            try:
                answers.append(board.depths(many, 2))
                return
            except RuntimeError:
                continue

    worker = threading.Thread(target=first)
    worker.start()
    time.sleep(0.2)
    call = _entries(board)[entry]
    for _ in range(10**5):  # bounded: the first kernel ends within seconds
        if not worker.is_alive() or len(refused) >= 20:
            break
        try:
            call()
            ran.append(1)
        except RuntimeError as error:
            assert "another thread" in str(error)
            refused.append(1)
    worker.join()
    assert refused, f"the first kernel ended before a second call was tried ({len(ran)} ran)"
    [out] = answers
    assert (out.status[:50] == alone.status).all() and (out.depth[:50] == alone.depth).all()
    assert (out.status == alone.status[0]).all() and (out.work == out.work[0]).all()
