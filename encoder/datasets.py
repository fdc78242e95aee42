"""Puzzle sets for the benchmark harness: files of grids, each with its variant.

A dataset file holds one grid per line (N*N symbols; `puzzle|regions` for jigsaw),
with `#` comments and blank lines ignored, or is a CSV/TSV file with a header whose
puzzle column is named by `--column` (default `puzzle`).  The side N comes from the
length of the lines (81 -> 9x9, 16 -> 4x4, 36 -> 6x6, 256 -> 16x16).

A DATASET may also be the name of a catalogued public set (`top95`, `andoku-x`: see
`python -m benchmarks datasets list`), read from its verified local copy.

The variant (X, Hyper, ...) of a file comes from, in this order:
1. geometry flags given on the command line (they then apply to every file);
2. for a catalogued set, the catalogue;
3. a header comment `# geometry: FLAGS`, FLAGS being the encoder's geometry flags
   (`--diagonals`, `--windows`, `--box 2x3`, `--symbols 0-F`, ...), or else the
   geometry flags of the `# command: python -m benchmarks generate ...` line that
   `puzzles.generate` writes at the top of its files;
4. the file name: a word `x` or `diagonals` -> `--diagonals`, `hyper`, `windoku` or
   `windows` -> `--windows` (`andoku_standard_x.txt`, `sudoku9_hyper.txt`).
Jigsaw regions always come from the `puzzle|regions` lines themselves.

A bad grid raises `GridError(path, line, message)`, so the command line can print
`benchmarks: FILE:LINE: problem` and stop before anything runs.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from encoder.cli_common import (
    GeometryFlagParser,
    Puzzle,
    add_geometry_flags,
    command_line_flags,
    flags_given,
    flags_namespace,
    geometry_for,
    resolve_named_set,
)
from encoder.errors import GridError
from encoder.grids import (
    describe_clash,
    find_clashes,
    parse_cells,
    size_of_puzzle,
)
from encoder.puzzle_files import read_texts

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


@dataclass(frozen=True)
class Dataset:
    """The grids of one file, in run order (after --shuffle and --limit)."""

    name: str  # the file's stem, or its name when two files share a stem
    path: str
    sha256: str  # of the file's bytes
    total: int  # grids in the file
    flags: str  # the geometry flags applied, as typed ("" for plain Sudoku)
    flags_from: str  # "command line", "catalogue", "header", "file name" or "none"
    variant: str  # e.g. "9x9, 3x3 boxes, diagonals" (first grid's geometry)
    puzzles: tuple[Puzzle, ...]
    lines: tuple[int, ...]  # 1-based line of each grid in the file


def _generator_flags(command: str) -> str:
    """Return the geometry flags of a `benchmarks generate` command line ('' if none)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    parser = GeometryFlagParser(add_help=False, prog="geometry", allow_abbrev=False)
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
    """Read, select and check the grids of one file or catalogued set (see the module
    docstring)."""
    path, _, entry = resolve_named_set(path, args)
    if entry is not None and column is None:
        column = entry.column
    if flags_given(args):
        flags, source, geometry_args = command_line_flags(args), "command line", args
    elif entry is not None:
        flags, source = entry.flags, "catalogue"
        geometry_args = flags_namespace(flags)
    else:
        found = None
        try:
            with open(path, encoding="utf-8-sig") as handle:  # as read_text reads it
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
        name=entry.name if entry is not None else Path(path).stem,
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
