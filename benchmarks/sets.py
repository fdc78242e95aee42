"""The harness's puzzle sets: the grids of each set in run order, with what the report
says about the set (its name, checksum, variant and where the variant came from).

A set is anything `encoder.puzzle_files.read_puzzles` reads (a file of grids, a CSV/TSV
table, a catalogue name); the reader also finds its variant (the caller's, the
catalogue's, the file's header or its name).  What is the harness's own is here: which
grids run (`--shuffle` seeded, then `--limit`), the file's checksum for the results'
metadata, and names that tell two sets apart.  With no set named, the harness runs the
project's own sets (`default_files`, `benchmarks.paths.SETS`).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from encoder.geometry import Geometry
from encoder.grid_arrays import NotPlain, PlainFile, check_clashes, plain_file
from encoder.puzzle_files import Puzzle, PuzzleSource, open_source
from encoder.variant import Variant


@dataclass(frozen=True)
class Dataset:
    """The grids of one file, in run order (after --shuffle and --limit).  The grids
    themselves are read again, block by block, when the run needs them (`blocks`), so a
    set of millions of grids is never held whole; a shuffled set, standard input and a
    grid given as text are held (`held`)."""

    name: str  # the file's stem, or its name when two files share a stem
    path: str
    sha256: str  # of the file's bytes
    total: int  # grids in the file
    flags: str  # the geometry flags applied, as typed ("" for plain Sudoku)
    flags_from: str  # "command line", "catalogue", "header", "file name" or "none"
    variant: str  # e.g. "9x9, 3x3 boxes, diagonals" (first grid's geometry)
    count: int  # grids run
    size: int  # side of the first grid (0: none): 16x16 grids are far slower than 9x9
    lines: Sequence[int]  # 1-based line of each grid run in the file, in run order
    source: PuzzleSource = field(repr=False, compare=False)
    held: tuple[Puzzle, ...] | None = field(default=None, repr=False, compare=False)
    plain: PlainFile | None = field(default=None, repr=False, compare=False)  # read as arrays

    def blocks(self, size: int) -> Iterator[tuple[int, tuple[Puzzle, ...]]]:
        """Yield (position of the first grid, the grids) for consecutive blocks of `size`
        grids in run order, reading the file as it goes."""
        for first, puzzles, _ in self.grid_blocks(size):
            yield first, puzzles

    def grid_blocks(self, size: int) -> Iterator[tuple[int, tuple[Puzzle, ...], np.ndarray | None]]:
        """`blocks`, with the block's grids as int8 rows when the file was read as arrays
        (a plain file: the rows it was read into, one geometry), else None."""
        if size < 1:
            raise ValueError(f"block size must be >= 1, not {size}")
        if self.held is not None:
            for first in range(0, len(self.held), size):
                yield first, self.held[first : first + size], None
            return
        if self.plain is not None:  # a plain file: its grids read as arrays, a block at once
            geometry, path = self.plain.geometry, self.plain.path
            for first, values in self.plain.blocks(size):
                if first >= self.count:
                    return
                grids = values[: self.count - first].astype(np.int8, copy=False)
                puzzles = tuple(
                    Puzzle(geometry, tuple(row), f"{path}:{first + i + 1}")
                    for i, row in enumerate(grids.tolist())
                )
                yield first, puzzles, grids
            return
        geometries: dict[tuple[int, str | None], Geometry] = {}
        block: list[Puzzle] = []
        first = 0
        for text in itertools.islice(self.source.texts(allow_empty=True), self.count):
            # Clashing givens were refused when the set was read (`read_dataset`).
            block.append(self.source.puzzle(text, True, geometries))
            if len(block) == size:
                yield first, tuple(block), None
                first += size
                block = []
        if block:
            yield first, tuple(block), None

    @property
    def puzzles(self) -> tuple[Puzzle, ...]:
        """Every grid run, in run order, in memory (small sets, tests; a run reads
        `blocks`)."""
        return tuple(p for _, block in self.blocks(BLOCK) for p in block)


BLOCK = 4096  # grids parsed at a time by `Dataset.puzzles`


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def choose(total: int, limit: int | None, shuffle: bool, seed: int) -> list[int]:
    """Return the positions of the grids to run: shuffled (seeded) first, then cut."""
    order = list(range(total))
    if shuffle:
        random.Random(seed).shuffle(order)
    return order if limit is None else order[:limit]


def read_dataset(
    source: str,
    variant: Variant | None = None,
    column: str | None = None,
    limit: int | None = None,
    shuffle: bool = False,
    seed: int = 0,
) -> Dataset:
    """Read, select and check the grids of one file or catalogued set; `variant`: the
    command line's geometry options (they then win over the set's own).  Every grid
    that will run is parsed and checked now (a bad one is a GridError before anything
    runs), then dropped: the run reads them again (`Dataset.blocks`)."""
    opened = open_source(source, variant, column)
    geometries: dict[tuple[int, str | None], Geometry] = {}
    held = plain = None
    first: Geometry | None = None  # the first grid's
    if shuffle or opened.text is not None or opened.one_pass:  # held: not read twice
        texts = list(opened.texts(allow_empty=True))
        total = len(texts)
        chosen = choose(total, limit, shuffle, seed)
        held = tuple(opened.puzzle(texts[p], geometries=geometries) for p in chosen)
        lines = array("l", (texts[p].line for p in chosen))
        first = held[0].geometry if held else None
    elif (plain := _plain(opened, limit)) is not None:  # every line a grid: read as arrays
        total = plain.count
        lines = range(1, min(total, limit or total) + 1)  # limit: None or >= 1
        first = plain.geometry
    else:  # the first `limit` grids, in file order: streamed
        total = 0
        lines = array("l")
        for text in opened.texts(allow_empty=True):
            total += 1
            if limit is None or total <= limit:
                puzzle = opened.puzzle(text, geometries=geometries)
                first = first or puzzle.geometry
                lines.append(text.line)
    found = "command line" if opened.variant_from == "given" else opened.variant_from
    return Dataset(
        name=opened.name,
        path=opened.path,
        sha256=_sha256(opened.path) if opened.text is None and not opened.one_pass else "",
        total=total,
        flags=opened.variant.flags(),
        flags_from=found,
        variant=first.describe() if first else "",
        count=len(lines),
        size=first.size if first else 0,
        lines=lines,
        source=opened,
        held=held,
        plain=plain,
    )


def _plain(opened: PuzzleSource, limit: int | None) -> PlainFile | None:
    """The source as a plain file (`encoder.grid_arrays`), its grids read once and those
    that will run checked against the rules (a clash is the ClashError `read_puzzles`
    raises); None when it is not one, down to its last line."""
    plain = plain_file(opened)
    if plain is None:
        return None
    try:
        for first, values in plain.blocks(BLOCK):
            if limit is None or first < limit:
                check_clashes(values[: None if limit is None else limit - first], plain.geometry,
                              plain.path, first)  # fmt: skip
    except NotPlain:
        return None
    return plain


def unique_names(datasets: list[Dataset]) -> list[Dataset]:
    """Return the datasets renamed to their file names where two share a stem."""
    stems = [d.name for d in datasets]
    out = []
    for d in datasets:
        name = Path(d.path).name if stems.count(d.name) > 1 else d.name
        out.append(replace(d, name=name))
    names = [d.name for d in out]
    return [
        replace(d, name=f"{d.name}#{names[: i + 1].count(d.name)}")
        if names.count(d.name) > 1
        else d
        for i, d in enumerate(out)
    ]


def default_files(directory: Path) -> list[str]:
    """Return the dataset files of a directory (the project's data/sets), sorted."""
    if not directory.is_dir():
        return []
    suffixes = {".txt", ".sdk", ".csv", ".tsv"}
    return [
        str(p)
        for p in sorted(directory.iterdir())
        if p.is_file() and p.suffix.lower() in suffixes and not p.name.startswith(".")
    ]
