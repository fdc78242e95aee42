"""Question 5 (`--scale N,...`): grids/s and peak memory (RSS of the largest process) of
`rate` and `run` over N grids, the 17-clue list repeated into a temporary file.

`--no-length` (with `--scale-length`, by default too: at about 750 grids/s, hours for a
million grids); with each count of local `--workers` (e.g. 1,2), and on the Dask cluster
of `--scheduler` (e.g. `scripts/netns_cluster.sh`'s).  Targets, on each place: `rate
--no-length` over 1,000,000 grids in under 2 minutes, its peak memory no more than 1.25x
that of the smallest N.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.speed.record import Record
from benchmarks.speed.runs import ONE_WORKER, harness_run, rate_run, repeated

__all__ = ["ONE_WORKER", "at_scale"]

MILLION = 1_000_000

# Question 5's commands: what the line names, and how it is run.
SCALED_COMMANDS = (
    ("solvers rate --max-depth 1", rate_run),
    ("benchmarks run up,fl,minisat22", harness_run),
)


def at_scale(
    source: str,
    lines: list[str],
    sizes: list[int],
    folder: Path,
    places,
    lengths=(False,),
    record: Record | None = None,
) -> None:
    """Question 5: grids/s and peak memory of rate and run over large files, on each of
    `places` ((what it is, executor flags)), without the refutation-length rating (False
    in `lengths`) and with it (True)."""
    record = Record() if record is None else record
    print(f"\n5. at scale: the grids of {source} repeated")
    peaks: dict[str, list[float]] = {place: [] for place, _ in places}
    for size in sizes:
        path = repeated(lines, size, folder / f"scale_{size}.txt")
        for place, where in places:
            for command, run in SCALED_COMMANDS:
                for length in lengths:  # the targets' way, then the default
                    wall, peak, _, count = run(path, folder, where, length=length)
                    plain = " --no-length" if run is rate_run else ""  # run: --length adds it
                    what = (
                        "   (no target) the same with the refutation-length rating"
                        if length
                        else f"   {command}{plain}, {size:,} grids, {place}"
                    )
                    key = f"5.{command.split()[1]}{'_length' if length else ''}.{size}.{place}"
                    record.figure(f"{key}.speed", count / wall, "grids/s")
                    record.figure(f"{key}.peak", peak, "MiB")
                    print(f"{what}: {count / wall:,.0f} grids/s ({wall:.1f} s), "
                          f"peak RSS {peak:,.0f} MiB", flush=True)  # fmt: skip
                    if run is rate_run and not length:
                        peaks[place].append(peak)
                        if size >= MILLION:
                            where_checked = f"{size:,} grids, {place}"
                            print(record.target("scale-million", wall * MILLION / size,
                                                where_checked))  # fmt: skip
        path.unlink()
    for place, seen in peaks.items():
        if len(seen) > 1:
            print(record.target("scale-memory", seen[-1] / seen[0], place))
