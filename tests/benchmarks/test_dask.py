"""`--executor dask`: the same results as the local executor, lost workers, Ctrl-C.

One `LocalCluster` (2 worker processes, bound to 127.0.0.1) serves the module; the
commands reach it with `--scheduler`, the way they reach a cluster of several
machines.  The stats test and the Ctrl-C test let the command start its own
LocalCluster (no `--scheduler`).  Figures are compared with a local run of the same
chunks; only timings and metadata may differ.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import uuid
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
)

from benchmark_processes import group_left, started, wait_for_chunks  # noqa: E402

from benchmarks import run as run_command  # noqa: E402
from benchmarks import stats  # noqa: E402
from benchmarks.__main__ import main as benchmarks_main  # noqa: E402
from benchmarks.chunks import ChunkResult, run_chunk  # noqa: E402
from benchmarks.harness import RunOptions, load_datasets, make_tasks  # noqa: E402
from benchmarks.journal import FILE as JOURNAL  # noqa: E402
from benchmarks.paths import PROJECT  # noqa: E402
from executors import ExecutorError, SerialExecutor, dask_cluster  # noqa: E402
from executors.dask_cluster import (  # noqa: E402
    DaskExecutor,
    code_problems,
    code_state,
    local_cluster,
)
from solvers.__main__ import main as solvers_main  # noqa: E402
from studies import solutions_vs_givens  # noqa: E402

CLASH = "11" + "." * 79  # two 1s in the first row: no solution


@pytest.fixture(scope="module")
def scheduler():
    """Address of a LocalCluster of 2 single-threaded worker processes on 127.0.0.1."""
    with local_cluster(distributed, 2, preload=False) as cluster:  # as an external one
        yield cluster.scheduler_address


def _figures(document: dict) -> dict:
    """results.json without metadata and timings."""
    summaries = [
        {k: v for k, v in s.items() if "us_" not in k and "second" not in k}
        for s in document["summaries"]
    ]
    return {**document, "metadata": None, "summaries": summaries}


def _csv_without_times(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    column = lines[0].split(",").index("microseconds")
    return [",".join(c for i, c in enumerate(line.split(",")) if i != column) for line in lines]


def test_run_gives_the_local_results(scheduler, tmp_path, public):
    top95 = public.set("top95")
    jigsaw = tmp_path / "jigsaw.txt"
    lines = public.puzzles("andoku-jigsaw", 6)
    jigsaw.write_text("\n".join(lines) + "\n", encoding="utf-8")
    common = [top95, jigsaw, "--limit", "40", "--solvers", "up,fl,minisat22"]
    common += ["--chunk-size", "8", "--quiet"]
    local = ["--workers", "1", "--out", tmp_path / "local"]
    dask = ["--executor", "dask", "--scheduler", scheduler, "--out", tmp_path / "dask"]
    assert run_command.main(list(map(str, common + local))) == 0
    assert run_command.main(list(map(str, common + dask))) == 0
    one, two = (json.loads((tmp_path / w / "results.json").read_text()) for w in ("local", "dask"))
    assert two["metadata"]["executor"] == "dask"
    assert two["metadata"]["scheduler"] == scheduler
    assert two["metadata"]["grids_done"] == 46
    assert _figures(one) == _figures(two)
    rows = [_csv_without_times(tmp_path / w / "results.csv") for w in ("local", "dask")]
    assert len(rows[0]) == 1 + 46 * 3
    assert rows[0] == rows[1]


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|") or " from k=" in line]


def test_stats_gives_the_local_table(tmp_path, capsys):
    common = ["--givens", "24-40:16", "--samples", "30", "--seed", "3", "--cap", "100", "--quiet"]
    assert stats.main([*common, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    local = capsys.readouterr().out
    # no --scheduler: the command starts its own LocalCluster of 2 workers
    dask = ["--executor", "dask", "--workers", "2", "--out", str(tmp_path / "dask")]
    assert stats.main([*common, *dask]) == 0
    remote = capsys.readouterr().out
    assert "a Dask LocalCluster of 2 worker(s)" in remote
    assert len(_table_lines(local)) == 2 * (2 + 2) + 2  # 2 tables of 2 rows, thresholds
    assert _table_lines(local) == _table_lines(remote)
    assert solutions_vs_givens.CHUNK_SAMPLES < 2 * 2 * 30  # several chunks


# (--no-length: the depth-2 grids' BxB takes seconds, and a loaded machine's time limit
# could stop it in one run and not in the other)
@pytest.mark.parametrize("mode", [["--max-depth", "2", "--no-length"], ["--solver", "fl"]])
def test_rate_gives_the_local_lines(scheduler, tmp_path, capsys, mode, public):
    grids = public.puzzles("top95", 30) + public.puzzles("hardest")
    path = tmp_path / "grids.txt"
    path.write_text("\n".join([*grids[:20], CLASH, *grids[20:]]) + "\n", encoding="utf-8")
    outputs = []
    for extra in ([], ["--executor", "dask", "--scheduler", scheduler, "--chunk-size", "7"]):
        assert solvers_main(["rate", str(path), *mode, "--quiet", *extra]) == 0
        captured = capsys.readouterr()
        rows = [line.split("\t") for line in captured.out.splitlines()]
        outputs.append(([row[:-1] for row in rows], captured.err))  # without seconds
    assert outputs[0] == outputs[1]
    rows, err = outputs[0]
    assert [int(row[0]) for row in rows] == list(range(len(grids) + 1))
    assert f"{path}:21: no solution" in err
    if mode[0] == "--max-depth":
        assert rows[20][2] == "unsat@0"
        assert {row[2] for row in rows} >= {"1", "2"}


class DiesOnce:
    """run_chunk, except that the first attempt at the chunk starting at `victim` makes
    its worker process exit; every attempt leaves a file in `folder`."""

    def __init__(self, folder: Path, victim: int):
        self.folder, self.victim = folder, victim

    def __call__(self, task):
        (self.folder / f"attempt-{task.first}-{uuid.uuid4().hex}").touch()
        if task.first == self.victim:
            marker = self.folder / "died"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                os._exit(1)  # the worker process dies with the chunk half done
        return run_chunk(task)


def _without_times(result: ChunkResult) -> ChunkResult:
    answers = tuple(replace(a, seconds=np.zeros_like(a.seconds)) for a in result.answers)
    return replace(result, answers=answers, cpu_seconds=0.0)


def test_a_lost_worker_has_its_chunk_redone_once(scheduler, tmp_path, public):
    options = RunOptions(solvers=("up", "fl"), chunk_size=5)
    tasks = make_tasks(load_datasets([str(public.set("top95"))], options), options)
    victim = tasks[6].first
    client = distributed.Client(scheduler, set_as_default=False)
    before = set(client.run(os.getpid).values())
    results = list(DaskExecutor(2, scheduler).results(DiesOnce(tmp_path, victim), tasks))
    expected = list(SerialExecutor().results(run_chunk, tasks))
    died = int((tmp_path / "died").read_text())
    assert died in before
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the worker
    assert died not in set(client.run(os.getpid).values())
    client.close()
    assert len(results) == len(tasks) == 19
    assert sorted(r.first for r in results) == [t.first for t in tasks]  # none twice
    by_first = {r.first: _without_times(r) for r in results}
    assert [by_first[t.first] for t in tasks] == [_without_times(r) for r in expected]
    attempts = [p.name.split("-")[1] for p in tmp_path.glob("attempt-*")]
    assert attempts.count(str(victim)) == 2


def test_scheduler_needs_the_dask_executor(capsys):
    with pytest.raises(SystemExit) as exit_:
        run_command.main(["--scheduler", "tcp://127.0.0.1:8786", "--workers", "1"])
    assert exit_.value.code == 2
    assert "--scheduler needs --executor dask" in capsys.readouterr().err


def test_unreachable_scheduler_is_one_line(monkeypatch, capsys, public):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 1.0)
    top95 = str(public.set("top95"))
    argv = [top95, "--limit", "3", "--executor", "dask", "--scheduler", f"tcp://127.0.0.1:{port}"]
    assert benchmarks_main(["run", *argv, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert "Traceback" not in err


def test_workers_running_other_code_are_refused():
    mine, other = "a" * 64, "b" * 64
    assert code_problems(mine, {"tcp://h:1": (mine, ()), "tcp://h:2": (mine, ())}) == []
    workers = {"tcp://h:2": (other, ()), "tcp://h:1": (mine, ("solvers.core.engine",))}
    assert code_problems(mine, workers) == [
        "tcp://h:1: solvers.core.engine changed on disk since it started",
        "tcp://h:2: other project sources than this machine's",
    ]
    digest, _ = code_state()
    assert len(digest) == 64 and code_state()[0] == digest


def test_workers_that_cannot_import_the_project_are_one_error():
    """A worker whose Python lacks the project fails `client.run` itself: the scheduler
    sends back a plain Exception, which was a traceback; it is one ExecutorError."""

    class Client:
        closed = False

        def run(self, function):
            raise Exception("ModuleNotFoundError(\"No module named 'executors'\")")

        def close(self, timeout):
            Client.closed = True

    executor = dask_cluster.DaskExecutor(2, "tcp://10.0.0.1:8786")
    executor.client = Client()
    with pytest.raises(ExecutorError) as caught:
        executor._check_code()
    assert str(caught.value) == (
        "the Dask workers at tcp://10.0.0.1:8786 cannot run this project's code "
        "(ModuleNotFoundError(\"No module named 'executors'\")).  Install it on every "
        "worker (pip install -e .) and restart the workers"
    )
    assert Client.closed and executor.client is None


def test_workers_drop_only_the_heartbeat_race_of_a_closing_cluster():
    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("distributed.worker", logging.ERROR, "w.py", 1, message, (), None)

    race = record("Failed to communicate with scheduler during heartbeat.")
    assert dask_cluster._drop_heartbeat_races(race) is False
    other = record("Unexpected exception during heartbeat. Closing worker.")
    assert dask_cluster._drop_heartbeat_races(other) is True


def _raised(source: str, filename: str) -> tuple:
    """Return the exc_info of calling `cancel` as `source` (compiled as `filename`) makes
    it: distributed.utils.sync's callback, reading `future` before it is set."""
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    try:
        namespace["sync"]()()
    except NameError:
        return sys.exc_info()
    raise AssertionError("cancel raised nothing")


