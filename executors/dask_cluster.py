"""Chunks on a Dask cluster: `--executor dask [--scheduler tcp://HOST:8786]`.

`DaskExecutor` implements the executor contract of `executors` (`results`
yields function(task) in completion order, `stop` abandons the rest) with
`dask.distributed`.  Without a scheduler address it starts a `LocalCluster` on this
machine: `workers` processes of one thread each, bound to 127.0.0.1, no dashboard;
with one, it connects a `Client` to that scheduler and leaves the cluster running when
done.

Why the results are exactly those of a local run:
- a task is one chunk (a few hundred grids); the function builds its solvers once per
  chunk and has no side effect, so running it again gives the same result;
- every task is submitted once, under its own key (`<function>-<run token>-<index>`,
  never derived from the task's contents), so two equal chunks are two tasks and two
  runs sharing a scheduler never share a result;
- when a worker dies (killed, out of memory, machine lost), the scheduler runs its
  unfinished tasks again elsewhere (up to `distributed.scheduler.allowed-failures`
  times, 3 by default; a chunk that kills more workers than that ends the run with
  an ExecutorError); the client reads each key's result once, and releases it at
  once, so a finished chunk is neither recomputed nor counted twice.

A scheduler lost mid-run (its machine down, its process killed) cannot be replaced
under a running client: the run ends with an ExecutorError in one line, and the
command's journal (`benchmarks run --out DIR --resume`) finishes it against a new one.

Tasks are fed to the cluster a window at a time (twice the cluster's threads, re-read
as workers come and go): a run over millions of grids keeps only that many chunks in
the scheduler's memory, and Ctrl-C has little to cancel.  Ctrl-C (or a wrong answer)
makes the caller call `stop`: the futures are cancelled, the client closed, and a
cluster this executor started is shut down (a running chunk cannot be interrupted;
its worker process is killed after a few seconds).

A scheduler address is checked before anything connects (`scheduler_problem`): a
scheme distributed can reach another process by, a host and a port; distributed itself
took 20 s to refuse an address without a port (a ValueError traceback), and the empty
address meant "start a LocalCluster".

Workers import the project's modules to run the chunks: every worker machine needs
the project installed (`pip install -e .`, same commit).  Before the first task the
executor asks every worker for `code_state`: a worker whose project sources differ from
this machine's, or that imported a project module since edited on disk (a long-lived
`dask worker` still running yesterday's engine), would give other figures silently, so
the run stops with an ExecutorError naming it.  Grids travel inside the tasks, so only
the machine running the command reads the dataset files.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import re
import signal
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import CancelledError
from typing import Any

from executors.contract import ExecutorError
from executors.local import STOP_GRACE, sigint_blocked, sigint_deferred
from executors.sources import PACKAGES, source_digest

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler
# distributed's transports that reach another process (distributed.comm.registry; inproc
# is the same process's only); an address without a scheme is tcp, as distributed reads it
SCHEMES = ("tcp", "tls", "ucx", "ws", "wss")
DEFAULT_PORT = 8786  # the port a `dask scheduler` listens on unless told otherwise
_HOST = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?")  # a name or IPv4
WORKER_TIMEOUT = 120.0  # seconds to wait for a first worker to join a scheduler
CLOSE_TIMEOUT = 3 * STOP_GRACE  # seconds to close the client, then our LocalCluster
MIN_WINDOW = 4  # tasks in flight at least, whatever the cluster's size
MACHINERY = (
    "executors",
    "executors.contract",
    "executors.local",
    "executors.sources",
    __name__,
)  # run code_state


def dask_setup(worker) -> None:
    """Preload of the LocalCluster's workers (run in each worker process's main thread at
    start-up): ignore SIGINT, as `LocalExecutor`'s workers do.  A terminal's Ctrl-C
    reaches every process of its group; only the command must react (it cancels the
    tasks and shuts the cluster down), not a worker with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # since their start on a LocalCluster
    logging.getLogger("distributed.worker").addFilter(_drop_heartbeat_races)


