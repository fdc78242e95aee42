"""A plain file of grids as numpy arrays: one byte a cell, a row a grid, without a Python
record per grid.

The plain case is a regular file in which every line is one grid of the same N*N
symbols or blanks and nothing else (no comment, blank line, separator, CR, byte-order
mark or jigsaw map): `plain_file` says whether a source is one from its size and first
line, and `PlainFile.blocks` reads it a block of rows at a time (memory flat however
long the file), refusing a block that turns out not to be plain (`NotPlain`: the caller
then reads the file through `read_puzzles`, whose rules say what is wrong).
`grid_array` reads a small one whole (`solvers rate`); `check_clashes` refuses givens
that break the rules, as `read_puzzles` does, for a whole block at once.  The grids are
those `read_puzzles` yields, row i being the grid of line i + 1.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from math import isqrt

import numpy as np

from encoder.errors import GridError
from encoder.geometry import Geometry
from encoder.grids import describe_clash, find_clashes, value_table
from encoder.puzzle_files import (
    STREAM_LINES,
    WHOLE_BYTES,
    ClashError,
    Puzzle,
    PuzzleSource,
    is_square,
)

CLASH_ROWS = 1 << 14  # grids whose houses are compared at once by `check_clashes`


class NotPlain(ValueError):
    """A block of a file that looked plain holds something else."""


@dataclass(frozen=True)
class GridArray:
    """The grids of a plain file read whole (`grid_array`): `values[i]`, one byte a cell
    (0 for a blank), is the grid of line i + 1, of `geometry`."""

    geometry: Geometry
    values: np.ndarray  # int8, shape (grids, N*N)
    path: str

    def puzzle(self, row: int) -> Puzzle:
        """Return row `row` as `read_puzzles` yields it."""
        return Puzzle(self.geometry, tuple(self.values[row].tolist()), f"{self.path}:{row + 1}")


@dataclass(frozen=True)
class PlainFile:
    """A plain file of `count` grids of `geometry`, each line `width` bytes."""

    path: str
    geometry: Geometry
    width: int
    count: int
    size: int  # bytes

    def blocks(self, rows: int) -> Iterator[tuple[int, np.ndarray]]:
        """Yield (the first row, the grids as int8 rows) for blocks of `rows` grids, in
        file order; raise NotPlain at a block that is not plain."""
        cells = self.width - 1
        table = np.full(256, 255, dtype=np.uint8)  # 255: not a symbol nor a blank
        for byte, value in value_table(self.geometry.symbols).items():
            table[byte] = value
        with open(self.path, "rb") as handle:
            for first in range(0, self.count, rows):
                many = min(rows, self.count - first)
                data = handle.read(many * self.width)
                if len(data) == many * self.width - 1 and first + many == self.count:
                    data += b"\n"  # the last line without its newline
                if len(data) != many * self.width:
                    raise NotPlain(f"{self.path}: the file changed while read")
                lines = np.frombuffer(data, dtype=np.uint8).reshape(many, self.width)
                if (lines[:, cells] != ord("\n")).any():
                    raise NotPlain(f"{self.path}: a line of another length")
                values = table[lines[:, :cells]]
                if (values == 255).any():
                    raise NotPlain(f"{self.path}: a character that is no cell")
                yield first, values.view(np.int8)


def plain_file(source: PuzzleSource) -> PlainFile | None:
    """Return `source` as a plain file (see the module docstring), or None when it cannot
    be one: not a regular file, lines of unequal length, a side or a geometry that is
    not the file's (a numeric or jigsaw geometry, a variant of another size)."""
    if source.text is not None or source.one_pass or source.is_table or source.column:
        return None
    try:
        if not stat.S_ISREG(os.stat(source.path).st_mode):
            return None
        size = os.path.getsize(source.path)
        with open(source.path, "rb") as handle:
            head = handle.read(1 << 16)
    except (OSError, ValueError):
        return None  # the reading reports it
    width = head.find(b"\n") + 1
    if width == 0:  # one line, without its newline
        width = size + 1 if size and len(head) == size else 0
    cells = width - 1
    if not size or not is_square(cells) or (size % width and (size + 1) % width):
        return None
    count = -(-size // width)
    # split_puzzles reads a block of exactly N*N lines of N*N cells as one laid-out grid
    if (count - 1) % STREAM_LINES + 1 == cells:
        return None
    n = isqrt(cells)
    if (source.variant.size or (source.geometry.size if source.geometry else n)) != n:
        return None
    try:
        geometry = source.geometry or source.variant.geometry(n, None, (source.path, 1))
    except GridError:
        return None  # the reading reports it, at its line
    if geometry.numeric:
        return None
    return PlainFile(source.path, geometry, width, count, size)


def grid_array(source: PuzzleSource) -> GridArray | None:
    """Return the grids of `source` read whole in a few numpy calls, or None unless it is
    a plain file of at most WHOLE_BYTES.  What None leaves to `source.puzzles()` reads
    the same grids, one Python record each; the grids are not checked against the rules
    (as `read_puzzles(..., allow_conflicts=True)`)."""
    plain = plain_file(source)
    if plain is None or plain.size > WHOLE_BYTES:
        return None
    try:
        _, values = next(plain.blocks(plain.count))
    except NotPlain:
        return None
    return GridArray(plain.geometry, values, source.path)


def check_clashes(values: np.ndarray, geometry: Geometry, path: str, first: int = 0) -> None:
    """Raise the ClashError `read_puzzles` raises for the first row of `values` (row i
    the grid of line first + i + 1) whose givens break the rules: a value twice in a
    region.  The regions of all rows are compared at once, CLASH_ROWS rows at a time."""
    regions: dict[int, list] = {}
    for region in geometry.regions:
        regions.setdefault(len(region.cells), []).append(region.cells)
    houses = [np.array(cells, dtype=np.intp) for cells in regions.values()]
    for start in range(0, values.shape[0], CLASH_ROWS):
        block = values[start : start + CLASH_ROWS]
        bad = np.zeros(block.shape[0], dtype=bool)
        for cells in houses:
            seen = np.sort(block[:, cells], axis=2)
            bad |= ((seen[:, :, 1:] == seen[:, :, :-1]) & (seen[:, :, 1:] > 0)).any(axis=(1, 2))
        if bad.any():
            row = start + int(np.flatnonzero(bad)[0])
            clashes = find_clashes(tuple(values[row].tolist()), geometry)
            more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
            line = first + row + 1
            raise ClashError(f"{describe_clash(clashes[0], geometry)}{more}", path, line)


def line_rows(lines: list[str], geometry: Geometry) -> np.ndarray | None:
    """Return grid strings of `geometry` (one symbol or blank a cell, N*N each) as int8
    rows in a few numpy calls, or None when one of them is not such a string (the caller
    then parses them one by one, whose errors say what is wrong).  Givens are not
    checked against the rules."""
    cells = geometry.num_cells
    try:
        if not geometry.symbols or (lines and set(map(len, lines)) != {cells}):
            return None
        data = "".join(lines).encode("ascii")
    except (TypeError, UnicodeEncodeError):  # not strings, or not one byte a symbol
        return None
    table = np.full(256, 255, dtype=np.uint8)  # 255: not a symbol nor a blank
    for byte, value in value_table(geometry.symbols).items():
        table[byte] = value
    values = table[np.frombuffer(data, np.uint8)].reshape(len(lines), cells)
    if (values == 255).any():
        return None
    return values.view(np.int8)
