"""`--executor dask` on a cluster of separate network hosts: network namespaces on this
machine joined by a bridge (`scripts/netns_cluster.sh`): a scheduler host, two worker
hosts, and the client host the commands run on; each host reaches only the others'
addresses.  Over 100,000 grids, `rate` and `run` give the local results; a worker host
killed mid-run (its processes SIGKILLed, its link cut) changes nothing; the scheduler
killed mid-run ends the run with one line, and `--resume` against a new scheduler
finishes it with the local results.

Namespaces need root: elsewhere the module is skipped with the reason.  Every
namespace, link, bridge and process the module makes is removed when it ends, even
when a test fails."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from benchmark_processes import csv_rows, figures, wait_for_chunks

from benchmarks.journal import FILE as JOURNAL
from benchmarks.paths import PROJECT

pytest.importorskip("distributed", reason="dask.distributed is not installed")

SCRIPT = PROJECT / "scripts" / "netns_cluster.sh"
SCHEDULER = "tcp://10.251.0.1:8786"
GRIDS = 100_000
RUN = ["--solvers", "up", "--max-depth", "0", "--chunk-size", "1000", "--quiet"]
pytestmark = pytest.mark.slow


def _script(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    # the daemons run this interpreter, where the project is installed (a venv's, say)
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(
        ["sh", str(SCRIPT), *args], capture_output=True, text=True, check=check, timeout=120,
        env=env,
    )  # fmt: skip


def _namespaces_possible() -> str:
    """Return why network namespaces cannot be made here ('' when they can)."""
    probe = f"sst{uuid.uuid4().hex[:6]}"
    try:
        made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    except OSError as error:
        return f"no `ip` command ({error})"
    if made.returncode:
        return f"cannot make a network namespace (root needed): {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return ""


@pytest.fixture(scope="module")
def cluster():
    """The prefix of a running namespace cluster (scheduler, 2 worker hosts, client)."""
    reason = _namespaces_possible()
    if reason:
        pytest.skip(reason)
    prefix = f"t{uuid.uuid4().hex[:4]}"
    try:
        _script("up", prefix)
        _wait_for_workers(prefix, 2)
        yield prefix
    finally:
        _script("down", prefix, check=False)
        left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert f"{prefix}-" not in left, left
        links = subprocess.run(["ip", "link", "show"], capture_output=True, text=True).stdout
        assert f"{prefix}-" not in links


def _client(prefix: str, *argv, **popen) -> subprocess.Popen:
    """Start `python ARGV...` on the client host."""
    command = ["sh", str(SCRIPT), "run", prefix, sys.executable, *map(str, argv)]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=PROJECT, **popen
    )


def _wait_for_workers(prefix: str, count: int) -> None:
    code = (
        "import distributed; "
        f"c = distributed.Client({SCHEDULER!r}, timeout=30); "
        f"c.wait_for_workers({count}, timeout=120); c.close()"
    )
    process = _client(prefix, "-c", code)
    _, err = process.communicate(timeout=200)
    assert process.returncode == 0, err


@pytest.fixture(scope="module")
def grids(tmp_path_factory, public):
    """A file of GRIDS grids: royle17's, again and again (in the test's own folder)."""
    lines = public.puzzles("royle17")
    path = tmp_path_factory.mktemp("grids") / "grids.txt"
    repeated = (lines * (GRIDS // len(lines) + 1))[:GRIDS]
    path.write_text("\n".join(repeated) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def local_run(grids, tmp_path_factory):
    """The outputs of the same run on this machine (2 local workers)."""
    out = tmp_path_factory.mktemp("local")
    argv = [sys.executable, "-m", "benchmarks", "run", grids, *RUN, "--workers", "2"]
    done = subprocess.run(
        [*map(str, argv), "--out", str(out)], capture_output=True, text=True, cwd=PROJECT
    )
    assert done.returncode == 0, done.stderr
    return figures(out), csv_rows(out)


def _dask(out: Path) -> list:
    return ["-m", "benchmarks", "run", "--executor", "dask", "--scheduler", SCHEDULER,
            "--out", out]  # fmt: skip


def test_rate_on_the_cluster_gives_the_local_lines(cluster, grids):
    rate = ["-m", "solvers", "rate", grids, "--solver", "up", "--quiet"]
    remote = _client(cluster, *rate, "--executor", "dask", "--scheduler", SCHEDULER)
    here = subprocess.run(
        [sys.executable, *map(str, rate), "--workers", "2"],
        capture_output=True,
        text=True,
        cwd=PROJECT,
    )
    there, err = remote.communicate(timeout=1200)
    assert remote.returncode == 0, err
    assert here.returncode == 0, here.stderr

    def without_seconds(text: str) -> list[str]:
        return [line.rsplit("\t", 1)[0] for line in text.splitlines()]

    assert len(there.splitlines()) == GRIDS
    assert without_seconds(there) == without_seconds(here.stdout)


def test_a_worker_host_killed_mid_run_changes_no_result(cluster, grids, local_run, tmp_path):
    out = tmp_path / "out"
    process = _client(cluster, *_dask(out), grids, *RUN)
    try:
        assert wait_for_chunks(out / JOURNAL, process, 5)
        _script("kill", cluster, "w2")  # SIGKILL its processes, cut its link
        _, err = process.communicate(timeout=1200)
    finally:
        process.kill()
        _script("start", cluster, "w2")
    assert process.returncode == 0, err
    assert figures(out) == local_run[0]
    assert csv_rows(out) == local_run[1]
    _wait_for_workers(cluster, 2)


def test_the_scheduler_killed_mid_run_is_one_line_and_resume_finishes(
    cluster, grids, local_run, tmp_path
):
    out = tmp_path / "out"
    process = _client(cluster, *_dask(out), grids, *RUN)
    try:
        assert wait_for_chunks(out / JOURNAL, process, 5)
        _script("kill", cluster, "sch")
        killed = time.monotonic()
        _, err = process.communicate(timeout=300)
    finally:
        process.kill()
    assert time.monotonic() - killed < 240
    assert process.returncode == 1
    assert err.startswith(f"benchmarks: lost the Dask scheduler at {SCHEDULER}"), err
    assert err.count("\n") == 1, err
    # a new scheduler; the worker hosts' `dask worker` ended with the old one
    for host in ("sch", "w1", "w2"):
        _script("kill", cluster, host)
        _script("start", cluster, host)
    _wait_for_workers(cluster, 2)
    process = _client(cluster, *_dask(out), grids, *RUN, "--resume")
    _, err = process.communicate(timeout=1200)
    assert process.returncode == 0, err
    assert figures(out) == local_run[0]
    assert csv_rows(out) == local_run[1]