def test_the_command_drops_only_the_sync_cancel_race_of_a_ctrl_c():
    """A Ctrl-C before distributed.utils.sync's coroutine starts makes its `cancel`
    callback raise NameError, which tornado logged with a traceback: 1 of 12 tries of
    the dask Ctrl-C test in CI.  The command's filter drops that one error only."""
    import distributed.utils

    sync = (
        "def sync():\n"
        "    future: object\n"
        "    def cancel():\n"
        "        if future is not None:\n"
        "            pass\n"
        "    return cancel\n"
    )

    def record(exc_info) -> logging.LogRecord:
        return logging.LogRecord(
            "tornado.application", logging.ERROR, "ioloop.py", 1, "callback", (), exc_info
        )

    race = record(_raised(sync, distributed.utils.__file__))
    assert "free variable 'future'" in str(race.exc_info[1])
    assert dask_cluster._drop_sync_cancel_race(race) is False
    elsewhere = record(_raised(sync, "/somewhere/else/utils.py"))
    assert dask_cluster._drop_sync_cancel_race(elsewhere) is True
    try:
        raise ValueError("a callback's own error")
    except ValueError:
        assert dask_cluster._drop_sync_cancel_race(record(sys.exc_info())) is True
    assert dask_cluster._drop_sync_cancel_race(record(None)) is True


