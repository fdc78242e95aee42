"""Rule and grid formulas: the exam's encoding and the other named encodings.

Every encoding is built from a `Geometry` (cells + regions), so the same code serves
4x4 to 25x25, X, Hyper and jigsaw.  Clauses come in named groups, emitted in a fixed
order, so DIMACS output is deterministic and each group can be counted.

| encoding  | groups                                 | 9x9 clauses | UP finds            |
|-----------|----------------------------------------|-------------|---------------------|
| minimal   | K1 + region at-most-one (L2 C2 B2)     | 8,829       | naked singles       |
| natural   | minimal + K2 (Weber 2005)              | 11,745      | naked singles       |
| centrale  | K1 L1 C1 B1 K2 L2 C2 B2 (the exam)     | 11,988      | + hidden singles    |
| augmented | centrale + segment ("triad") variables | 15,228      | + locked candidates |

`centrale` is also Lynce & Ouaknine's "extended" (complete) encoding.

Block letters: K = cells (cases), L = rows (lignes), C = columns, B = boxes or jigsaw
regions, D = diagonals, W = windows; 1 = "at least one", 2 = "at most one" (pairwise
by default; any encoding of encoder.amo with `amo=`, its auxiliary variables numbered
after the cell and segment variables, block after block; the augmented encoding's own
exactly-one groups SL and SB stay pairwise).  "At least one" is only emitted for
regions of exactly N cells.  The rules are built as blocks of rows (`rule_blocks`) and
made into clauses one constraint at a time (`RuleClauses`), so a large formula can be
written without ever being held whole (encoder.emit).

Augmented (after tdoku): for every row or column and every box it meets, a segment
variable s(line, box, k) ⇔ "value k lies in the cells the line shares with the box"
(the triads of 9x9).  Variables are numbered after the N³ cell variables: all row
segments in (row, box, value) order, then all column segments likewise.  Blocks: SD (segment
definitions: ¬s ∨ x1 ∨ .. ∨ xm and ¬xi ∨ s), SL (exactly one segment per line and
value), SB (exactly one row segment and exactly one column segment per box and value).
For 9x9: 486 segment variables (1,215 in all), SD 1,944, SL 648, SB 648 clauses.
Unit propagation on it performs pointing and claiming (locked candidates).

Grid formulas: `centrale` is the exam's F_grille = F1 ∧ F2 (F1: x(i,j,k) and the N-1
units ¬x(i,j,l) for each given; F2: for each empty cell one unit ¬x(i,j,k) per value k
given among its peers, without duplicates), never more than N³ units; `units` is one
positive unit per given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from encoder.amo import AMO_ENCODINGS, at_most_one, pairwise
from encoder.dimacs import Cnf
from encoder.errors import GridError
from encoder.geometry import KIND_LETTERS, Geometry
from encoder.numbering import Clause, Grid, cell_var, num_cell_vars

ENCODINGS = ("centrale", "minimal", "natural", "augmented")
# An encoding and an at-most-one encoding in one name, for the harness: `centrale+ladder`.
ENCODING_NAMES = ENCODINGS + tuple(
    f"{e}+{a}" for e in ENCODINGS for a in AMO_ENCODINGS if a != "pairwise"
)
GIVEN_STYLES = ("centrale", "units")


@dataclass(frozen=True)
class Formula:
    """A CNF with named clause groups (K1, L1, ..., F1, F2), in emission order."""

    num_vars: int
    groups: tuple[tuple[str, tuple[Clause, ...]], ...]

    @property
    def clauses(self) -> list[Clause]:
        return [clause for _, group in self.groups for clause in group]

    @property
    def num_clauses(self) -> int:
        return sum(len(group) for _, group in self.groups)

    @cached_property
    def cnf(self) -> Cnf:
        """The clauses in flat form (`encoder.dimacs.Cnf`), made once: the solvers loaded
        with one cached rule formula share it (a jigsaw grid's, for every solver)."""
        return Cnf.from_clauses(self.clauses, self.num_vars)


def _cell_vars(g: Geometry) -> np.ndarray:
    """Return the cell variables as an (N*N, N) array: row c holds x(c,1) .. x(c,N)."""
    n = g.size
    cells, values = np.arange(n * n, dtype=np.int64), np.arange(1, n + 1, dtype=np.int64)
    return cell_var(cells[:, None], values[None, :], n)  # numbering's, on arrays


def _region_rows(g: Geometry, kind: str, full_only: bool = False) -> np.ndarray:
    """Return one row per (region of `kind`, value k): the variables 'this cell of the
    region holds k', regions in order, then values, then cells (the exam's order)."""
    n = g.size
    regions = [r.cells for r in g.regions_of(kind) if not full_only or len(r.cells) == n]
    if not regions:
        return np.zeros((0, 0), dtype=np.int64)
    by_length: dict[int, list[tuple[int, ...]]] = {}
    for cells in regions:
        by_length.setdefault(len(cells), []).append(cells)
    if len(by_length) > 1:  # regions of one kind all have the same size in every geometry
        raise ValueError(f"{kind} regions of different sizes")
    cells = np.array(regions, dtype=np.int64)  # (R, L)
    rows = _cell_vars(g)[cells]  # (R, L, N)
    return rows.transpose(0, 2, 1).reshape(-1, cells.shape[1])


def _region_kinds(g: Geometry) -> list[str]:
    present = {r.kind for r in g.regions}
    return [kind for kind in KIND_LETTERS if kind in present]


def _segment_blocks(g: Geometry, first_var: int) -> tuple[int, list[tuple[str, list[Clause]]]]:
    """Return (number of segment variables, [SD, SL, SB]) of the augmented encoding."""
    n = g.size
    boxes = g.regions_of("box")
    box_of = {c: b for b, region in enumerate(boxes) for c in region.cells}
    definitions: list[Clause] = []
    line_onehot: list[Clause] = []
    box_groups: dict[tuple[str, int, int], list[int]] = {}
    next_var = first_var
    for kind in ("row", "column"):
        for line in g.regions_of(kind):
            parts: dict[int, list[int]] = {}
            for c in line.cells:
                parts.setdefault(box_of[c], []).append(c)
            by_value: dict[int, list[int]] = {k: [] for k in range(1, n + 1)}
            for b, cells in parts.items():
                for k in range(1, n + 1):
                    xs = [cell_var(c, k, n) for c in cells]
                    if len(xs) == 1:
                        s = xs[0]  # a one-cell segment is the cell itself
                    else:
                        s = next_var
                        next_var += 1
                        definitions.append([-s, *xs])
                        definitions.extend([[-x, s] for x in xs])
                    by_value[k].append(s)
                    box_groups.setdefault((kind, b, k), []).append(s)
            for k in range(1, n + 1):
                line_onehot.extend(_exactly_one(by_value[k]))
    box_onehot = [cl for lits in box_groups.values() for cl in _exactly_one(lits)]
    blocks = [("SD", definitions), ("SL", line_onehot), ("SB", box_onehot)]
    return next_var - first_var, blocks


def _exactly_one(lits: list[int]) -> list[Clause]:
    return [list(lits), *pairwise(lits)]


@dataclass(frozen=True)
class Block:
    """One named group of the rules before it becomes clauses: `alo` rows are clauses
    (at least one of the row's variables), `amo` rows are at-most-one constraints over
    the row's variables, `clauses` are clauses as they are."""

    name: str
    kind: str  # "alo", "amo" or "clauses"
    rows: np.ndarray | list[Clause]


def rule_blocks(geometry: Geometry, encoding: str = "centrale") -> tuple[int, list[Block]]:
    """Return (variables the blocks use, the rule formula's blocks in emission order)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
    g = geometry
    kinds = _region_kinds(g)
    num_vars = num_cell_vars(g.size)
    at_least = [Block("K1", "alo", _cell_vars(g))]
    at_most = []
    if encoding != "minimal":
        at_most.append(Block("K2", "amo", _cell_vars(g)))
    if encoding in ("centrale", "augmented"):
        at_least += [Block(KIND_LETTERS[k] + "1", "alo", _region_rows(g, k, True)) for k in kinds]
    at_most += [Block(KIND_LETTERS[k] + "2", "amo", _region_rows(g, k)) for k in kinds]
    blocks = at_least + at_most
    if encoding == "augmented":
        if not g.regions_of("box"):
            raise GridError("the augmented encoding needs boxes or jigsaw regions")
        extra, segment_blocks = _segment_blocks(g, num_vars + 1)
        num_vars += extra
        blocks += [Block(name, "clauses", clauses) for name, clauses in segment_blocks]
    return num_vars, blocks


@dataclass(frozen=True)
class Auxiliaries:
    """The auxiliary variables an at-most-one encoding added for one block."""

    block: str
    first: int
    last: int


class RuleClauses:
    """The rule formula's clauses, made one constraint at a time (`chunks()`), with the
    at-most-one constraints in the encoding `amo`.  Auxiliary variables are numbered
    after the cell (and segment) variables, block after block; once the chunks are
    consumed, `num_vars` and `auxiliaries` say which were used.

    With `fixed` (a `Simplification` from encoder.simplify) the givens are applied
    first: rows holding a true variable are dropped (an at-most-one row with two is the
    empty clause), false variables are removed, and variables are renumbered densely;
    the at-most-one encoding is then applied to each row's open variables only."""

    def __init__(
        self, geometry: Geometry, encoding: str = "centrale", amo: str = "pairwise", fixed=None
    ):
        if amo not in AMO_ENCODINGS:
            raise ValueError(
                f"unknown at-most-one encoding {amo!r}; choose from {', '.join(AMO_ENCODINGS)}"
            )
        self.base_vars, self.blocks = rule_blocks(geometry, encoding)
        self.amo = amo
        self.fixed = fixed
        self.num_vars = self.base_vars if fixed is None else fixed.num_vars(self.base_vars)
        self.auxiliaries: list[Auxiliaries] = []

    def chunks(self) -> Iterator[tuple[str, list[Clause]]]:
        """Yield (block name, clauses) pieces in emission order."""
        for block in self.blocks:
            first = self.num_vars + 1
            if block.kind == "clauses":
                clauses = block.rows if self.fixed is None else self.fixed.clauses(block.rows)
                yield block.name, list(clauses)
                continue
            rows = block.rows if self.fixed is None else self.fixed.rows(block.rows, block.kind)
            if block.kind == "alo":
                yield block.name, rows if isinstance(rows, list) else rows.tolist()
                continue
            for row in rows:
                lits = row if isinstance(row, list) else row.tolist()
                if self.fixed is not None and not lits:
                    yield block.name, [[]]  # two givens of one value in one region
                    continue
                clauses, self.num_vars = at_most_one(lits, self.amo, self.num_vars + 1)
                self.num_vars -= 1
                yield block.name, clauses
            if self.num_vars >= first:
                self.auxiliaries.append(Auxiliaries(block.name, first, self.num_vars))


def split_encoding(name: str, amo: str = "pairwise") -> tuple[str, str]:
    """Return (encoding, at-most-one encoding) of a name such as `centrale+ladder`
    (`amo` when the name has no `+`)."""
    encoding, plus, named = name.partition("+")
    return encoding, named if plus else amo


@lru_cache(maxsize=32)
def rule_formula(geometry: Geometry, encoding: str = "centrale", amo: str = "pairwise") -> Formula:
    """Return the rule formula (no givens) of `geometry` in the named encoding, with the
    at-most-one constraints in the encoding `amo` (encoder.amo).

    `encoding` may name both, as `centrale+ladder` (ENCODING_NAMES).  Cached: the rules
    do not depend on the grid, so encoding many grids of one geometry builds them once
    (the Formula is immutable)."""
    encoding, amo = split_encoding(encoding, amo)
    stream = RuleClauses(geometry, encoding, amo)
    groups: dict[str, list[tuple[int, ...]]] = {block.name: [] for block in stream.blocks}
    for name, clauses in stream.chunks():
        groups.setdefault(name, []).extend(tuple(c) for c in clauses)
    frozen = tuple((name, tuple(clauses)) for name, clauses in groups.items())
    return Formula(num_vars=stream.num_vars, groups=frozen)


def given_literals(grid: Grid, geometry: Geometry) -> list[int]:
    """Return one positive literal per given: the assumptions that state the grid."""
    n = geometry.size
    return [cell_var(c, k, n) for c, k in enumerate(grid) if k]


def given_literal_rows(grids: np.ndarray, n: int) -> list[list[int]]:
    """`given_literals` of each row of `grids` (N*N values a row, 0 for a blank), made
    for all rows at once."""
    rows, cells = np.nonzero(grids)
    literals = (cells * n + grids[rows, cells]).tolist()
    ends = np.cumsum(np.count_nonzero(grids, axis=1)).tolist()
    return [literals[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]


def grid_groups(grid: Grid, geometry: Geometry, givens: str = "centrale") -> list[tuple[str, list]]:
    """Return the unit clauses stating the grid: [("F1", ...), ("F2", ...)] or [("G", ...)]."""
    if givens == "units":
        return [("G", [[lit] for lit in given_literals(grid, geometry)])]
    if givens != "centrale":
        raise ValueError(f"unknown givens style {givens!r}; choose from {', '.join(GIVEN_STYLES)}")
    n = geometry.size
    f1: list[Clause] = []
    f2: list[Clause] = []
    for c, k in enumerate(grid):
        if k:
            f1.append([cell_var(c, k, n)])
            f1.extend([-cell_var(c, other, n)] for other in range(1, n + 1) if other != k)
        else:
            seen = {grid[p] for p in geometry.peers[c]} - {0}
            f2.extend([-cell_var(c, v, n)] for v in sorted(seen))
    return [("F1", f1), ("F2", f2)]


def puzzle_formula(
    grid: Grid,
    geometry: Geometry,
    encoding: str = "centrale",
    givens: str = "centrale",
    amo: str = "pairwise",
) -> Formula:
    """Return F_initiale: the rule formula followed by the grid's unit clauses."""
    rules = rule_formula(geometry, encoding, amo)
    units = tuple(
        (name, tuple(tuple(c) for c in cl)) for name, cl in grid_groups(grid, geometry, givens)
    )
    return Formula(num_vars=rules.num_vars, groups=rules.groups + units)
