"""How long a child process takes to stop after a Ctrl-C sent while a kernel runs.

A plain module in the tests' folder, imported by name (`from interrupted_child import
seconds_to_stop`).  The child script prints "ready" when its kernel is about to start,
and, on KeyboardInterrupt, the time.monotonic() at which it caught it, then exits 130.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def seconds_to_stop(script: str, *args: str) -> float:
    """Run `script` with `args`, send SIGINT 0.5 s after it says "ready", check that it
    exits 130, and return the seconds from the signal to its catching it."""
    child = subprocess.Popen([sys.executable, "-c", script, *args],
                             stdout=subprocess.PIPE, text=True, cwd=PROJECT)  # fmt: skip
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert child.returncode == 130, out
    return float(out.strip()) - sent
