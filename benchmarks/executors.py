"""Where the harness's chunks run: in this process, or in a pool of local processes.

The harness cuts every puzzle set into chunks and hands an executor a picklable
function and the list of chunk tasks; the executor yields the results as they finish
(in any order: the harness merges them by position).  That is the whole contract, so
another executor (a Dask cluster, say: `client.map` + `as_completed`) only has to
implement `results` and `stop` and register itself in `EXECUTORS`.

- `SerialExecutor` (`--workers 1`): runs the chunks one after the other in this
  process; Ctrl-C interrupts the running chunk.
- `LocalExecutor` (`--workers K`, K > 1): a `multiprocessing` pool of K processes
  started with "spawn" (no fork of a process that holds threads or solver state).
  Workers ignore SIGINT, so Ctrl-C reaches only the harness, which calls `stop`: the
  pool is terminated at once and the finished chunks are kept.
- `DaskExecutor` (`--executor dask [--scheduler ADDRESS]`, `benchmarks.dask_executor`):
  the tasks run on a `dask.distributed` cluster, a `LocalCluster` of K processes when
  no scheduler address is given.  Dask is imported only when this executor is chosen.

`add_executor_flags` declares `--executor` and `--scheduler` for every command that
runs chunks (`benchmarks run`, `benchmarks stats`, `solvers rate`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol


class ExecutorError(Exception):
    """An executor that cannot run: dask missing, a scheduler out of reach, a chunk that
    keeps killing its workers.  Front ends print the message and exit with status 1."""


class Executor(Protocol):
    """Maps a picklable function over picklable tasks."""

    workers: int

    def results(self, function: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[Any]:
        """Yield function(task) for every task, in completion order."""
        ...

    def stop(self) -> None:
        """Abandon the tasks still running or waiting (after Ctrl-C or an error)."""
        ...


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
        processes = max(1, min(self.workers, len(tasks)))
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


def _local(workers: int, scheduler: str | None = None) -> Executor:
    return SerialExecutor() if workers <= 1 else LocalExecutor(workers)


def _dask(workers: int, scheduler: str | None = None) -> Executor:
    from benchmarks.dask_executor import DaskExecutor  # dask only when asked for

    return DaskExecutor(workers, scheduler)


# name -> factory(workers, scheduler address or None)
EXECUTORS: dict[str, Callable[..., Executor]] = {"local": _local, "dask": _dask}


def make_executor(name: str, workers: int, scheduler: str | None = None) -> Executor:
    """Return the executor registered under `name` for `workers` workers (`scheduler`:
    the address of a running Dask scheduler, for `dask` only)."""
    if name not in EXECUTORS:
        raise KeyError(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}")
    if scheduler and name != "dask":
        raise ExecutorError(f"--scheduler needs --executor dask, not {name!r}")
    return EXECUTORS[name](workers, scheduler)


def available_cores() -> int:
    """Return the cores this process may run on (its CPU affinity where known)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def settle_executor_flags(
    parser: argparse.ArgumentParser, args: argparse.Namespace, local_workers: int = 1
) -> None:
    """Check --scheduler against --executor (a usage error) and fill in --workers when
    it was not given: all cores for a Dask LocalCluster, `local_workers` otherwise."""
    if args.scheduler and args.executor != "dask":
        parser.error("--scheduler needs --executor dask")
    if args.workers is None:
        args.workers = available_cores() if args.executor == "dask" else local_workers


def add_executor_flags(group: argparse._ActionsContainer) -> None:
    """Declare --executor and --scheduler (see the module docstring)."""
    group.add_argument(
        "--executor",
        choices=list(EXECUTORS),
        default="local",
        help="where chunks run: local processes (--workers) or a Dask cluster (default local)",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--executor dask: address of a running Dask scheduler (tcp://HOST:8786); "
        "default: a LocalCluster of --workers processes on this machine",
    )
