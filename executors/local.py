"""Executors on this machine: in this process (`--workers 1`), or a pool of local
processes started with "spawn" (no fork of a process that holds threads or solver
state).  Pool workers ignore SIGINT, so Ctrl-C reaches only the command, which calls
`stop`: the pool is terminated at once and the finished chunks are kept."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any


class SerialExecutor:
    """Runs every task in this process, in order."""

    def __init__(self, workers: int = 1):
        self.workers = 1

    def results(self, function: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[Any]:
        for task in tasks:
            yield function(task)

    def stop(self) -> None:
        pass


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalExecutor:
    """A pool of `workers` local processes (spawned), one task at a time each."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = None

    def results(self, function: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[Any]:
        context = multiprocessing.get_context("spawn")
        # `tasks` may be a generator (a command reading its input as it goes): the pool
        # then takes them as workers become free.
        known = len(tasks) if hasattr(tasks, "__len__") else self.workers
        processes = max(1, min(self.workers, known))
        self.pool = context.Pool(processes, initializer=_ignore_sigint)
        try:
            yield from self.pool.imap_unordered(function, tasks, chunksize=1)
        except BaseException:
            self.stop()
            raise
        self.pool.close()
        self.pool.join()
        self.pool = None

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
