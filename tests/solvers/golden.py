"""Golden files of the native core's answers (tests/solvers/data/*.tsv.gz), written by
the kernels the core was ported from (the generator: `git show
7f5dca6:tests/solvers/make_goldens.py`), and the grids they ask about.

A golden file is gzipped text: '#' lines say how it was made (the command, the commit,
the kernels), every other line is `key<TAB>value`.  Keys name what was asked (the
geometry and grid as a digest, the depth, the polarity, a seed); values are what was
answered, literal sets and solution arrays as digests (`digest`): equality is all the
tests need, and the file stays small.  The generator, tests/solvers/make_goldens.py,
builds its grids with the functions below, as the tests do, so both ask the same
questions.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import random
import zlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from encoder.encodings import given_literals
from encoder.geometry import Geometry, make_geometry, standard
from encoder.puzzle_files import read_puzzles

PROJECT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SETS = sorted((PROJECT / "data" / "sets").glob("*.txt"))
JIGSAW = tuple(
    int(r) - 1
    for r in "111222233111222336111252336444553336474555556477566666477888899477889899477889999"
)
GEOMETRIES = {
    "9x9": make_geometry(9),
    "X": make_geometry(9, diagonals=True),
    "windoku": make_geometry(9, windows=True),
    "jigsaw": make_geometry(9, jigsaw=JIGSAW),
    "4x4": make_geometry(4),
    "6x6": make_geometry(6),
    "8x8": make_geometry(8),
    "12x12": make_geometry(12),
    "16x16": make_geometry(16),
    "X16": make_geometry(16, diagonals=True),
}
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def digest(*parts) -> str:
    """Return 16 hex digits naming the parts (ints, strings, arrays, nested sequences)."""
    h = hashlib.blake2b(digest_size=8)
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(np.ascontiguousarray(part).astype("<i8").tobytes())
        else:
            h.update(repr(part).encode())
        h.update(b"|")
    return h.hexdigest()


def geometry_key(geometry: Geometry) -> str:
    """The geometry's regions, as a digest (a jigsaw's map included)."""
    return digest(geometry.size, tuple(tuple(r.cells) for r in geometry.regions))


def grid_key(geometry: Geometry, grid) -> str:
    return geometry_key(geometry) + ":" + digest(tuple(int(v) for v in grid))


def closure_value(ok: bool, lits: Iterable[int]) -> str:
    """A closure's answer: '0' on a contradiction, else 'count:digest' of the literal set."""
    if not ok:
        return "0"
    lits = sorted(int(x) for x in lits)
    return f"{len(lits)}:{digest(tuple(lits))}"


def ladder_value(status, depth, solutions) -> str:
    """A depth loop's answer on a batch: statuses, depths, and the solutions as a digest."""
    status = ",".join(str(int(s)) for s in status)
    depth = ",".join(str(int(d)) for d in depth)
    return f"{status}|{depth}|{digest(np.asarray(solutions))}"


@functools.lru_cache(maxsize=8)
def read(name: str) -> dict[str, str]:
    """The key -> value lines of a golden file of tests/solvers/data."""
    with gzip.open(DATA / name, "rt") as f:
        return dict(
            line.rstrip("\n").split("\t", 1) for line in f if line.strip() and line[0] != "#"
        )


def expected(name: str, key: str) -> str:
    """The value of `key` in golden file `name`; a key the file lacks fails the test (the
    question changed: regenerate the file with that generator and say why)."""
    answers = read(name)
    assert key in answers, f"{name} has no {key!r}: see tests/solvers/make_goldens.py"
    return answers[key]


def write(name: str, header: str, items: Iterable[tuple[str, str]]) -> None:
    """Write a golden file (keys sorted, no timestamp: the same answers, the same bytes)."""
    lines = sorted(f"{k}\t{v}" for k, v in dict(items).items())
    text = "".join(f"# {line}\n" for line in header.strip().splitlines()) + "\n".join(lines)
    with open(DATA / name, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write((text + "\n").encode())


def project_set(path: Path, limit: int | None = None):
    """(geometry, grids) runs of a set of data/sets (a jigsaw map is its own run)."""
    runs: dict[Geometry, list] = {}
    for number, puzzle in enumerate(read_puzzles(str(path), allow_conflicts=True)):
        if limit is not None and number >= limit:
            break
        runs.setdefault(puzzle.geometry, []).append(tuple(puzzle.grid))
    return runs.items()


def solved_grid(n: int, rng: random.Random) -> list[int]:
    """A solution of the n x n Sudoku with its default boxes, shuffled."""
    h, w = standard(n).box
    values = list(range(1, n + 1))
    rng.shuffle(values)
    rows = [[values[(w * (i % h) + i // h + j) % n] for j in range(n)] for i in range(n)]
    for band in range(0, n, h):
        block = rows[band : band + h]
        rng.shuffle(block)
        rows[band : band + h] = block
    return [k for row in rows for k in row]


def holes(grid, keep: float, rng: random.Random) -> tuple[int, ...]:
    return tuple(k if rng.random() < keep else 0 for k in grid)


def grid_of(line: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".0" else int(ch) for ch in line)


def holed_grids(n: int) -> list[tuple[int, ...]]:
    """Four solved grids of side n with holes, nearly full to nearly empty (seeded)."""
    rng = random.Random(n)
    return [holes(solved_grid(n, rng), keep, rng) for keep in (0.9, 0.6, 0.4, 0.25)]


def large_grids(n: int, keeps=(0.95, 0.7)) -> list[tuple[int, ...]]:
    rng = random.Random(n)
    return [holes(solved_grid(n, rng), keep, rng) for keep in keeps]


def batch_grids() -> list[tuple[int, ...]]:
    """A hundred 9x9 grids with holes and one contradiction (two 1s in a row)."""
    rng = random.Random(9)
    grids = [holes(solved_grid(9, rng), keep, rng) for keep in (0.2, 0.3, 0.4, 0.5) * 25]
    grids.append((1, 1) + (0,) * 79)
    return grids


# --- the clause engine's questions (clauses.tsv.gz) -----------------------------------


def rule_grids(name: str, encoding: str) -> list[tuple[int, ...]]:
    """Six random partial grids of a geometry (and Easter Monster on 9x9), seeded by name."""
    geometry = GEOMETRIES[name]
    n = geometry.size
    rng = random.Random(zlib.crc32(f"{encoding}/{name}".encode()))
    grids = []
    for _ in range(6):
        grid = [0] * (n * n)
        for c in rng.sample(range(n * n), n * n // 4):
            grid[c] = rng.randint(1, n)
        grids.append(tuple(grid))
    if n == 9:
        grids.append(grid_of(EASTER_MONSTER))
    return grids


RULE_GEOMETRIES = ("9x9", "X", "windoku", "4x4", "6x6")


def closure_sets(encoding: str) -> list[list[int]]:
    geometry = standard(9)
    rng = random.Random(len(encoding))
    sets = [given_literals(grid_of(EASTER_MONSTER), geometry), [1, 2], [], [-5, -14]]
    for _ in range(12):
        grid = [0] * 81
        for c in rng.sample(range(81), rng.randint(10, 40)):
            grid[c] = rng.randint(1, 9)
        sets.append(given_literals(tuple(grid), geometry))
    return sets


def batch_sets() -> list[list[int]]:
    geometry = standard(9)
    rng = random.Random(3)
    sets = [given_literals(grid_of(EASTER_MONSTER), geometry), [1, 2], []]
    sets += [[rng.choice([-1, 1]) * rng.randint(1, 729) for _ in range(20)] for _ in range(20)]
    return sets
