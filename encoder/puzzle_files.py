"""The one way to read puzzles: `read_puzzles(source, geometry=None)` yields `Puzzle`s.

A source is a grid written out (one line, a grid laid out over N lines, or numbers), a
file of grids (one a line, `puzzle|regions` for jigsaw, or one grid laid out over N
lines), a CSV/TSV table with a puzzle column (`column`, default `puzzle`), `-` for
standard input, or the name of a catalogued public set (`top95`: its verified local
copy, see `puzzlesets`).  Every command, the harness, `solvers.solve` and the notebook
read through here; `encoder.grids.parse_grid(text, geometry)` parses one grid beneath.

The variant (X, Hyper, ...) of a source is found here, in this order, so that every
reader of a file sees the same one:
1. the `geometry` the caller gives (a `Geometry`, or a `Variant` whose options are set:
   the command line's flags);
2. for a catalogued set, the catalogue;
3. a header comment `# geometry: FLAGS` (the encoder's geometry flags: `--diagonals`,
   `--windows`, `--box 2x3`, `--symbols 0-F`, ...), or else the geometry flags of the
   `# command: python -m benchmarks generate ...` line `puzzles.generate` writes;
4. the file name: a word `x` or `diagonals` -> `--diagonals`, `hyper`, `windoku` or
   `windows` -> `--windows` (`andoku_standard_x.txt`, `sudoku9_hyper.txt`).
Jigsaw regions always come from the `puzzle|regions` lines themselves.  The variant is
a fact about the file (its header, its name, its catalogue entry), which is why it is
found by the reader of files, in the encoder, and not by each command that reads one.

A file is read STREAM_LINES lines at a time, so memory stays flat however long it is
(a table, stdin or a grid given as text is read whole: stdin by `open_source`, which
reads its header there as a file's); a problem is a
`GridError(message, path, line)`, raised when its block is read.  A file that can be
read only once (a pipe, `<(cat grids.txt)`, a FIFO, a terminal) is opened once, by
`open_source`: its header is looked for in the first lines read, which are kept and
streamed with the rest (`OnePass`); a regular file is opened again for each reading.
The plain case, a regular file of clean grid lines and nothing else, can also be read
into numpy arrays (`encoder.grid_arrays`): the same grids, without a Python record
each; anything else is left to `read_puzzles` and its rules.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from math import isqrt
from pathlib import Path

from encoder.errors import GridError, read_text, unreadable
from encoder.geometry import SUPPORTED_SIZES, Geometry
from encoder.grids import (
    SEPARATORS,
    PuzzleText,
    describe_clash,
    find_clashes,
    looks_like_path,
    parse_cells,
    size_of_puzzle,
    split_puzzles,
)
from encoder.numbering import Grid
from encoder.variant import Variant
from puzzlesets import PuzzleSet, PuzzleSetError, locate, lookup

TABLE_SUFFIXES = {".csv": ",", ".tsv": "\t"}
STREAM_LINES = 1 << 16  # lines of a file of grids read at a time
WHOLE_BYTES = 1 << 26  # a plain file of grids read whole by `encoder.grid_arrays`, at most
HEAD_CHARACTERS = 1 << 16  # the start of a file searched for its header
HEADER_KEY = re.compile(r"^\s*#\s*geometry\s*:\s*(.*)$", re.IGNORECASE)
COMMAND_KEY = re.compile(r"^\s*#\s*command\s*:\s*(.*)$", re.IGNORECASE)
NAME_FLAGS = {
    "x": "--diagonals",
    "diagonal": "--diagonals",
    "diagonals": "--diagonals",
    "hyper": "--windows",
    "windoku": "--windows",
    "windows": "--windows",
}
ARGUMENT = "<argument>"  # the path of a grid given as text
_SIDES = "N from 4 to 35, or numbers separated by spaces or commas"
_NUMBERS = re.compile(r"[0-9.]+(?:[\s,|]+[0-9.]+)+")  # a grid in numbers, on one line


@dataclass(frozen=True)
class Puzzle:
    """A grid ready to encode: its geometry, values, and where it was read."""

    geometry: Geometry
    grid: Grid
    source: str  # 'FILE:LINE'

    def _repr_svg_(self) -> str:
        """The grid's picture, shown by notebooks."""
        from encoder.picture import grid_svg

        return grid_svg(self.geometry, self.grid)


class ClashError(GridError):
    """Givens that break the rules (the same value twice in a region)."""


