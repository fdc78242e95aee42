"""A benchmark run's results.csv: one row per grid and solver, written chunk by chunk so
that a run of a million grids never holds its rows (CSV_COLUMNS names the columns; a
figure not available is "n/a").
"""

from __future__ import annotations

import csv
from itertools import repeat
from pathlib import Path

import numpy as np

from benchmarks.report.tables import NA as NA_TEXT
from encoder.output_files import write_file
from solvers.results import NA, Status

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


def write_csv(path: Path, chunks) -> int:
    """Write one row per grid and solver, chunk by chunk, a solver's answers on a chunk
    (`solvers.results.Answers`) turned into text column by column; `chunks` yields (the
    dataset, a `ChunkResult` of it) in run order.  Return the number of rows."""
    rows = 0

    def write(handle) -> None:
        nonlocal rows
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for dataset, chunk in chunks:
            count = chunk.count
            positions = range(chunk.first, chunk.first + count)
            lines = [str(dataset.lines[p]) for p in positions]
            ratings = [
                list(column) if column else [""] * count
                for column in (chunk.depths, chunk.lengths, chunk.bxbs)
            ]
            for answers in chunk.answers:
                statuses = [STATUS_NAMES[code] for code in answers.status.tolist()]
                reasons = [answers.reasons.get(i, "") for i in range(count)]
                writer.writerows(
                    zip(
                        repeat(dataset.name, count), repeat(chunk.encoding, count),
                        map(str, positions), lines, repeat(answers.solver, count), statuses,
                        _texts(answers.without_search, FLAGS), _texts(answers.decisions),
                        _texts(answers.conflicts), _texts(answers.propagations),
                        [f"{seconds * 1e6:.1f}" for seconds in answers.seconds.tolist()],
                        *ratings, reasons,
                        strict=True,
                    )
                )  # fmt: skip
                rows += count

    write_file(path, write)  # renamed into place when complete (`puzzles.outputs`)
    return rows


STATUS_NAMES = {status.value: status.name for status in Status}
FLAGS = {1: "1", 0: "0"}  # solved without search, as the other columns say a boolean


def _texts(column: np.ndarray, words: dict[int, str] | None = None) -> list[str]:
    """A column of figures as the CSV writes them: NA as "n/a", a flag as 1 or 0."""
    values = column.tolist()
    if words is not None:
        return [words.get(v, NA_TEXT) for v in values]
    return [NA_TEXT if v == NA else str(v) for v in values]
