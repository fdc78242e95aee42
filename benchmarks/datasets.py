"""Puzzle sets for the benchmark harness: files of grids, each with its variant.

A dataset file holds one grid per line (N*N symbols; `puzzle|regions` for jigsaw),
with `#` comments and blank lines ignored, or is a CSV/TSV file with a header whose
puzzle column is named by `--column` (default `puzzle`).  The side N comes from the
length of the lines (81 -> 9x9, 16 -> 4x4, 36 -> 6x6, 256 -> 16x16).

The variant (X, Hyper, ...) of a file comes from, in this order:
1. geometry flags given on the command line (they then apply to every file);
2. a header comment `# geometry: FLAGS`, FLAGS being the encoder's geometry flags
   (`--diagonals`, `--windows`, `--box 2x3`, `--symbols 0-F`, ...), or else the
   geometry flags of the `# command: python -m benchmarks generate ...` line that
   `benchmarks.generate` writes at the top of its files;
3. the file name: a word `x` or `diagonals` -> `--diagonals`, `hyper`, `windoku` or
   `windows` -> `--windows` (`andoku_standard_x.txt`, `sudoku9_hyper.txt`).
Jigsaw regions always come from the `puzzle|regions` lines themselves.

A bad grid raises `GridError(path, line, message)`, so the command line can print
`benchmarks: FILE:LINE: problem` and stop before anything runs.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import random
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from encoder.cli_common import Puzzle, add_geometry_flags, geometry_for
from encoder.errors import GridError, unreadable
from encoder.grids import (
    PuzzleText,
    describe_clash,
    find_clashes,
    parse_cells,
    size_of_puzzle,
    split_puzzles,
)

GEOMETRY_FLAGS = ("size", "box", "diagonals", "windows", "regions", "no_boxes", "symbols")
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
TABLE_SUFFIXES = {".csv": ",", ".tsv": "\t"}


@dataclass(frozen=True)
class Dataset:
    """The grids of one file, in run order (after --shuffle and --limit)."""

    name: str  # the file's stem, or its name when two files share a stem
    path: str
    sha256: str  # of the file's bytes
    total: int  # grids in the file
    flags: str  # the geometry flags applied, as typed ("" for plain Sudoku)
    flags_from: str  # "command line", "header", "file name" or "none"
    variant: str  # e.g. "9x9, 3x3 boxes, diagonals" (first grid's geometry)
    puzzles: tuple[Puzzle, ...]
    lines: tuple[int, ...]  # 1-based line of each grid in the file


class _FlagParser(argparse.ArgumentParser):
    def error(self, message: str):  # raise instead of exiting
        raise GridError(message)


def flags_namespace(flags: str) -> argparse.Namespace:
    """Return the geometry-flags namespace that a string such as '--diagonals' gives."""
    parser = _FlagParser(add_help=False, prog="geometry")
    add_geometry_flags(parser)
    try:
        return parser.parse_args(shlex.split(flags))
    except ValueError as error:  # shlex: unbalanced quotes
        raise GridError(f"bad geometry flags {flags!r}: {error}") from None


def flags_given(args: argparse.Namespace) -> bool:
    """Return True when any geometry flag was given on the command line."""
    return any(getattr(args, name, None) for name in GEOMETRY_FLAGS)


def command_line_flags(args: argparse.Namespace) -> str:
    """Return the geometry flags of `args` written back as a command-line string."""
    parts = []
    for name in GEOMETRY_FLAGS:
        value = getattr(args, name, None)
        flag = "--" + name.replace("_", "-")
        if value is True:
            parts.append(flag)
        elif value:
            parts.append(f"{flag} {shlex.quote(str(value))}")
    return " ".join(parts)


def _generator_flags(command: str) -> str:
    """Return the geometry flags of a `benchmarks generate` command line ('' if none)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    parser = _FlagParser(add_help=False, prog="geometry", allow_abbrev=False)
    add_geometry_flags(parser)
    try:
        known, _ = parser.parse_known_args(words)
    except GridError:
        return ""
    return command_line_flags(known)


def header_flags(text: str, path: str) -> tuple[str, int] | None:
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


def name_flags(path: str) -> str:
    """Return the geometry flags a file name suggests ('' when it suggests none)."""
    words = re.split(r"[^a-z0-9]+", Path(path).stem.lower())
    found = []
    for word in words:
        flag = NAME_FLAGS.get(word)
        if flag and flag not in found:
            found.append(flag)
    return " ".join(found)


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
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise GridError("no such file", path) from None
    except (OSError, UnicodeDecodeError) as error:
        problem, line = unreadable(path, error)
        raise GridError(problem, path, line) from None
    delimiter = TABLE_SUFFIXES.get(Path(path).suffix.lower())
    if delimiter is not None:
        return _table_texts(text, path, column, delimiter)
    if column is not None:
        raise GridError("--column applies to CSV/TSV files only", path)
    if not any(line.split("#", 1)[0].strip() for line in text.splitlines()):
        return []  # only comments: a generator that found nothing (reported, skipped)
    return split_puzzles(text, path, size)  # also accepts one grid laid out over N lines


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
    path: str,
    args: argparse.Namespace,
    column: str | None = None,
    limit: int | None = None,
    shuffle: bool = False,
    seed: int = 0,
) -> Dataset:
    """Read, select and check the grids of one file (see the module docstring)."""
    if flags_given(args):
        flags, source, geometry_args = command_line_flags(args), "command line", args
    else:
        found = None
        try:
            with open(path, encoding="utf-8") as handle:
                found = header_flags(handle.read(1 << 16), path)
        except (OSError, UnicodeDecodeError):
            pass  # read_texts reports it
        if found is not None:
            flags, line = found
            source = "header"
            try:
                geometry_args = flags_namespace(flags)
            except GridError as error:
                raise GridError(f"header: {error.message}", path, line) from None
        else:
            flags = name_flags(path)
            source = "file name" if flags else "none"
            geometry_args = flags_namespace(flags)
    texts = read_texts(path, column, geometry_args.size)
    chosen = choose(len(texts), limit, shuffle, seed)
    geometries: dict = {}
    puzzles = []
    for position in chosen:
        text = texts[position]
        where = (text.path, text.line)
        n = geometry_args.size or size_of_puzzle(text)
        key = (n, text.regions)
        if key not in geometries:
            geometries[key] = geometry_for(geometry_args, n, text.regions, where)
        geometry = geometries[key]
        grid = parse_cells(text.cells, geometry, *where)
        clashes = find_clashes(grid, geometry)
        if clashes:
            raise GridError(describe_clash(clashes[0], geometry), *where)
        puzzles.append(Puzzle(geometry, grid, f"{text.path}:{text.line}"))
        if len(geometries) > 64:  # jigsaw: one geometry per grid, keep few
            geometries.clear()
    variant = puzzles[0].geometry.describe() if puzzles else ""
    return Dataset(
        name=Path(path).stem,
        path=str(path),
        sha256=_sha256(path),
        total=len(texts),
        flags=flags,
        flags_from=source,
        variant=variant,
        puzzles=tuple(puzzles),
        lines=tuple(texts[p].line for p in chosen),
    )


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
