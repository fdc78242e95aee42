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
import random
from dataclasses import dataclass, replace
from pathlib import Path

from encoder.geometry import Geometry
from encoder.puzzle_files import Puzzle, open_source
from encoder.variant import Variant


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
    command line's geometry options (they then win over the set's own)."""
    opened = open_source(source, variant, column)
    texts = list(opened.texts(allow_empty=True))
    chosen = choose(len(texts), limit, shuffle, seed)
    geometries: dict[tuple[int, str | None], Geometry] = {}
    puzzles = tuple(opened.puzzle(texts[p], geometries=geometries) for p in chosen)
    found = "command line" if opened.variant_from == "given" else opened.variant_from
    return Dataset(
        name=opened.name,
        path=opened.path,
        sha256=_sha256(opened.path) if opened.text is None and opened.path != "-" else "",
        total=len(texts),
        flags=opened.variant.flags(),
        flags_from=found,
        variant=puzzles[0].geometry.describe() if puzzles else "",
        puzzles=puzzles,
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
