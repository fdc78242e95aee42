"""Geometries: a Sudoku variant described as symbols + cells + regions.

Following the set-based description of the second school paper, a variant is an
N x N grid of cells, an alphabet of N symbols, and a list of regions (sets of cells)
in which no symbol may appear twice; a region of exactly N cells must also contain
every symbol.  Classic Sudoku is rows + columns + 3x3 boxes; X-Sudoku adds the two
main diagonals; Hyper (Windoku) adds four 3x3 windows; jigsaw replaces the boxes with
irregular regions.  Every formula in the project is generated from a `Geometry`, never
from hard-coded 9x9 loops.

Cells are numbered c = N*i + j (row-major), as in the one-line grid format.

Any side N from 1 to MAX_SIZE is accepted.  Boxes default to the most square shape
r x c with r*c = N and 1 < r <= c (3x3 for 9, 3x4 for 12, 6x6 for 36, 7x9 for 63, 10x10
for 100); a prime N has none (a Latin square needs --no-boxes).  Symbols default to
`1-9` then `A-Z` up to 35; a geometry of more symbols and no --symbols is *numeric*
(`symbols == ""`): its grids are written as numbers 1..N (encoder.grids).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from encoder.errors import GridError

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIZE = 256  # the largest side accepted (256³ = 16.8 million cell variables)
SUPPORTED_SIZES = tuple(range(4, len(DEFAULT_SYMBOLS) + 1))  # sides read from a line's length

# Region kinds, in the order their clause groups are emitted, with the letter that
# names the group (the exam's L = lignes, C = colonnes, B = blocs, our boxes).
KIND_LETTERS = {"row": "L", "column": "C", "box": "B", "diagonal": "D", "window": "W"}


@dataclass(frozen=True)
class Region:
    """A set of cells in which each symbol appears at most once."""

    kind: str  # one of KIND_LETTERS
    index: int  # 0-based, within its kind
    cells: tuple[int, ...]  # cell numbers N*i + j, in reading order

    def name(self) -> str:
        """Return a human name such as 'row 3' (0-based like the exam)."""
        return f"{self.kind} {self.index}"


@dataclass(frozen=True)
class Geometry:
    """An N x N Sudoku variant: its size, symbols and regions."""

    size: int
    regions: tuple[Region, ...]
    symbols: str = ""
    box: tuple[int, int] | None = None  # box height x width, when boxes are rectangles
    extras: tuple[str, ...] = ()  # "diagonals", "windows", "jigsaw", "no-boxes"
    peers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.size
        if not self.symbols and n <= len(DEFAULT_SYMBOLS):
            object.__setattr__(self, "symbols", DEFAULT_SYMBOLS[:n])
        if self.symbols and (len(self.symbols) != n or len(set(self.symbols)) != n):
            raise GridError(f"need {n} distinct symbols, got {self.symbols!r}")
        peer_sets: list[set[int]] = [set() for _ in range(n * n)]
        for region in self.regions:
            for c in region.cells:
                peer_sets[c].update(region.cells)
        for c, peers in enumerate(peer_sets):
            peers.discard(c)
        object.__setattr__(self, "peers", tuple(tuple(sorted(p)) for p in peer_sets))

    @property
    def numeric(self) -> bool:
        """True when grids are written as numbers 1..N (no alphabet of N symbols)."""
        return not self.symbols

    def symbol(self, value: int) -> str:
        """Return how value k (1..N) is written: its symbol, or the number itself in a
        numeric geometry.  Every message and picture names a value through this."""
        return str(value) if self.numeric else self.symbols[value - 1]

    @property
    def num_cells(self) -> int:
        return self.size * self.size

    def cell(self, c: int) -> tuple[int, int]:
        """Return (row, column) of cell number c."""
        return divmod(c, self.size)

    def regions_of(self, kind: str) -> list[Region]:
        return [r for r in self.regions if r.kind == kind]

    def describe(self) -> str:
        """Return a one-line description such as '9x9, 3x3 boxes, diagonals'."""
        parts = [f"{self.size}x{self.size}"]
        if self.box:
            parts.append(f"{self.box[0]}x{self.box[1]} boxes")
        parts.extend(self.extras)
        return ", ".join(parts)


def default_box(n: int) -> tuple[int, int] | None:
    """Return the most square box shape r x c (r <= c, r*c = n, r > 1), None for a prime
    or for n < 4."""
    r = max((d for d in range(2, int(n**0.5) + 1) if n % d == 0), default=None)
    return None if r is None else (r, n // r)


def block_cells(n: int, box: tuple[int, int], b: int) -> tuple[int, ...]:
    """Return the cells of box b, in the exam's order: cell r of block b is
    (h*(b // (n/w)) + r // w, w*(b % (n/w)) + r % w) for boxes of height h, width w."""
    h, w = box
    boxes_per_row = n // w
    top, left = h * (b // boxes_per_row), w * (b % boxes_per_row)
    return tuple(n * (top + r // w) + left + r % w for r in range(n))


def make_geometry(
    size: int = 9,
    box: tuple[int, int] | None = None,
    diagonals: bool = False,
    windows: bool = False,
    jigsaw: tuple[int, ...] | None = None,
    boxes: bool = True,
    symbols: str | None = None,
) -> Geometry:
    """Build a geometry from the command-line presets (see `_make_geometry`).

    Geometries are immutable and a file of grids asks for the same one per line:
    building it (regions, peers) costs more than rating a 17-clue grid, so the last
    few built are kept."""
    if jigsaw is not None:
        jigsaw = tuple(jigsaw)
    return _make_geometry(size, box, diagonals, windows, jigsaw, boxes, symbols)


@functools.lru_cache(maxsize=64)
def _make_geometry(
    size: int,
    box: tuple[int, int] | None,
    diagonals: bool,
    windows: bool,
    jigsaw: tuple[int, ...] | None,
    boxes: bool,
    symbols: str | None,
) -> Geometry:
    """Build a geometry from the command-line presets.

    `jigsaw` gives the region id of every cell (N*N ids, any N distinct values); its
    regions replace the boxes.  `windows` adds the Hyper/Windoku windows: for 9x9
    the four 3x3 windows with top-left cells (1,1), (1,5), (5,1), (5,5); in general
    square windows of side s = sqrt(N) placed one cell apart, (s-1)^2 of them: 9 for
    16x16, 16 for 25x25.  They are defined for N = 9, 16, 25 only (a 4x4 grid has room
    for one 2x2 window, which is no Windoku; 6x6 and 12x12 have no square side).
    """
    n = size
    if n < 1 or n > MAX_SIZE:
        raise GridError(f"unsupported size {n} (sides 1 to {MAX_SIZE})")
    regions: list[Region] = []
    regions += [Region("row", i, tuple(range(n * i, n * i + n))) for i in range(n)]
    regions += [Region("column", j, tuple(range(j, n * n, n))) for j in range(n)]
    extras: list[str] = []
    if jigsaw is not None:
        if len(jigsaw) != n * n:
            raise GridError(f"a jigsaw map needs {n * n} region ids, got {len(jigsaw)}")
        ids = sorted(set(jigsaw))
        members = {rid: tuple(c for c in range(n * n) if jigsaw[c] == rid) for rid in ids}
        if len(ids) != n or any(len(cells) != n for cells in members.values()):
            sizes = ", ".join(f"{rid}:{len(cells)}" for rid, cells in members.items())
            raise GridError(f"a jigsaw map needs {n} regions of {n} cells, got {sizes}")
        regions += [Region("box", b, members[rid]) for b, rid in enumerate(ids)]
        box = None
        extras.append("jigsaw")
    elif boxes:
        box = box or default_box(n)
        if box is None:
            raise GridError(f"size {n} has no default boxes: give --box RxC or --no-boxes")
        h, w = box
        if h < 1 or w < 1 or h * w != n:
            raise GridError(f"boxes {h}x{w} do not tile a {n}x{n} grid")
        regions += [Region("box", b, block_cells(n, box, b)) for b in range(n)]
    else:
        box = None
        extras.append("no-boxes")
    if diagonals:
        regions.append(Region("diagonal", 0, tuple(n * i + i for i in range(n))))
        regions.append(Region("diagonal", 1, tuple(n * i + n - 1 - i for i in range(n))))
        extras.append("diagonals")
    if windows:
        side = round(n**0.5)
        if side * side != n or side < 3:
            raise GridError(
                f"--windows: Windoku windows are defined for 9x9, 16x16 and 25x25 grids, "
                f"not {n}x{n}"
            )
        starts = [1 + t * (side + 1) for t in range(side - 1)]
        corners = [(top, left) for top in starts for left in starts]
        for t, (top, left) in enumerate(corners):
            cells = tuple(n * (top + r) + left + s for r in range(side) for s in range(side))
            regions.append(Region("window", t, cells))
        extras.append("windows")
    return Geometry(
        size=n, regions=tuple(regions), symbols=symbols or "", box=box, extras=tuple(extras)
    )


def orthogonal_neighbours(n: int, cell: int) -> list[int]:
    """Return the cells above, below, left and right of `cell` in an N x N grid, in that
    order (the random jigsaw maps depend on it), those inside the grid only."""
    i, j = divmod(cell, n)
    return [
        n * a + b
        for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
        if 0 <= a < n and 0 <= b < n
    ]


def pieces(n: int, cells: Iterable[int]) -> int:
    """Return how many orthogonally connected pieces the cells of an N x N grid form
    (1 for a connected region)."""
    left = set(cells)
    count = 0
    while left:
        count += 1
        frontier = [left.pop()]
        while frontier:
            for neighbour in orthogonal_neighbours(n, frontier.pop()):
                if neighbour in left:
                    left.remove(neighbour)
                    frontier.append(neighbour)
    return count


def disconnected_regions(geometry: Geometry) -> list[tuple[Region, int]]:
    """Return each jigsaw region whose cells are not orthogonally connected, with the
    number of its pieces.  Such a map still defines a valid formula; players expect
    connected regions, so the front ends warn."""
    if "jigsaw" not in geometry.extras:
        return []
    found = [(region, pieces(geometry.size, region.cells)) for region in geometry.regions_of("box")]
    return [(region, count) for region, count in found if count > 1]


def standard(size: int = 9) -> Geometry:
    """Return classic Sudoku of the given size with its default boxes."""
    return make_geometry(size)
