"""Running `python -m benchmarks run` as a user does, and stopping it as a user (or the
system) would: SIGINT to its process group (a terminal's Ctrl-C), SIGKILL to the
command alone (`kill -9`, the OOM killer).  Shared by the interrupt and resume tests.
Every process group started here is killed when the test leaves, even when it fails.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.paths import PROJECT


@contextlib.contextmanager
def started(argv: list[str]) -> Iterator[subprocess.Popen]:
    """Start `python -m benchmarks run ARGV` in a session of its own (SIGINT as the
    terminal would send it); on leaving, SIGKILL whatever is left of its group."""
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks", "run", *map(str, argv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=PROJECT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.communicate(timeout=30)


def group_left(group: int, timeout: float = 15.0) -> list[str]:
    """Wait up to `timeout` seconds for every process of `group` to end; return those
    still running then ('PID COMMAND'), zombies (ended, not yet reaped) not counted."""
    deadline = time.monotonic() + timeout
    while True:
        listed = subprocess.run(
            ["ps", "-o", "pid=,stat=,args=", "-g", str(group)], capture_output=True, text=True
        ).stdout.splitlines()
        alive = [line.strip() for line in listed if line.split()[1][0] != "Z"]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def wait_for(path: Path, process: subprocess.Popen, timeout: float = 120.0) -> bool:
    """Wait until the process holds `path` open (True: the command has done its imports
    and is running) or has ended (False)."""
    deadline = time.monotonic() + timeout
    wanted = str(path.resolve())
    while process.poll() is None:
        assert time.monotonic() < deadline, f"{path} never opened"
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{process.pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{process.pid}/fd/{fd}") == wanted:
                        return True
        time.sleep(0.02)
    return False


def wait_for_chunks(journal: Path, process: subprocess.Popen, count: int) -> bool:
    """Wait until `journal` holds `count` committed chunks (True) or the process has
    ended (False)."""
    if not wait_for(journal, process):
        return False
    while process.poll() is None:
        with (
            contextlib.suppress(sqlite3.Error),
            contextlib.closing(sqlite3.connect(journal, timeout=5)) as db,
        ):
            if db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] >= count:
                return True
        time.sleep(0.1)
    return False


def figures(folder: Path) -> dict:
    """results.json without its metadata and timings."""
    document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    summaries = [
        {k: v for k, v in s.items() if "us_" not in k and "second" not in k}
        for s in document["summaries"]
    ]
    return {**document, "metadata": None, "summaries": summaries}


def csv_rows(folder: Path) -> list[list[str]]:
    """results.csv without its time column, rows in file order."""
    with open(folder / "results.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    column = rows[0].index("microseconds")
    return [row[:column] + row[column + 1 :] for row in rows]
