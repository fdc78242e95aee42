"""Small timing helpers shared by the benchmark scripts: medians of perf_counter runs,
and a child process's peak memory."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def time_calls(function: Callable[[], object], repeat: int) -> list[float]:
    """Return the wall-clock seconds of `repeat` calls of `function`."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def peak_mb(pid: int, known: float, descendants: bool = False) -> float:
    """Return the process's peak resident set so far (VmHWM, MB), or `known` once it is
    gone; with `descendants`, the largest such peak among it and the processes below it
    (a command's workers).  Not `ru_maxrss`: Linux carries the parent's peak into a
    forked child (a child of a 1.2 GB benchmark process reports 1.2 GB whatever it
    uses)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    known = max(known, int(line.split()[1]) / 1024)
                    break
        if descendants:
            with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
                for child in children.read().split():
                    known = peak_mb(int(child), known, descendants=True)
    except OSError:
        pass
    return known