def _drop_heartbeat_races(record: logging.LogRecord) -> bool:
    """Logging filter of the LocalCluster's workers.  When the command shuts its own
    cluster down (end of run, Ctrl-C), a worker's heartbeat may still be on its way to
    the scheduler that just closed; distributed logs that race as an error with a
    traceback.  It is not one: a scheduler lost in the middle of a run is reported by
    the command's client, not by this line."""
    return not record.getMessage().startswith("Failed to communicate with scheduler")


def _drop_sync_cancel_race(record: logging.LogRecord) -> bool:
    """Logging filter of the command's `tornado.application` logger.  A Ctrl-C that lands
    while `distributed.utils.sync` waits, before its coroutine has started, makes sync's
    `cancel` callback read a variable not yet set; tornado logs the NameError with a
    traceback (distributed 2026.8.0).  Nothing is lost: the KeyboardInterrupt goes on and
    the command says "interrupted" in one line.  Only that error is dropped."""
    if record.exc_info is None or not isinstance(record.exc_info[1], NameError):
        return True
    tb = record.exc_info[2]
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code if tb is not None else None
    raised_in_sync = code is not None and code.co_name == "cancel"
    raised_in_sync = raised_in_sync and code.co_filename.endswith(
        os.path.join("distributed", "utils.py")
    )
    return not raised_in_sync


def code_state() -> tuple[str, tuple[str, ...]]:
    """Return (SHA-256 of the project's source files on this machine, the project modules
    this process imported whose file changed after the process started).  The second is
    a bound: a module imported after its file changed counts too (restart the workers
    after installing new code, and it never happens)."""
    import psutil  # a dependency of distributed

    started = psutil.Process().create_time()
    stale = []
    for name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        ours = name.split(".")[0] in PACKAGES and name not in MACHINERY
        ours = ours and source and os.path.exists(source)
        if ours and os.path.getmtime(source) > started:
            stale.append(name)
    return source_digest(), tuple(sorted(stale))


def code_problems(mine: str, workers: Mapping[str, tuple[str, tuple[str, ...]]]) -> list[str]:
    """Return one line per worker (address: `code_state()`) that would not run the code
    whose source hash is `mine`."""
    problems = []
    for address, (theirs, stale) in sorted(workers.items()):
        if theirs != mine:
            problems.append(f"{address}: other project sources than this machine's")
        elif stale:
            problems.append(f"{address}: {', '.join(stale)} changed on disk since it started")
    return problems


def scheduler_problem(address: str) -> str:
    """Return what is wrong with a Dask scheduler address ("" when nothing is):
    [SCHEME://]HOST:PORT, the scheme one of SCHEMES, the host a name, an IPv4 address or
    an IPv6 one in brackets, the port from 1 to 65535.  Nothing is imported or reached."""
    example = f"tcp://HOST:{DEFAULT_PORT}"
    if not address.strip():
        return f"empty address (expected {example}; without --scheduler, a LocalCluster)"
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "tcp", address
    elif scheme == "inproc":
        return f"{address!r}: inproc:// names a scheduler inside one process, not reachable"
    elif scheme not in SCHEMES:
        return f"{address!r}: unknown scheme {scheme!r} (one of {', '.join(SCHEMES)})"
    if rest.startswith("["):  # [IPv6]:PORT
        host, bracket, port = rest[1:].partition("]")
        if not bracket or not port.startswith(":"):
            return f"{address!r}: expected [IPv6]:PORT"
        port = port[1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"{address!r}: {host!r} is not an IPv6 address"
    else:
        host, colon, port = rest.rpartition(":")
        if not colon:
            return f"{address!r} has no port (e.g. tcp://{rest}:{DEFAULT_PORT})"
        if ":" in host:
            return f"{address!r}: an IPv6 host goes in brackets ([::1]:{DEFAULT_PORT})"
        if not _HOST.fullmatch(host):
            return f"{address!r}: {host!r} is not a host name or address"
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        return f"{address!r}: port {port!r} is not a number from 1 to 65535"
    return ""


def _distributed():
    """Return the `distributed` module, or raise ExecutorError saying how to get it."""
    try:
        import distributed
    except ImportError as error:
        raise ExecutorError(
            f"--executor dask needs dask.distributed ({error}); "
            "install it with: pip install 'dask[distributed]'"
        ) from None
    return distributed


def local_cluster(distributed, workers: int, preload: bool = True):
    """Return a started `distributed.LocalCluster` of `workers` single-threaded worker
    processes on 127.0.0.1 (no dashboard).  `preload`: the workers run this module's
    `dask_setup` and ignore Ctrl-C, as the executor's own cluster does; without it
    they are as a cluster started by someone else would be (the tests' stand-in)."""
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # health routes only
        silence_logs=logging.ERROR,
        preload=[__name__] if preload else [],  # dask_setup: workers ignore Ctrl-C
    )