def test_the_cluster_runs_this_checkout(scheduler):
    client = distributed.Client(scheduler, set_as_default=False)
    try:
        states = client.run(code_state)
    finally:
        client.close()
    assert len(states) == 2
    assert code_problems(code_state()[0], states) == []


def test_dask_is_imported_only_when_chosen():
    code = (
        "import sys, benchmarks.run, benchmarks.stats, solvers.__main__; "
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_ctrl_c_cancels_and_shuts_the_cluster_down(tmp_path, public):
    royle = public.set("royle17")
    argv = [royle, "--limit", "30000", "--chunk-size", "300", "--workers", "2"]
    argv += ["--solvers", "up,fl,minisat22", "--executor", "dask", "--out", tmp_path]
    with started(argv) as process:
        assert wait_for_chunks(tmp_path / JOURNAL, process, 1)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        stdout, stderr = process.communicate(timeout=60)
        assert group_left(process.pid) == []  # the cluster's processes are gone
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "benchmarks: interrupted:" in stderr
    meta = json.loads((tmp_path / "results.json").read_text())["metadata"]
    assert meta["interrupted"] is True and meta["executor"] == "dask"
    assert 0 < meta["grids_done"] < meta["grids_total"]
    assert "INTERRUPTED: partial results" in stdout


def test_rate_feeds_the_cluster_chunk_by_chunk(scheduler):
    """`solvers rate --executor dask` cuts the chunks as the cluster takes them, a window
    at a time: it once handed the cluster a list of every chunk, and a million grids
    held 1.1 GB in the command.  When the first line comes out, only the first chunks
    have been read from the input: the window, and the chunks another worker finished
    while the first one ran (it read 70 grids of chunks of 10 once in CI, for a window of
    4), far from the whole input, which the list read before any chunk ran."""
    import argparse
    import itertools

    from encoder.puzzle_files import read_puzzles
    from solvers.__main__ import _rate_chunks
    from solvers.ratings.chunks import RateOptions

    grids = list(read_puzzles(str(PROJECT / "data" / "sets" / "sudoku9_depth1.txt")))
    total = 30_000
    read = 0

    def puzzles():
        nonlocal read
        for puzzle in itertools.islice(itertools.cycle(grids), total):
            read += 1
            yield puzzle

    args = argparse.Namespace(executor="dask", workers=2, scheduler=scheduler, chunk_size=10)
    lines = _rate_chunks(puzzles(), RateOptions(max_depth=1, length_depth=None), args)
    try:
        first = next(lines)
    finally:
        lines.close()  # stops the executor
    assert first.index == 0
    window = max(dask_cluster.MIN_WINDOW, 2 * 2)  # two single-threaded workers
    assert 10 * window <= read <= total // 10, read