class OnePass:
    """A file that can be read once (a pipe, a FIFO): opened once, its first lines (at
    least HEAD_CHARACTERS, for the header) read and kept, then `lines` streams those and
    the rest, once.  Bytes that are not UTF-8 are a GridError at their line."""

    def __init__(self, path: str):
        try:
            raw = open(path, "rb")  # noqa: SIM115 (closed by `lines`)
        except OSError as error:
            raise GridError(unreadable(path, error)[0], path) from None
        # as `open(path, encoding="utf-8-sig")` reads a file, a byte that is not UTF-8
        # kept as a surrogate until its line is taken (`_checked`), then refused there
        self.handle = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="surrogateescape")
        self.path = path
        self.head: list[str] = []
        read = 0
        while read < HEAD_CHARACTERS:
            line = self._readline()
            if not line:
                break
            self.head.append(line)
            read += len(line)
        self.taken = False

    def header_text(self) -> str:
        """The first lines, for the header (the bytes that are not UTF-8 replaced)."""
        return "".join(self.head).encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    def lines(self) -> Iterator[str]:
        """Yield every line of the file, the first ones kept included; once only."""
        if self.taken:
            raise RuntimeError(f"{self.path} can be read once, and was")
        self.taken = True
        head, self.head = self.head, []
        with self.handle:
            for number, line in enumerate(itertools.chain(head, iter(self._readline, "")), 1):
                yield line if line.isascii() else _checked(line, self.path, number)

    def _readline(self) -> str:
        try:
            return self.handle.readline()
        except OSError as error:
            raise GridError(unreadable(self.path, error)[0], self.path) from None


