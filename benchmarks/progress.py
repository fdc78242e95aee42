"""The progress of a benchmark run, on stderr and never on stdout (the tables go there).

On a terminal it is a bar (tqdm), redrawn every REDRAW seconds by a timer even when no
grid finishes, so that its clock keeps moving through a long grid.  Elsewhere (a log
file, a pipe, CI) it is lines: one when the run starts, one when a set is done, and one
whenever TICK seconds passed since the last, so that a reader of the log never waits
long without news, and a long set (16x16 grids, the finer ratings) does not look like a
hang.  `quiet` says nothing at all.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping

TICK = 9.0  # seconds: the longest silence of the line mode (10 s less a loaded wake-up)
REDRAW = 1.0  # seconds: the bar's redraw period


class Progress:
    """Progress over `total` grid runs, `per_set[name]` of them in each set."""

    def __init__(self, total: int, per_set: Mapping[str, int], quiet: bool, prog: str):
        self.total, self.per_set, self.prog = total, dict(per_set), prog
        self.done = 0
        self.by_set: Counter = Counter()
        self.started = time.monotonic()
        self.bar = None
        self.lines = not quiet and not sys.stderr.isatty()
        self._said = self.started
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if not quiet and not self.lines:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="grid", desc="benchmark", file=sys.stderr,
                            dynamic_ncols=True)  # fmt: skip
        if self.lines:
            sets = len(self.per_set)
            self._say(f"running {total:,} grid runs of {sets} set{'s' * (sets != 1)}")
        if not quiet:
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()

    def _say(self, text: str) -> None:
        with self._lock:
            self._said = time.monotonic()
            print(f"{self.prog}: {text}", file=sys.stderr, flush=True)

    def _elapsed(self) -> str:
        return f"{time.monotonic() - self.started:.0f} s"

    def _tick(self) -> None:
        """The timer: a line when TICK seconds passed since the last one, or the bar
        redrawn (tqdm takes its own lock).  Waits until exactly then, not in steps."""
        while True:
            if self.bar is not None:
                wait = REDRAW
            else:
                wait = max(0.0, self._said + TICK - time.monotonic())
            if self._stop.wait(wait):
                return
            if self.bar is not None:
                self.bar.refresh()
            elif time.monotonic() - self._said >= TICK:
                self._say(f"{self.done:,} of {self.total:,} grid runs done, {self._elapsed()}")

    def skipped(self, dataset: str, count: int) -> None:
        """Count grid runs of `dataset` that a resumed run already had."""
        self.done += count
        self.by_set[dataset] += count
        if self.bar is not None:
            self.bar.update(count)

    def add(self, dataset: str, count: int) -> None:
        """Count `count` grid runs of `dataset` just finished."""
        self.done += count
        self.by_set[dataset] += count
        if self.bar is not None:
            self.bar.set_postfix_str(dataset, refresh=False)
            self.bar.update(count)
        elif self.lines and self.by_set[dataset] == self.per_set.get(dataset):
            self._say(
                f"{dataset} done; {self.done:,} of {self.total:,} grid runs, {self._elapsed()}"
            )

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self.bar is not None:
            self.bar.close()
