"""Question 4: the commands at the speed of their kernels, one worker.

Both with `--no-length` (the targets were set for the depth rating and the solver
calls): `solvers rate --max-depth 1` over the 17-clue list, its wall time less start-up
against the summed kernel time it prints, and its whole wall time against a loop of
`Minisat22.propagate` over the same grids; `benchmarks run --solvers up,fl,minisat22`,
its wall time less start-up against the summed time of the solver calls it reports.
Start-up is the same command on the list's first grid.  Each command is run again as
by default, with the refutation-length rating; `solvers rate` a third time exactly as it
runs by default (no `--max-depth`: issue 35's target, on processor time less start-up).
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.speed.common import minisat_loop, read_givens
from benchmarks.speed.record import Record
from benchmarks.speed.runs import harness_run, rate_run, rate_usage


def rate_speed(one: Path, grids: Path, folder: Path, **options) -> tuple[float, ...]:
    """Run `solvers rate` (`rate_run`'s options) on one grid, then on the list: return
    (wall, start-up, summed kernel time, grids / (wall - start-up))."""
    start_up, _, _, _ = rate_run(one, folder, **options)
    wall, _, kernel, rated = rate_run(grids, folder, **options)
    return wall, start_up, kernel, rated / max(wall - start_up, 1e-9)


def keep(record: Record, key: str, wall: float, start_up: float, kernel: float,
         speed: float) -> None:  # fmt: skip
    """Record a rate run's figures under `key`."""
    for name, value, unit in (("wall", wall, "s"), ("start_up", start_up, "s"),
                              ("kernel", kernel, "s"), ("speed", speed, "grids/s")):  # fmt: skip
        record.figure(f"{key}.{name}", value, unit)


def commands(source: str, lines: list[str], folder: Path, record: Record) -> None:
    """Question 4: the commands' wall time against their kernels' (one worker)."""
    grids = folder / "grids.txt"
    one = folder / "one.txt"
    grids.write_text("".join(lines), encoding="utf-8")
    one.write_text(lines[0], encoding="utf-8")
    print(f"\n4. the commands against their kernels, one worker, {len(lines)} grids of {source}")
    wall, start_up, kernel, speed = rate_speed(one, grids, folder)
    keep(record, "4.rate", wall, start_up, kernel, speed)
    print(f"   solvers rate --max-depth 1 --no-length: wall {wall:.2f} s, start-up "
          f"{start_up:.2f} s, summed kernel time {kernel:.2f} s "
          f"({speed:,.0f} grids/s)")  # fmt: skip
    print(record.target("rate-overhead", (wall - start_up) / kernel))
    loop = minisat_loop(read_givens(str(grids), None))
    record.figure("4.minisat22_loop", loop, "s")
    print(f"   a Minisat22.propagate loop over the same grids: {loop:.2f} s")
    print(record.target("rate-vs-loop", wall / loop))
    # The targets were set for the depth rating; the refutation-length rating (the
    # default) is measured too, for information (its seconds count both ratings).
    wall, start_up, kernel, speed = rate_speed(one, grids, folder, length=True)
    record.figure("4.rate_length.wall", wall, "s")
    record.figure("4.rate_length.kernel", kernel, "s")
    print(f"   with the refutation-length rating (the default): wall {wall:.2f} s, "
          f"summed kernel time {kernel:.2f} s ({speed:,.0f} grids/s), (wall - start-up) / "
          f"kernel time {(wall - start_up) / kernel:.2f}")  # fmt: skip
    print(record.target("rate-length-speed", speed))
    # Issue 35's: the command exactly as it runs by default (its own maximum depth), in
    # processor time: on a machine shared with other jobs the wall time measures the
    # queue for the processor too (the wall figure is printed beside it).
    start_up, start_up_cpu, _, _ = rate_usage(one, folder, length=True, max_depth=None)
    wall, cpu, kernel, rated = rate_usage(grids, folder, length=True, max_depth=None)
    speed = rated / max(cpu - start_up_cpu, 1e-9)
    keep(record, "4.rate_default", wall, start_up, kernel, rated / max(wall - start_up, 1e-9))
    record.figure("4.rate_default.cpu", cpu, "s")
    record.figure("4.rate_default.start_up_cpu", start_up_cpu, "s")
    print(f"   solvers rate as by default (no --max-depth, the length rating): wall "
          f"{wall:.2f} s, start-up {start_up:.2f} s ({rated / max(wall - start_up, 1e-9):,.0f} "
          f"grids/s); processor time {cpu:.2f} s, start-up {start_up_cpu:.2f} s; summed "
          f"kernel time {kernel:.2f} s")  # fmt: skip
    print(record.target("rate-length-royle17", speed))
    start_up, _, _, _ = harness_run(one, folder)
    wall, _, calls, ran = harness_run(grids, folder)
    record.figure("4.run.wall", wall, "s")
    record.figure("4.run.start_up", start_up, "s")
    record.figure("4.run.solver_calls", calls, "s")
    print(f"   benchmarks run --solvers up,fl,minisat22: wall {wall:.2f} s, start-up "
          f"{start_up:.2f} s, summed solver calls {calls:.2f} s ({ran} grids)")  # fmt: skip
    print(record.target("run-overhead", (wall - start_up) / calls))
    # The targets were set for the depth rating and the solver calls; the refutation-length
    # rating (the default) is measured too, for information.
    start_up, _, _, _ = harness_run(one, folder, length=True)
    wall, _, calls, ran = harness_run(grids, folder, length=True)
    record.figure("4.run_length.wall", wall, "s")
    record.figure("4.run_length.solver_calls", calls, "s")
    print(f"   (no target) with the refutation-length rating (the default): wall {wall:.2f} s, "
          f"start-up {start_up:.2f} s, (wall - start-up) / solver-call time "
          f"{(wall - start_up) / calls:.2f}")  # fmt: skip
