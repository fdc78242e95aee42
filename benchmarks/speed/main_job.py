"""Question 12: the README's main job, `python -m benchmarks run --out DIR`, exactly as
the README gives it (every file of the project's data/sets/, the default solvers, the
default workers: all cores), run once as a whole process into a temporary folder, on
two targets (issue 32's wall time, issue 43's processor time), both read from that one run:

- its wall time, start-up included, against an absolute bound (90 s, set for two idle
  cores).  Unlike the ratios of the other targets it is the machine's: a slower machine
  or one busy with other work reads more, so the line says so;
- the workers' processor time against the seconds of solver calls the run reports: the
  metadata's `worker_cpu_seconds` (each chunk's `time.process_time` in its worker,
  checks included, summed over the chunks: `benchmarks.chunks.run_chunk`) divided by the
  summaries' `seconds_total` summed (each solver's timed calls on each set, the figures
  whose sums per solver the report prints as "Time per solver").  What it counts above
  1 is the harness's own work in the workers: each chunk's solvers built (or rewound)
  and called once untimed, the givens as assumptions, every answer checked, the depth
  rating of the grids the closures leave unsettled, a record per grid.  Processor time,
  not wall, so that it reads alike with one worker or two and on a busy machine.

The whole command's processor time (user + system, its workers included) is printed
beside, for scale: it adds start-up, the parent's tables, files and plots.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.paths import load
from benchmarks.speed.record import Record
from benchmarks.speed.runs import main_job, solver_call_seconds


def main_job_speed(folder: Path, record: Record, extra: Sequence[str] = ()) -> None:
    """Question 12: run the main job once in `folder` (`extra`: options after it, for
    tests only) and check issue 32's targets."""
    print("\n12. the main job: python -m benchmarks run --out DIR (every file of data/sets/, "
          "default solvers and workers), one run")  # fmt: skip
    wall, usage, document = main_job(folder, extra)
    meta = document["metadata"]
    workers = meta["worker_cpu_seconds"]
    calls = solver_call_seconds(document)
    command = usage.ru_utime + usage.ru_stime
    for key, value in (("wall", wall), ("worker_cpu", workers), ("solver_calls", calls),
                       ("command_cpu", command)):  # fmt: skip
        record.figure(f"12.main_job.{key}", value, "s")
    runs = sum(s["grids"] for s in document["summaries"])
    print(f"   {meta['grids_done']:,} grids, {len(meta['solvers'])} solvers ({runs:,} solver "
          f"runs), {meta['workers']} worker(s) on {meta['cores']} cores; load average at "
          f"the end {load()}")  # fmt: skip
    print(f"   wall {wall:.2f} s (start-up included); the workers' processor time "
          f"{workers:.2f} s; solver calls {calls:.2f} s (its report's time per solver, "
          f"summed); the whole command's processor time {command:.2f} s")  # fmt: skip
    print(record.target("main-job-wall", wall))
    print(record.target("main-job-cpu", workers / calls if calls else float("nan")))