def _checked(line: str, path: str, number: int) -> str:
    """Return a line read with errors="surrogateescape", or raise GridError at its first
    byte that is not UTF-8 (as `encoder.errors.unreadable` words it)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as error:
        byte = ord(line[error.start]) - 0xDC00
        column = len(line[: error.start].encode("utf-8", "surrogateescape")) + 1
        message = f"not UTF-8 text: byte 0x{byte:02x} at column {column}"
        raise GridError(message, path, number) from None
    return line


@dataclass(frozen=True)
class PuzzleSource:
    """What a source argument names, and the variant its grids are read with."""

    name: str  # catalogue name, file stem, '<argument>' or '<stdin>'
    path: str  # the file read; '-' for stdin; '<argument>' for a grid given as text
    text: str | None  # the grid itself when given as text, stdin's text for '-', else None
    variant: Variant
    variant_from: str  # 'given', 'catalogue', 'header', 'file name' or 'none'
    column: str | None  # a table's puzzle column
    geometry: Geometry | None = None  # a fixed geometry the caller gave
    once: OnePass | None = field(default=None, compare=False, repr=False)  # see OnePass

    @property
    def is_table(self) -> bool:
        return self.text is None and self.path != "-" and is_table(self.path)

    @property
    def one_pass(self) -> bool:
        """True when the source can be read only once (stdin, a pipe, a FIFO): whoever
        needs its grids twice keeps them."""
        return self.path == "-" or self.once is not None

    def texts(self, allow_empty: bool = False) -> Iterator[PuzzleText]:
        """Yield the unparsed puzzles, with their lines (a file streamed; see the module
        docstring).  A source with no grid at all (only comments) is a GridError unless
        `allow_empty`; a table with a header only yields nothing."""
        found = False
        for text in self._texts():
            found = True
            yield text
        if not found and not allow_empty and not self.is_table:
            raise GridError("no grid found (only blank lines or comments)", self._shown())

    def _shown(self) -> str:
        return "<stdin>" if self.path == "-" else self.path

    def _texts(self) -> Iterator[PuzzleText]:
        size = self.geometry.size if self.geometry is not None else self.variant.size
        if self.path == "-":
            if _has_grid(self.text):
                yield from split_puzzles(self.text, "<stdin>", size)
        elif self.text is not None:
            yield from split_puzzles(self.text, ARGUMENT, size)
        elif self.is_table:
            delimiter = TABLE_SUFFIXES[Path(self.path).suffix.lower()]
            if self.once is not None:
                text = "".join(self.once.lines()).removeprefix("\ufeff")
            else:
                text = read_text(self.path, GridError)
            yield from _table_texts(text, self.path, self.column, delimiter)
        else:
            if self.column is not None:
                raise GridError("--column applies to CSV/TSV files only", self.path)
            if self.once is not None:
                yield from _blocks(self.once.lines(), self.path, size)
            else:
                yield from _stream(self.path, size)

    def puzzles(self, allow_conflicts: bool = False) -> Iterator[Puzzle]:
        """Yield the puzzles (see `read_puzzles`)."""
        geometries: dict[tuple[int, str | None], Geometry] = {}
        for text in self.texts():
            yield self.puzzle(text, allow_conflicts, geometries)

    def puzzle(
        self,
        text: PuzzleText,
        allow_conflicts: bool = False,
        geometries: dict[tuple[int, str | None], Geometry] | None = None,
    ) -> Puzzle:
        """Parse one puzzle text of this source; refuse clashing givens unless allowed
        (`geometries`: a cache kept from grid to grid by the caller)."""
        where = (text.path, text.line)
        n = self.variant.size or (
            self.geometry.size if self.geometry is not None else size_of_puzzle(text)
        )
        geometry = self.geometry
        if geometry is None:
            key = (n, text.regions)
            cached = geometries.get(key) if geometries is not None else None
            geometry = cached or self.variant.geometry(n, text.regions, where)
            if geometries is not None:
                if len(geometries) > 64:  # jigsaw: one geometry per grid, keep few
                    geometries.clear()
                geometries[key] = geometry
        grid = parse_cells(text.cells, geometry, *where)
        if not allow_conflicts:
            clashes = find_clashes(grid, geometry)
            if clashes:
                detail = describe_clash(clashes[0], geometry)
                more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
                raise ClashError(f"{detail}{more}", *where)
        return Puzzle(geometry, grid, f"{text.path}:{text.line}")


def read_puzzles(
    source: str,
    geometry: Geometry | Variant | None = None,
    *,
    column: str | None = None,
    allow_conflicts: bool = False,
) -> Iterator[Puzzle]:
    """Yield the puzzles of `source` (a grid, a file, '-', or a catalogue name; see the
    module docstring), each with its geometry: `geometry` itself when it is a
    `Geometry`, else the variant it or the source gives.  Givens that break the rules
    are a `ClashError` unless `allow_conflicts`.

    >>> from encoder import read_puzzles
    >>> [p.source for p in read_puzzles("data/sets/sudoku4_minimal.txt")][:2]
    ['data/sets/sudoku4_minimal.txt:6', 'data/sets/sudoku4_minimal.txt:7']
    >>> next(read_puzzles("..12....4.3.....")).geometry.describe()
    '4x4, 2x2 boxes'
    """
    return open_source(source, geometry, column).puzzles(allow_conflicts)


def open_source(
    source: str, geometry: Geometry | Variant | None = None, column: str | None = None
) -> PuzzleSource:
    """Return what `source` names and the variant its grids are read with (nothing is
    read beyond a file's first 64 kB, for its header; a file that can be read only once
    is opened here, and those lines kept: `OnePass`).  Nothing is downloaded: a public
    set not on this machine is a GridError naming the command that fetches it."""
    fixed = geometry if isinstance(geometry, Geometry) else None
    given = geometry if isinstance(geometry, Variant) else Variant()
    entry = _named_set(source)
    text = None
    once = None
    if entry is not None:
        path, name = _set_path(entry), entry.name
        column = column or entry.column
    elif _is_grid_text(source):
        path, name, text = ARGUMENT, ARGUMENT, source
    else:
        path = source
        name = "<stdin>" if source == "-" else Path(source).stem
        once = OnePass(path) if source != "-" and _read_once(path) else None
        if source == "-":  # read here, whole, once: its header says the variant too
            text = read_text("-", GridError)
    if fixed is not None or given.given:
        variant, found = given, "given"
    elif entry is not None:
        variant, found = _catalogue_variant(entry), "catalogue" if entry.flags else "none"
    else:
        variant, found = _file_variant(path, once.header_text() if once else text)
    return PuzzleSource(name, path, text, variant, found, column, fixed, once)


def _read_once(path: str) -> bool:
    """Return True for a file that a second opening would not read again: neither a
    regular file nor a folder (a pipe, a FIFO, a character device)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False  # the reading reports it
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def is_table(path: str) -> bool:
    """Return True when the file name says CSV or TSV."""
    return Path(path).suffix.lower() in TABLE_SUFFIXES


def _named_set(source: str) -> PuzzleSet | None:
    """Return the catalogued public set `source` names (`top95`), or None for a file, a
    grid or `-`: an existing file of that name wins."""
    if source == "-" or "\n" in source or os.path.exists(source):
        return None
    return lookup(source)


def _set_path(entry: PuzzleSet) -> str:
    if not entry.one_variant:
        raise GridError(
            "its rows have several layouts (see its other columns): it cannot be read as "
            f"one set; open {entry.file} and take the rows one at a time",
            entry.name,
        )
    try:
        return str(locate(entry.name))
    except PuzzleSetError as error:
        raise GridError(error.message, entry.name) from None


def _catalogue_variant(entry: PuzzleSet) -> Variant:
    try:
        return Variant.parse(entry.flags)
    except GridError as error:
        raise GridError(f"catalogue flags: {error.message}", entry.name) from None


