"""Small timing helpers shared by the benchmark scripts: medians of perf_counter runs."""

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
