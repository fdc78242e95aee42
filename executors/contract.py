"""The executor contract: map a picklable function over picklable tasks, yield the
results as they finish, stop on demand.  Every executor (`executors.local`,
`executors.dask_cluster`) implements it; the commands see only this."""

from __future__ import annotations

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
