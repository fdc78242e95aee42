"""Executors on this machine: in this process (`--workers 1`), or K worker processes
started with "spawn" (no fork of a process that holds threads or solver state).

`LocalExecutor` runs its own small pool instead of `multiprocessing.Pool`, because a
Pool cannot be stopped safely: a worker killed while it holds the pool's task-queue
lock makes `Pool.terminate` wait for that lock forever (the hang of issue 24: a Ctrl-C
landing while a worker was still starting killed it, and the command never ended).
Here each worker has a pipe of its own and takes one task at a time, so:

- Ctrl-C reaches only the command.  A worker starts with SIGINT ignored
  (`sigint_blocked`), so even a Ctrl-C landing during its start-up cannot kill it:
  the command alone decides, and calls `stop`.
- A dead worker is noticed: the parent waits on every worker's pipe and process
  sentinel at once, and a worker that ends without answering raises ExecutorError
  naming its exit code or signal and the task it was running.
- `stop` is bounded: SIGTERM, at most `STOP_GRACE` seconds, then SIGKILL.
- No worker outlives the command: a worker dies with its parent (Linux's parent-death
  signal, and a thread watching the parent's sentinel elsewhere), and a worker waiting
  for a task sees its pipe closed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from executors.contract import ExecutorError

STOP_GRACE = 3.0  # seconds a worker has to end after SIGTERM before SIGKILL
PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)


class SerialExecutor:
    """Runs every task in this process, in order; Ctrl-C interrupts the running task."""

    def __init__(self, workers: int = 1):
        self.workers = 1

    def results(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        for task in tasks:
            yield function(task)

    def stop(self) -> None:
        pass


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Start processes inside this block ignoring SIGINT from their first instruction,
    and keep for this process a Ctrl-C arriving meanwhile (delivered on leaving).

    An ignored signal stays ignored across `exec`, and Python does not install its own
    SIGINT handler in a process started that way, so a Ctrl-C landing while a worker
    is still importing cannot kill it.  SIGINT is blocked in this thread first: a
    blocked signal is kept pending even while ignored, and reaches this process's own
    handler once both are restored.  The multiprocessing resource tracker is started
    before, since starting it unblocks SIGINT (and the pending Ctrl-C would be lost)."""
    with contextlib.suppress(Exception):
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = None
    if threading.current_thread() is threading.main_thread():
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C arriving inside the block and raise it as KeyboardInterrupt on
    leaving: for a start-up that must not be cut in half (a cluster whose handle would
    be lost, and its processes with it).  Main thread only; elsewhere it holds nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: received.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt


def exit_with_parent() -> None:
    """Make this process end when the process that started it ends (a worker must never
    outlive its command): Linux's parent-death signal, which works even while compiled
    code holds the interpreter, and a daemon thread waiting on the parent's sentinel
    (other systems; and a parent that died before this call)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)  # the command is gone: nobody will read this worker's results

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _worker(connection: Connection) -> None:
    """A worker process's loop: receive (function, task), send ("ok", result) or
    ("error", exception); end at None or when the parent has gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # already ignored since `sigint_blocked`
    exit_with_parent()
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return  # the parent closed the pipe or died
        if message is None:
            return
        function, task = message
        try:
            reply = ("ok", function(task))
        except Exception as error:  # the parent re-raises it
            reply = ("error", error)
        try:
            connection.send(reply)
        except (OSError, ValueError):
            return
        except Exception:  # an exception or result that cannot be pickled
            text = "".join(traceback.format_exception(reply[1])) if reply[0] == "error" else ""
            connection.send(("error", RuntimeError(f"unpicklable reply from a worker\n{text}")))


def _ended(process) -> str:
    """Say how a worker process ended: its exit code or the signal that killed it."""
    code = process.exitcode
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


class LocalExecutor:
    """`workers` local worker processes (spawned), one task at a time each."""

    def __init__(self, workers: int):
        self.workers = workers
        self.processes: list = []
        self.connections: list[Connection] = []

    def _start(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_worker, args=(theirs,), daemon=True)
            # Blocked, a Ctrl-C now waits in this process until the worker is started (and
            # then interrupts the command); the worker starts with it blocked too.
            with sigint_blocked():
                process.start()
            theirs.close()
            self.processes.append(process)
            self.connections.append(mine)

    def results(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """Yield function(task) for every task, in completion order.  `tasks` may be a
        generator (a command reading its input as it goes): a task is taken when a
        worker becomes free."""
        known = len(tasks) if hasattr(tasks, "__len__") else self.workers
        try:
            self._start(max(1, min(self.workers, known)))
            waiting = iter(tasks)
            running: dict[int, Any] = {}  # worker index -> its task
            idle = list(range(len(self.processes)))
            exhausted = False
            while True:
                while idle and not exhausted:
                    task = next(waiting, _END)
                    if task is _END:
                        exhausted = True
                        break
                    worker = idle.pop()
                    self.connections[worker].send((function, task))
                    running[worker] = task
                if not running:
                    break
                yield from self._collect(running, idle)
        except BaseException:
            self.stop()
            raise
        self._finish()

    def _collect(self, running: dict[int, Any], idle: list[int]) -> Iterator[Any]:
        """Wait until some worker answers or dies; yield the answers."""
        pipes = {self.connections[w]: w for w in running}
        sentinels = {self.processes[w].sentinel: w for w in running}
        ready = wait([*pipes, *sentinels])
        replies = []
        for worker in sorted({pipes.get(r, sentinels.get(r)) for r in ready}):
            connection = self.connections[worker]
            try:
                # a worker that died leaves its pipe readable (EOF), a reply possibly before
                kind, value = connection.recv() if connection.poll() else (None, None)
            except (EOFError, OSError):
                kind, value = None, None
            if kind is None:
                process = self.processes[worker]
                process.join(STOP_GRACE)
                raise ExecutorError(
                    f"worker process {process.pid} died ({_ended(process)}) while running "
                    f"{_describe(running[worker])}; the run stops"
                )
            del running[worker]
            idle.append(worker)
            if kind == "error":
                raise value
            replies.append(value)
        yield from replies

    def _finish(self) -> None:
        """Tell every worker to end, and wait for them (bounded)."""
        for connection in self.connections:
            with contextlib.suppress(OSError, ValueError):
                connection.send(None)
        deadline = time.monotonic() + STOP_GRACE
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
        self.stop()

    def stop(self) -> None:
        """End every worker now: SIGTERM, then SIGKILL after STOP_GRACE seconds; never
        waits longer."""
        processes, self.processes = self.processes, []
        connections, self.connections = self.connections, []
        for connection in connections:
            connection.close()
        for process in processes:
            if process.exitcode is None:
                with contextlib.suppress(OSError):
                    process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.exitcode is None:
                with contextlib.suppress(OSError):
                    process.kill()
                process.join(1.0)
            with contextlib.suppress(ValueError):
                process.close()  # its sentinel, now; ValueError: still running after all


_END = object()


def _describe(task: Any) -> str:
    """A short name for a task in an error message (a chunk's dataset and position)."""
    parts = [str(getattr(task, name)) for name in ("dataset", "encoding") if hasattr(task, name)]
    first = getattr(task, "first", None)
    if first is not None:
        parts.append(f"from position {first}")
    return "the task " + " ".join(parts) if parts else "a task"
