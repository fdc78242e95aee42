"""Question 7: the BxB rating of depth-2 grids (`solvers.ratings.bxb`).

Its median on a sample of `berthier-eleven-te2` (berthier_eleven_te2_dev.tsv, 5,274
grids: every K-th grid, `--bxb-every K`, K = 1 for all of them), Easter Monster, and a
time limit of 2 s on a grid it cannot finish in 2 s (mith's first T&E(3) grid): the
rating should stop close to it.  Wall times, with the process's processor time beside
them: on a loaded machine the two differ, and issue 35's targets are on processor time
(the rating runs on one thread, so an idle machine's wall time is its processor time).
"""

from __future__ import annotations

import time

from benchmarks.paths import load
from benchmarks.speed.common import DEEPER_SET, GEOMETRY, public_set, read_grids
from benchmarks.speed.record import Record
from benchmarks.timing import median
from encoder.errors import GridError
from encoder.grids import parse_grid

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
BXB_SET = "berthier-eleven-te2"
ELEVEN_B2B = "12.4....945.....2...9.......6...58......6...7..19...5.3...78.........3....52...4."
TIME_LIMIT = 2.0  # seconds, on a grid the rating cannot finish in that time


def bxb_speed(every: int, record: Record) -> None:
    """Question 7: the BxB rating's median on a sample of eleven's T&E(2) grids, Easter
    Monster, and how closely it keeps a time limit."""
    from solvers.ratings.bxb import BxbRater

    rater = BxbRater(GEOMETRY)
    print(f"\n7. BxB rating of depth-2 grids (load average {load()})")

    def rate(grid: tuple[int, ...], limited: BxbRater = rater) -> tuple[float, float, str]:
        wall, cpu = time.perf_counter(), time.process_time()
        label = limited.rate(grid).label()
        return time.perf_counter() - wall, time.process_time() - cpu, label

    rate(parse_grid(ELEVEN_B2B, GEOMETRY))  # a first rating before anything is timed
    try:
        sample = read_grids(BXB_SET)[::every]
    except GridError as error:
        record.skipped(f"bxb-median, bxb-median-cpu: {error}")
        print(f"   {BXB_SET}: not measured ({error})")
    else:
        times = [rate(grid) for grid in sample]
        walls, cpus = [t[0] for t in times], [t[1] for t in times]
        record.figure("7.sample.wall.median", median(walls), "s")
        record.figure("7.sample.cpu.median", median(cpus), "s")
        print(f"   {len(sample)} grids (every K-th of {BXB_SET}, K = {every}): median "
              f"{median(walls):.3f} s wall, {median(cpus):.3f} s processor")  # fmt: skip
        print(record.target("bxb-median", median(walls)))
        print(record.target("bxb-median-cpu", median(cpus)))
    wall, cpu, label = rate(parse_grid(EASTER_MONSTER, GEOMETRY))
    record.figure("7.easter_monster.wall", wall, "s")
    record.figure("7.easter_monster.cpu", cpu, "s")
    print(f"   Easter Monster: BxB {label}, {wall:.2f} s wall, {cpu:.2f} s processor")
    print(record.target("bxb-easter", wall))
    print(record.target("bxb-easter-cpu", cpu))
    deeper_source, no_deeper = public_set(None, DEEPER_SET)
    if deeper_source is None:
        record.skipped(f"bxb-time-limit: {no_deeper}")
        print(f"   time limit: not measured ({no_deeper})")
        return
    limited = BxbRater(GEOMETRY, time_limit=TIME_LIMIT)
    wall, _, label = rate(read_grids(deeper_source, 1)[0], limited)
    record.figure("7.time_limit.wall", wall, "s")
    print(f"   time limit {TIME_LIMIT:g} s on a T&E(3) grid: {label} after {wall:.3f} s")
    print(record.target("bxb-time-limit", wall / TIME_LIMIT))