def _is_grid_text(source: str) -> bool:
    """Return True when a source argument is a grid written out rather than a file name
    (an existing file of that name wins, but for a whole grid of symbols); a short word
    that is neither is 'no such file'."""
    if source == "-":
        return False
    first = source.strip().split("|", 1)[0]  # a jigsaw line: measure the cells
    cells = first.translate(str.maketrans("", "", SEPARATORS))
    if "\n" in source or (is_square(len(cells)) and not looks_like_path(source)):
        return True
    if os.path.exists(source) or looks_like_path(source):
        return False
    if _NUMBERS.fullmatch(source.strip()):
        return True  # numbers on one line, read as the same text in a file is
    if len(cells) > 12:
        raise GridError(
            f"grid has {len(cells)} cells, expected N*N ({_SIDES}), and no file has that name",
            ARGUMENT,
        )
    raise GridError("no such file, and not a grid of N*N cells (N from 4 to 35)", source)


def is_square(length: int) -> bool:
    """True when a line of `length` cells can be a grid: N*N cells, N a supported side."""
    n = isqrt(length)
    return n * n == length and n in SUPPORTED_SIZES


def _file_variant(path: str, text: str | None) -> tuple[Variant, str]:
    """Return the variant of a file (or stdin, or a grid given as text) that the caller
    gave none for: its header's, else its name's (see the module docstring)."""
    if text is None and path not in ("-", ARGUMENT):
        try:
            with open(path, encoding="utf-8-sig") as handle:  # as read_text reads it
                text = handle.read(HEAD_CHARACTERS)
        except (OSError, UnicodeDecodeError):
            text = None  # the reading reports it
    found = header_flags(text) if text is not None else None
    if found is not None:
        flags, line = found
        try:
            return Variant.parse(flags), "header"
        except GridError as error:
            raise GridError(f"header: {error.message}", path, line) from None
    flags = name_flags(path) if path not in ("-", ARGUMENT) else ""
    return Variant.parse(flags), "file name" if flags else "none"


def header_flags(text: str) -> tuple[str, int] | None:
    """Return (flags, line) from the comments before the first grid: a `# geometry:
    FLAGS` line, else the flags of a `# command: ... generate ...` line."""
    command = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = HEADER_KEY.match(stripped)
        if match:
            return match.group(1).strip(), number
        match = COMMAND_KEY.match(stripped)
        if match and "generate" in match.group(1) and command is None:
            command = (_generator_flags(match.group(1)), number)
    return command


def _generator_flags(command: str) -> str:
    """Return the geometry flags of a `benchmarks generate` command line ('' if none)."""
    try:
        return Variant.parse(command, known_only=True).flags()
    except GridError:
        return ""


def name_flags(path: str) -> str:
    """Return the geometry flags a file name suggests ('' when it suggests none)."""
    words = re.split(r"[^a-z0-9]+", Path(path).stem.lower())
    found = []
    for word in words:
        flag = NAME_FLAGS.get(word)
        if flag and flag not in found:
            found.append(flag)
    return " ".join(found)


def _has_grid(text: str) -> bool:
    return any(line.split("#", 1)[0].strip() for line in text.splitlines())


def _stream(path: str, size: int | None) -> Iterator[PuzzleText]:
    """Yield the puzzle texts of a regular file of grids, STREAM_LINES lines at a time."""
    try:
        handle = open(path, encoding="utf-8-sig")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        raise GridError("no such file", path) from None
    except OSError as error:  # a folder, a file we may not read
        raise GridError(unreadable(path, error)[0], path) from None
    with handle:
        yield from _blocks(_read_lines(handle, path), path, size)


def _read_lines(handle, path: str) -> Iterator[str]:
    try:
        yield from handle
    except (OSError, UnicodeDecodeError):
        read_text(path, GridError)  # raises the problem worded as for every file
        raise


def _blocks(lines: Iterator[str], path: str, size: int | None) -> Iterator[PuzzleText]:
    """Yield the puzzle texts of the lines of a file, STREAM_LINES lines at a time."""
    done = 0  # lines of the file read before the block
    while True:
        block = list(itertools.islice(lines, STREAM_LINES))
        if not block:
            break
        if _has_grid("".join(block)):  # numbered as in the file: no copy of each text
            try:
                texts = split_puzzles("".join(block), path, size, first_line=done + 1)
            except GridError as error:
                yield from _before(error, block, done, path, size)
                raise
            yield from texts
        done += len(block)


def _before(error: GridError, block: list[str], done: int, path: str, size: int | None):
    """Return the grids of a block's lines before the line `error` names, when they are
    one grid a line (a laid-out grid cut by the error is none): the reader gives every
    grid before a bad line, then the error."""
    if error.line is None or not done < error.line <= done + len(block):
        return []
    head = block[: error.line - done - 1]
    if not _has_grid("".join(head)):
        return []
    try:
        texts = split_puzzles("".join(head), path, size, first_line=done + 1)
    except GridError:
        return []
    grids = sum(1 for line in head if line.split("#", 1)[0].strip())
    return texts if len(texts) == grids else []


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
