"""Cutting work into chunks and running them on an executor: the one helper behind
`benchmarks run`, `benchmarks stats` and `solvers rate`.

A chunk is a few hundred grids (or samples) at a fixed position, so results do not
depend on how many workers run them: `cut` makes the chunks, `completed` yields results
as chunks finish (and stops the executor on any error or interrupt, so no worker is
left running), and `in_order` puts the results of chunks back in input order, each as
soon as every earlier chunk is done (what a command that prints as it goes needs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from executors.contract import Executor

T = TypeVar("T")


def cut(items: Sequence[T], size: int) -> list[tuple[int, Sequence[T]]]:
    """Return (position of the first item, the items) for consecutive chunks of `size`."""
    if size < 1:
        raise ValueError(f"chunk size must be >= 1, not {size}")
    return [(first, items[first : first + size]) for first in range(0, len(items), size)]


def completed(
    executor: Executor, function: Callable[[Any], Any], tasks: Sequence[Any]
) -> Iterator[Any]:
    """Yield function(task) for every task as it finishes; on an exception, Ctrl-C or
    the caller leaving early, stop the executor before passing it on."""
    try:
        yield from executor.results(function, tasks)
    except BaseException:
        executor.stop()
        raise


def in_order(
    executor: Executor,
    function: Callable[[Any], tuple[int, Iterable[Any]]],
    tasks: Sequence[Any],
) -> Iterator[Any]:
    """Yield, one by one and in input order, the items of chunks whose results are
    `(position of the chunk's first item, one result per item of the chunk)`."""
    done: dict[int, list[Any]] = {}  # first position -> items, finished but not yielded
    following = 0  # position of the next item to yield
    for first, items in completed(executor, function, tasks):
        done[first] = list(items)
        while following in done:
            ready = done.pop(following)
            yield from ready
            following += len(ready)
