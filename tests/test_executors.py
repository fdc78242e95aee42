"""The chunk helpers of `executors`: cutting, completion order, input order, and the
executor stopped whatever way the caller leaves; `LocalExecutor`'s processes: deaf to
SIGINT, a dead one reported, `stop` bounded, none outliving its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from benchmarks.paths import PROJECT
from executors import ExecutorError, LocalExecutor, SerialExecutor, completed, cut, in_order
from executors.local import STOP_GRACE


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


# ---------------------------------------------------------------- LocalExecutor's processes
# The functions below run in spawned worker processes: module-level, so they pickle.


def _sigint_handler(task):
    return task, signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def _dies_at(task):
    if task == 2:
        os._exit(3)  # the worker process dies with its task half done
    time.sleep(0.2)
    return task


def _stubborn(task):
    """Sleep for an hour, deaf to SIGTERM: `stop` must resort to SIGKILL."""
    if task == 0:
        return os.getpid()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(3600)


def test_local_workers_ignore_sigint_and_finish_every_task():
    assert sorted(LocalExecutor(2).results(_sigint_handler, range(6))) == [
        (i, True) for i in range(6)
    ]


def test_a_dead_local_worker_is_reported_and_nothing_is_left_running():
    executor = LocalExecutor(2)
    with pytest.raises(ExecutorError, match="died \\(exit code 3\\)"):
        list(executor.results(_dies_at, range(5)))
    assert executor.processes == []


def test_stop_is_bounded_even_for_a_worker_deaf_to_sigterm():
    executor = LocalExecutor(2)
    results = executor.results(_stubborn, [0, 1])
    worker = next(results)  # task 1 is running, and will never end
    pids = [p.pid for p in executor.processes]
    started = time.monotonic()
    results.close()  # the caller leaves: `stop`
    assert time.monotonic() - started < STOP_GRACE + 10  # wide margin for a loaded machine
    assert executor.processes == []
    assert worker in pids
    assert not any(_running(pid) for pid in pids)


PARENT = """
import sys, time
from executors import LocalExecutor
def main():
    results = LocalExecutor(2).results(time.sleep, [3600, 3600])
    next(results)
if __name__ == "__main__":
    main()
"""


def test_no_local_worker_outlives_its_parent(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT, encoding="utf-8")
    parent = subprocess.Popen([sys.executable, str(script)], cwd=PROJECT)
    try:
        workers: list[int] = []
        for _ in range(600):  # up to a minute for the workers to start on a loaded machine
            workers = _children(parent.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(1.0)  # past their start-up
    finally:
        parent.kill()  # SIGKILL: no clean-up code runs in the parent
        parent.wait()
    for _ in range(100):
        alive = [pid for pid in workers if _running(pid)]
        if not alive:
            break
        time.sleep(0.1)
    assert not alive, f"workers left running: {alive}"


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def _running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (a dead child its new parent has not
    reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize(
    "address, words",
    [
        ("", "empty address"),
        ("  ", "empty address"),
        ("notanaddress", "has no port (e.g. tcp://notanaddress:8786)"),
        ("http://127.0.0.1:1", "unknown scheme 'http'"),
        ("inproc://127.0.0.1/1/1", "inside one process"),
        ("tcp://127.0.0.1:0", "port '0' is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:65536", "port '65536'"),
        ("tcp://127.0.0.1:", "port ''"),
        ("tcp://:8786", "'' is not a host name"),
        ("tcp://a b:8786", "'a b' is not a host name"),
        ("::1:8786", "an IPv6 host goes in brackets"),
        ("[::1]", "expected [IPv6]:PORT"),
        ("[nothex]:8786", "'nothex' is not an IPv6 address"),
    ],
)
def test_a_scheduler_address_is_checked_before_anything_connects(address, words):
    from executors.dask_cluster import DaskExecutor, scheduler_problem

    assert words in scheduler_problem(address)
    with pytest.raises(ExecutorError, match="--scheduler: "):
        DaskExecutor(1, address)  # an empty address was a LocalCluster


@pytest.mark.parametrize(
    "address",
    ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://sched.example.org:8786", "[::1]:8786",
     "tcp://[fe80::1]:1", "ucx://node-7:65535", "ws://my_host:80"],
)  # fmt: skip
def test_a_scheduler_address_distributed_reads_is_taken(address):
    from executors.dask_cluster import scheduler_problem

    assert scheduler_problem(address) == ""
