"""Files of puzzles: one grid a line (or one grid laid out over N lines), or one column
of a CSV/TSV table.

This is the one reader of puzzle files for every front end: `#` comments and blank
lines are skipped, a table's puzzle column is named by `column` (default `puzzle`),
and every problem is a `GridError(message, path, line)`.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

from encoder.errors import GridError, read_text
from encoder.grids import PuzzleText, split_puzzles

TABLE_SUFFIXES = {".csv": ",", ".tsv": "\t"}


def is_table(path: str) -> bool:
    """Return True when the file name says CSV or TSV."""
    return Path(path).suffix.lower() in TABLE_SUFFIXES


def _table_texts(text: str, path: str, column: str | None, delimiter: str) -> list[PuzzleText]:
    reader = csv.reader(text.splitlines(), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise GridError("empty file: expected a header line", path, 1) from None
    wanted = column or "puzzle"
    if wanted not in header:
        hint = "" if column else "; name the puzzle column with --column"
        raise GridError(
            f"no column {wanted!r} (columns: {', '.join(header)}){hint}", path, reader.line_num
        )
    at = header.index(wanted)
    texts = []
    for row in reader:
        if not row or row[0].lstrip().startswith("#"):
            continue
        line = reader.line_num
        if at >= len(row):
            raise GridError(f"row has {len(row)} fields, no {wanted!r}", path, line)
        try:
            [puzzle] = split_puzzles(row[at], path)
        except GridError as error:
            raise GridError(error.message, path, line) from None
        except ValueError:
            raise GridError("expected one grid in the puzzle column", path, line) from None
        texts.append(replace(puzzle, line=line))
    return texts


def read_texts(path: str, column: str | None = None, size: int | None = None) -> list[PuzzleText]:
    """Return the puzzle texts of a dataset file, with their line numbers (none for a
    file of comments only, or a table with a header only)."""
    text = read_text(path, GridError)
    delimiter = TABLE_SUFFIXES.get(Path(path).suffix.lower())
    if delimiter is not None:
        return _table_texts(text, path, column, delimiter)
    if column is not None:
        raise GridError("--column applies to CSV/TSV files only", path)
    if not any(line.split("#", 1)[0].strip() for line in text.splitlines()):
        return []  # only comments: a generator that found nothing (reported, skipped)
    return split_puzzles(text, path, size)  # also accepts one grid laid out over N lines
