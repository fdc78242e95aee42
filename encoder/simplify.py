"""The givens-simplified formula: the rules with the givens applied before emitting.

The givens fix variables: the exam's F1 and F2 units (encodings.grid_groups) say which
cell variables are true (a given) and which are false (another value of a given cell,
or a value given among the cell's peers).  Applying them to the rules: a clause made
true by a fixed variable is dropped, a false literal is removed, the fixed variables
disappear and the open ones are renumbered densely, 1..m in their original order (then
the augmented encoding's segment variables, then the at-most-one auxiliaries).  An
at-most-one constraint holding a true variable is dropped (F1 and F2 already make the
others false), and one holding two is the empty clause (clashing givens); otherwise its
at-most-one encoding is written over its open variables only, so the auxiliaries of a
compact encoding shrink with the grid.  This is Kwon and Jain's "optimised" encoding
(only the open cells' candidates), reached by simplification.

The map back is written in the DIMACS comments (`comment_lines`) and read by `encoder
decode --cnf` (`read_map`): `c map` lines list the original variable of each new one,
as ranges `a-b` in order; `c true` lines list the original variables the givens make
true.  A model of the simplified formula becomes one of the full formula with
`original_model`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

import numpy as np

from encoder.encodings import grid_groups
from encoder.errors import InputError
from encoder.geometry import Geometry
from encoder.numbering import Clause, Grid, num_cell_vars

MAP_PREFIX = "map "
TRUE_PREFIX = "true "
NUMBERS_PER_LINE = 16


class Simplification:
    """The variables a grid's givens fix, and the dense renumbering of the others."""

    def __init__(self, grid: Grid, geometry: Geometry):
        n = geometry.size
        self.cell_vars = num_cell_vars(n)
        self.value = np.zeros(self.cell_vars + 1, dtype=np.int8)  # 1 true, -1 false, 0 open
        for _, units in grid_groups(grid, geometry, "centrale"):
            lits = np.array([unit[0] for unit in units], dtype=np.int64)
            self.value[np.abs(lits)] = np.sign(lits)
        open_vars = np.flatnonzero(self.value[1:] == 0) + 1
        self.originals = open_vars  # new variable i + 1 is original variable originals[i]
        self.true_vars = np.flatnonzero(self.value[1:] == 1) + 1
        self.new_of = np.zeros(self.cell_vars + 1, dtype=np.int64)
        self.new_of[open_vars] = np.arange(1, open_vars.size + 1)
        self.open_count = int(open_vars.size)
        self.extra = 0  # variables beyond the cells (segments), shifted down as a block

    def num_vars(self, base_vars: int) -> int:
        """Return the variables of the simplified formula before any auxiliary, for rules
        that use `base_vars` variables (cells, then segments)."""
        self.extra = base_vars - self.cell_vars
        return self.open_count + self.extra

    def _new(self, v: int) -> int:
        return int(self.new_of[v]) if v <= self.cell_vars else v - self.cell_vars + self.open_count

    def _lit_value(self, lit: int) -> int:
        v = abs(lit)
        if v > self.cell_vars:
            return 0
        return int(self.value[v]) if lit > 0 else -int(self.value[v])

    def rows(self, rows: np.ndarray, kind: str) -> list[list[int]]:
        """Return the rows (positive cell variables) left once the givens are applied,
        renumbered: 'alo' rows with a true variable are dropped; 'amo' rows with one are
        dropped and rows with two become empty (the caller writes the empty clause)."""
        if rows.size == 0:
            return []
        values = self.value[rows]
        trues = (values == 1).sum(axis=1)
        kept: list[list[int]] = []
        for row, value, true in zip(rows, values, trues, strict=True):
            if true == 0:
                kept.append(self.new_of[row[value == 0]].tolist())
            elif kind == "amo" and true > 1:
                kept.append([])
        if kind == "amo":  # a row of one open variable says nothing: at most one of one
            kept = [row for row in kept if len(row) != 1]
        return kept

    def clauses(self, clauses: Iterable[Sequence[int]]) -> list[Clause]:
        """Return clauses with the givens applied and the variables renumbered."""
        out = []
        for clause in clauses:
            values = [self._lit_value(lit) for lit in clause]
            if 1 in values:
                continue
            out.append(
                [
                    self._new(abs(lit)) * (1 if lit > 0 else -1)
                    for lit, value in zip(clause, values, strict=True)
                    if value == 0
                ]
            )
        return out

    def comment_lines(self) -> list[str]:
        """Return the DIMACS comments that map the new variables back."""
        lines = [
            f"simplified by the givens: {self.cell_vars - self.open_count} of "
            f"{self.cell_vars} cell variables fixed and removed; the {self.open_count} open "
            f"ones renumbered 1..{self.open_count} (original numbers in the 'map' lines)",
        ]
        if self.extra:
            lines.append(
                f"variables {self.open_count + 1}..{self.open_count + self.extra}: the segment "
                f"variables {self.cell_vars + 1}..{self.cell_vars + self.extra}, in order"
            )
        lines += [MAP_PREFIX + text for text in _ranges_lines(self.originals)]
        lines.append("the givens' true cell variables (original numbers) in the 'true' lines")
        lines += [TRUE_PREFIX + text for text in _ranges_lines(self.true_vars)]
        return lines


