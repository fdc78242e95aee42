"""Where chunks of grids run: in this process, a pool of local processes, or a Dask cluster.

A command cuts its grids into chunks (`executors.chunking`) and hands an executor a
picklable function and the list of chunk tasks; the executor yields the results as
they finish, in any order (`in_order` puts them back).  That is the whole contract
(`executors.contract`): an executor implements `results` and `stop` and is registered
in `EXECUTORS`.

This package sits below every command that runs chunks and imports nothing of the
project.  The contract is in `executors.contract`.

- `SerialExecutor` (`--workers 1`, `executors.local`): runs the chunks one after the other in this
  process; Ctrl-C interrupts the running chunk.
- `LocalExecutor` (`--workers K`, K > 1, `executors.local`): K worker processes started
  with "spawn" (no fork of a process that holds threads or solver state), each fed one
  task at a time through its own pipe.  Workers ignore SIGINT from their first
  instruction, so Ctrl-C reaches only the command, which calls `stop` (SIGTERM, then
  SIGKILL after a few seconds: never an unbounded wait); a worker that dies is reported
  as an ExecutorError; no worker outlives the command.
- `DaskExecutor` (`--executor dask [--scheduler ADDRESS]`, `executors.dask_cluster`):
  the tasks run on a `dask.distributed` cluster, a `LocalCluster` of K processes when
  no scheduler address is given.  Dask is imported only when this executor is chosen.

The command-line flags that choose an executor (`--executor`, `--scheduler`) are
declared by the front ends (`cli.flags.add_executor_flags`): this package
takes a name, a number of workers and an address.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from executors.chunking import completed, cut, in_order
from executors.contract import Executor, ExecutorError

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorError",
    "LocalExecutor",
    "SerialExecutor",
    "available_cores",
    "completed",
    "cut",
    "in_order",
    "make_executor",
]


def __getattr__(name: str):
    # The local pool (multiprocessing, sockets) is imported when first asked for: a
    # command that rates in its own process never loads it.
    if name in ("LocalExecutor", "SerialExecutor"):
        from executors import local

        return getattr(local, name)
    raise AttributeError(f"module 'executors' has no attribute {name!r}")


def _local(workers: int, scheduler: str | None = None) -> Executor:
    from executors.local import LocalExecutor, SerialExecutor

    return SerialExecutor() if workers <= 1 else LocalExecutor(workers)


def _dask(workers: int, scheduler: str | None = None) -> Executor:
    from executors.dask_cluster import DaskExecutor  # dask only when asked for

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
