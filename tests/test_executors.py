"""The chunk helpers of `executors`: cutting, completion order, input order, and the
executor stopped whatever way the caller leaves."""

from __future__ import annotations

import pytest

from executors import SerialExecutor, completed, cut, in_order


class Recording(SerialExecutor):
    """A serial executor that finishes chunks in reverse order and counts stops."""

    def __init__(self):
        super().__init__()
        self.stops = 0

    def results(self, function, tasks):
        for task in reversed(tasks):
            yield function(task)

    def stop(self):
        self.stops += 1


def squares(chunk):
    first, items = chunk
    return first, [x * x for x in items]


def test_cut_keeps_positions_and_refuses_empty_chunks():
    assert cut(list(range(7)), 3) == [(0, [0, 1, 2]), (3, [3, 4, 5]), (6, [6])]
    assert cut([], 3) == []
    with pytest.raises(ValueError):
        cut([1], 0)


def test_in_order_puts_chunks_finished_in_any_order_back_in_input_order():
    executor = Recording()
    assert list(in_order(executor, squares, cut(list(range(10)), 3))) == [x * x for x in range(10)]
    assert executor.stops == 0


def test_completed_stops_the_executor_on_an_error_and_when_left_early():
    def boom(task):
        raise RuntimeError(task)

    executor = Recording()
    with pytest.raises(RuntimeError):
        list(completed(executor, boom, [1, 2]))
    assert executor.stops == 1
    results = completed(executor, lambda t: t, [1, 2, 3])
    assert next(results) == 3
    results.close()  # the caller leaves after the first result
    assert executor.stops == 2