def _ranges_lines(numbers: np.ndarray) -> list[str]:
    """Return sorted numbers as lines of ranges 'a-b' and singletons."""
    items: list[str] = []
    values = numbers.tolist()
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and values[end + 1] == values[end] + 1:
            end += 1
        first, last = values[start], values[end]
        items.append(str(first) if first == last else f"{first}-{last}")
        start = end + 1
    return [
        " ".join(items[i : i + NUMBERS_PER_LINE]) for i in range(0, len(items), NUMBERS_PER_LINE)
    ] or [""]


def _expand(items: Iterable[str], name: str, line: int, highest: int) -> list[int]:
    """Return the variables of 'a-b' ranges and singletons, each checked to lie in
    1..highest before anything is expanded (a corrupt range cannot fill the memory)."""
    out: list[int] = []
    for item in items:
        first, _, last = item.partition("-")
        try:
            a, b = int(first), int(last or first)
        except ValueError:
            raise InputError(f"bad renumbering map item {item!r}", name, line) from None
        if not 1 <= a <= b <= highest:
            raise InputError(
                f"renumbering map item {item!r} is not a range of cell variables 1..{highest}",
                name,
                line,
            )
        out.extend(range(a, b + 1))
    return out


_HEADLINE = re.compile(r"simplified by the givens: \d+ of (\d+) cell variables .*the (\d+) open")


def read_map(text: str, name: str) -> tuple[list[int], list[int]] | None:
    """Return (originals, true variables) from a simplified CNF's comments, or None when
    the file is not a simplified formula.  The map must be what the encoder writes: as
    many original variables as the headline's open ones, in increasing order, none of
    them among the true ones, all cell variables."""
    originals: list[int] = []
    true_vars: list[int] = []
    highest = open_count = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("c"):
            break
        body = line[1:].strip()
        headline = _HEADLINE.match(body)
        if headline:
            highest, open_count = int(headline.group(1)), int(headline.group(2))
        elif body.startswith((MAP_PREFIX, TRUE_PREFIX)) and highest is None:
            raise InputError(
                "renumbering map before the 'simplified by the givens' line", name, number
            )
        elif body.startswith(MAP_PREFIX):
            originals += _expand(body[len(MAP_PREFIX) :].split(), name, number, highest)
        elif body.startswith(TRUE_PREFIX):
            true_vars += _expand(body[len(TRUE_PREFIX) :].split(), name, number, highest)
    if highest is None:
        return None
    if len(originals) != open_count:
        raise InputError(
            f"the renumbering map lists {len(originals)} variables, the headline {open_count}",
            name,
        )
    if any(b <= a for a, b in itertools.pairwise(originals)):
        raise InputError("the renumbering map is not in increasing order", name)
    if set(true_vars) & set(originals):
        raise InputError("a variable is both open (map) and true (given) in the map", name)
    return originals, true_vars


def original_model(
    literals: Iterable[int], originals: Sequence[int], true_vars: Sequence[int]
) -> list[int]:
    """Return the true cell literals of the full formula for a model of the simplified
    one: its true open variables under their original numbers, and the givens'."""
    m = len(originals)
    return [originals[lit - 1] for lit in literals if 0 < lit <= m] + list(true_vars)
