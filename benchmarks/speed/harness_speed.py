"""Question 13: the harness at the speed of its kernels (issue 43's targets).

- `benchmarks run FILE --solvers up,fl,fl2 --workers 1` over the 17-clue list (its
  tables on standard output, no `--out`: the issue's command), against
  `solvers rate FILE --no-length --max-depth 2 --workers 1` on the same file: both whole
  processes, start-up included, so the ratio is what a user waits for the harness's
  tables beyond what the ratings alone take (the same closures, up to depth 2);
- the same `benchmarks run`, with `--out` (results.csv, results.json, plots), over N
  grids (the list repeated into a file: 20,000, 200,000 and 1,000,000 by default):
  grids/s, wall time per million grids, and the growth of the peak resident memory (of
  the largest process) from the smallest N, in MiB.  Flat memory means the harness
  keeps nothing per grid beyond the chunk in flight.

Each is one run a size (a million grids is about a minute): the figures are the
machine's, the ratio of the first line is read within the run.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from benchmarks.speed.record import Record
from benchmarks.speed.runs import ONE_WORKER, harness_run, rate_run, repeated, run_command

SOLVERS = "up,fl,fl2"
SIZES = (20_000, 200_000, 1_000_000)
MILLION = 1_000_000
MEMORY_TARGETS = {200_000: "harness-memory-200k", MILLION: "harness-memory-million"}


def harness_speed(
    source: str,
    lines: Sequence[str],
    folder: Path,
    record: Record,
    sizes: Sequence[int] = SIZES,
) -> None:
    """Question 13 over the grid lines `lines` of the set `source` (files in `folder`)."""
    print(f"\n13. the harness at its kernels' speed: benchmarks run --solvers {SOLVERS} "
          "--workers 1, whole processes")  # fmt: skip
    path = repeated(lines, len(lines), folder / "harness_list.txt")
    rate_wall, _, _, grids = rate_run(path, folder, ONE_WORKER, max_depth=2)
    # as the issue gives it: the tables on standard output, no --out folder
    run_wall, _ = run_command(
        ["benchmarks", "run", str(path), "--solvers", SOLVERS, *ONE_WORKER, "--quiet"],
        subprocess.DEVNULL,
    )
    path.unlink()
    for key, value in (("rate_wall", rate_wall), ("run_wall", run_wall)):
        record.figure(f"13.list.{key}", value, "s")
    print(f"   {source}, {grids:,} grids: benchmarks run {run_wall:.2f} s (its tables, no "
          f"--out); solvers rate --no-length --max-depth 2 {rate_wall:.2f} s")  # fmt: skip
    print(record.target("run-vs-rate", run_wall / rate_wall, source))
    peaks: list[tuple[int, float]] = []
    for size in sizes:
        path = repeated(lines, size, folder / f"harness_{size}.txt")
        wall, peak, _, count = harness_run(path, folder, ONE_WORKER, solvers=SOLVERS)
        path.unlink()
        record.figure(f"13.scale.{size}.wall", wall, "s")
        record.figure(f"13.scale.{size}.peak", peak, "MiB")
        peaks.append((size, peak))
        grown = f", {peak - peaks[0][1]:+.1f} MiB from {peaks[0][0]:,}" if len(peaks) > 1 else ""
        print(f"   {count:,} grids: {wall:.1f} s, {count / wall:,.0f} grids/s, peak RSS "
              f"{peak:.0f} MiB{grown}", flush=True)  # fmt: skip
        if size >= MILLION:
            print(record.target("harness-million", wall * MILLION / size, f"{size:,} grids"))
        if size in MEMORY_TARGETS and len(peaks) > 1:
            where = f"{size:,} against {peaks[0][0]:,} grids"
            print(record.target(MEMORY_TARGETS[size], peak - peaks[0][1], where))