class DaskExecutor:
    """Runs tasks on a Dask cluster: a LocalCluster of `workers` processes, or the
    cluster behind the scheduler at `scheduler`."""

    def __init__(self, workers: int, scheduler: str | None = None):
        if scheduler is not None and (problem := scheduler_problem(scheduler)):
            raise ExecutorError(f"--scheduler: {problem}")
        self.workers = workers
        self.scheduler = scheduler
        self.client = None
        self.cluster = None  # only when this executor started it
        self.futures: dict[str, Any] = {}  # key -> future, submitted and not yet read
        self.config = None  # dask settings of our LocalCluster, undone by `close`
        self.quieted = None  # the client logger's level before `connect` (see there)

    def connect(self):
        """Start the LocalCluster or reach the scheduler; return the client."""
        if self.client is not None:
            return self.client
        distributed = _distributed()
        # The client logs a scheduler it cannot reach again with a traceback; the run
        # says it in one line instead (`results`).
        client_log = logging.getLogger("distributed.client")
        self.quieted = client_log.level
        client_log.setLevel(logging.CRITICAL)
        logging.getLogger("tornado.application").addFilter(_drop_sync_cancel_race)  # once
        try:
            if self.scheduler is not None:
                self.client = distributed.Client(
                    self.scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False
                )
            else:
                self._start_local_cluster(distributed)
        except (OSError, TimeoutError) as error:
            self.close()
            where = self.scheduler or "a LocalCluster on 127.0.0.1"
            raise ExecutorError(f"cannot reach the Dask scheduler at {where}: {error}") from None
        if self.scheduler is not None:
            try:
                self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
            except TimeoutError:
                self.close()
                raise ExecutorError(
                    f"no Dask worker joined the scheduler at {self.scheduler} within "
                    f"{WORKER_TIMEOUT:.0f} s (start some with: dask worker {self.scheduler} "
                    "--nworkers K --nthreads 1)"
                ) from None
        self._check_code()
        self.workers = self._threads()
        return self.client

    def _start_local_cluster(self, distributed) -> None:
        """Start the LocalCluster and its client.  Its worker processes are forked by a
        multiprocessing fork server started ignoring SIGINT (`sigint_blocked`), so they
        ignore it from their first instruction: a Ctrl-C landing while one starts
        cannot kill it half started.  A Ctrl-C during the start-up itself waits until
        the cluster stands (a few seconds), so that `stop` knows what to shut down."""
        import dask

        self.config = dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(["distributed"])  # what distributed preloads
        with sigint_blocked():
            multiprocessing.forkserver.ensure_running()
        with sigint_deferred():
            self._local_cluster(distributed)

    def _local_cluster(self, distributed) -> None:
        self.cluster = local_cluster(distributed, self.workers)
        self.client = distributed.Client(self.cluster, set_as_default=False)

    def _check_code(self) -> None:
        """Raise ExecutorError when a worker would not run this checkout's code."""
        where = self.scheduler or "the LocalCluster"
        try:
            states = self.client.run(code_state)
        except Exception as error:  # a worker's error, sent back as a plain Exception
            # A worker whose Python does not have the project (ModuleNotFoundError) fails
            # the call itself; the scheduler sends its error back as a plain Exception.
            self.close()
            raise ExecutorError(
                f"the Dask workers at {where} cannot run this project's code ({error}).  "
                "Install it on every worker (pip install -e .) and restart the workers"
            ) from None
        problems = code_problems(code_state()[0], states)
        if problems:
            self.close()
            raise ExecutorError(
                f"the Dask workers at {where} do not run this checkout's code: "
                + "; ".join(problems[:3])
                + ("; ..." if len(problems) > 3 else "")
                + ".  Install the same commit on every worker (pip install -e .) and "
                "restart the workers"
            )

    def _threads(self) -> int:
        """Return the number of worker threads the cluster has now."""
        return sum(self.client.nthreads().values())

    def results(self, function: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[Any]:
        """Yield function(task) for every task once, in completion order."""
        distributed = _distributed()
        client = self.connect()
        token = uuid.uuid4().hex[:12]
        name = getattr(function, "__name__", "task")
        waiting = iter(enumerate(tasks))
        finished = distributed.as_completed(loop=client.loop)

        def submit() -> None:
            window = max(MIN_WINDOW, 2 * self._threads())
            for index, task in waiting:
                key = f"{name}-{token}-{index}"
                future = client.submit(function, task, key=key, pure=False)
                self.futures[key] = future
                finished.add(future)
                if len(self.futures) >= window:
                    return

        try:
            submit()
            for future in finished:
                key = future.key
                if key not in self.futures:  # already read: never counted twice
                    continue
                try:
                    result = future.result()
                except distributed.KilledWorker as error:
                    raise ExecutorError(
                        f"task {key} was running on every worker that died ({error}); "
                        "stopping (distributed.scheduler.allowed-failures sets how many)"
                    ) from None
                del self.futures[key]
                future.release()
                yield result
                submit()
            assert not self.futures, f"{len(self.futures)} tasks submitted and never read"
        except (OSError, TimeoutError, asyncio.CancelledError, CancelledError) as error:
            lost = isinstance(error, distributed.comm.CommClosedError)
            if not (lost or client.status != "running"):
                self.stop()
                raise  # a task's own error
            self.futures.clear()  # nobody left to cancel them
            self.stop()
            raise ExecutorError(
                f"lost the Dask scheduler at {self.scheduler or 'the LocalCluster'} "
                f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); "
                "with --out DIR, --resume finishes the run once a scheduler and workers are up"
            ) from None
        except BaseException:
            self.stop()
            raise
        finally:
            self.close()

    def stop(self) -> None:
        """Cancel the tasks not read yet and shut the client (and our cluster) down."""
        if self.client is not None and self.futures:
            # a client already losing its scheduler cannot cancel: closing it is enough
            with contextlib.suppress(Exception):
                self.client.cancel(list(self.futures.values()), force=True)
        self.futures.clear()
        self.close()

    def close(self) -> None:
        """Close the client and the LocalCluster this executor started (idempotent)."""
        client, cluster, config = self.client, self.cluster, self.config
        self.client = self.cluster = self.config = None
        # bounded: a scheduler already gone must not hold the command
        with contextlib.suppress(Exception):
            if client is not None:
                client.close(timeout=CLOSE_TIMEOUT)
        with contextlib.suppress(Exception):
            if cluster is not None:
                cluster.close(timeout=CLOSE_TIMEOUT)
        if config is not None:
            config.__exit__(None, None, None)
        if self.quieted is not None:  # only now: closing a lost client logs its loss
            logging.getLogger("distributed.client").setLevel(self.quieted)
            self.quieted = None
