"""A benchmark run's results.csv: one row per grid and solver, written chunk by chunk so
that a run of a million grids never holds its rows (CSV_COLUMNS names the columns; a
figure not available is "n/a").
"""

from __future__ import annotations

import csv
from pathlib import Path

from benchmarks.report.tables import NA
from encoder.output_files import write_file
from solvers.results import NotAvailable

CSV_COLUMNS = (
    "dataset",
    "encoding",
    "position",
    "line",
    "solver",
    "status",
    "solved_without_search",
    "decisions",
    "conflicts",
    "propagations",
    "microseconds",
    "depth",
    "length",
    "bxb",
    "reason",
)


def _csv_value(value) -> str:
    if isinstance(value, NotAvailable):
        return NA
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def write_csv(path: Path, chunks) -> int:
    """Write one row per grid and solver, chunk by chunk; `chunks` yields (the
    dataset, a `ChunkResult` of it) in run order.  Return the number of rows."""
    rows = 0

    def write(handle) -> None:
        nonlocal rows
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for dataset, chunk in chunks:
            for r in chunk.runs:
                offset = r.position - chunk.first
                writer.writerow(
                    [
                        dataset.name,
                        chunk.encoding,
                        r.position,
                        dataset.lines[r.position],
                        r.result.solver,
                        r.result.status.name,
                        _csv_value(r.without_search),
                        _csv_value(r.result.decisions),
                        _csv_value(r.result.conflicts),
                        _csv_value(r.result.propagations),
                        f"{r.result.seconds * 1e6:.1f}",
                        chunk.depths[offset] if chunk.depths else "",
                        chunk.lengths[offset] if chunk.lengths else "",
                        chunk.bxbs[offset] if chunk.bxbs else "",
                        r.result.reason,
                    ]
                )
                rows += 1

    write_file(path, write)  # renamed into place when complete (`puzzles.outputs`)
    return rows
