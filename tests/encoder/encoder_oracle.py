"""Shared oracle for the encoder tests: the project's grids, an independent checker, a
PySAT solve loop (the tests' one enumeration oracle, tests/pysat_enumeration.py) and a
runner for `python -m encoder`.

Nothing here imports `encoder`: the exam's numbering (variable x(i,j,k) = N*N*i + N*j
+ k), the regions of each variant (rows, columns, boxes; the two main diagonals of
X-Sudoku; Hyper's four extra 3x3 windows; a jigsaw's region map) and the checks are
written again from those rules of the puzzles, so a bug in the encoder cannot hide
inside the oracle that judges it.

Grids that are only examples come from the project (`golden_puzzles`: the real puzzles
of tests/solvers/data/golden.txt, first lines of the public sets), so those tests run
anywhere; a test about a public set itself asks for it with the `public` fixture
(tests/conftest.py), inside the test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from puzzle_lines import puzzle_lines  # noqa: F401  (re-exported to the encoder tests)
from pysat_enumeration import pysat_models

PROJECT = Path(__file__).resolve().parents[2]
SCHOOL_EXAMPLE = PROJECT / "data" / "school_paper_example.txt"
SETS = PROJECT / "data" / "sets"  # puzzles the project generated (`# geometry:` headers)
GOLDEN = PROJECT / "tests" / "solvers" / "data" / "golden.txt"

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # values 1..25 in the default alphabet
BLANKS = "._0"

Cell = tuple[int, int]


def golden_puzzles(flags: str = "", jigsaw: bool = False) -> list[str]:
    """Return the real puzzles (one solution) of golden.txt's section `# geometry: FLAGS`,
    in file order: classic 9x9 (flags "") gives the first lines of norvig_top95,
    royle17 (its line 2) and forum_hardest_1106; jigsaw=True the `cells|regions` line of
    andoku_jigsaw; the other sections one first line each (see golden.txt's header)."""
    found, section = [], None
    for raw in GOLDEN.read_text(encoding="utf-8").splitlines():
        if raw.startswith("# geometry:"):
            section = raw.removeprefix("# geometry:").strip()
        elif raw.strip() and not raw.startswith("#"):
            field, count, _ = raw.split(":")
            if (section, count, "|" in field) == (flags, "1", jigsaw):
                found.append(field)
    assert found, f"golden.txt has no real puzzle under '# geometry: {flags}'"
    return found


def x(i: int, j: int, k: int, n: int = 9) -> int:
    """The exam's variable x(i,j,k), numbered N*N*i + N*j + k (written again on purpose)."""
    return n * n * i + n * j + k


def values_of(line: str, symbols: str = SYMBOLS) -> tuple[int, ...]:
    """Return the values of a one-line grid: symbol position + 1, blanks 0."""
    return tuple(0 if ch in BLANKS and ch not in symbols else symbols.index(ch) + 1 for ch in line)


@dataclass(frozen=True)
class Layout:
    """A variant described the way the data files describe it, independent of the encoder."""

    size: int
    box: tuple[int, int] | None = None  # (height, width) of the boxes
    diagonals: bool = False
    windows: bool = False  # 9x9 Hyper: 3x3 windows at (1,1) (1,5) (5,1) (5,5)
    jigsaw: str | None = None  # N*N region ids, one character per cell

    def units(self) -> list[list[Cell]]:
        """Return every group of cells that must hold distinct values."""
        n = self.size
        units = [[(i, j) for j in range(n)] for i in range(n)]
        units += [[(i, j) for i in range(n)] for j in range(n)]
        if self.jigsaw is not None:
            groups: dict[str, list[Cell]] = {}
            for c, ch in enumerate(self.jigsaw):
                groups.setdefault(ch, []).append(divmod(c, n))
            units += list(groups.values())
        elif self.box is not None:
            h, w = self.box
            for top in range(0, n, h):
                for left in range(0, n, w):
                    units.append([(top + a, left + b) for a in range(h) for b in range(w)])
        if self.diagonals:
            units.append([(i, i) for i in range(n)])
            units.append([(i, n - 1 - i) for i in range(n)])
        if self.windows:
            for top in (1, 5):
                for left in (1, 5):
                    units.append([(top + a, left + b) for a in range(3) for b in range(3)])
        return units

    def peers(self, cell: Cell) -> set[Cell]:
        """Return the cells sharing a unit with `cell` (itself excluded)."""
        out = {other for unit in self.units() if cell in unit for other in unit}
        out.discard(cell)
        return out


def solution_errors(
    solution: tuple[int, ...], puzzle: tuple[int, ...], layout: Layout
) -> list[str]:
    """Return what is wrong with `solution` (empty when it is a solution of `puzzle`)."""
    n = layout.size
    if len(solution) != n * n:
        return [f"{len(solution)} cells, expected {n * n}"]
    errors = []
    for c, (given, value) in enumerate(zip(puzzle, solution, strict=True)):
        if not 1 <= value <= n:
            errors.append(f"cell {divmod(c, n)} holds {value}")
        if given and given != value:
            errors.append(f"cell {divmod(c, n)} given {given}, solution {value}")
    for unit in layout.units():
        values = sorted(solution[n * i + j] for i, j in unit)
        if len(unit) == n and values != list(range(1, n + 1)):
            errors.append(f"unit {unit[:2]}... holds {values}")
        elif len(set(values)) != len(values):
            errors.append(f"unit {unit[:2]}... repeats a value: {values}")
    return errors


def grid_by_hand(model: list[int], n: int) -> tuple[int, ...]:
    """Decode the true cell variables of a model with the exam's numbering."""
    cells = [0] * (n * n)
    for lit in model:
        if 0 < lit <= n**3:
            i, rest = divmod(lit - 1, n * n)
            j, k0 = divmod(rest, n)
            assert cells[n * i + j] == 0, f"cell ({i},{j}) has two values"
            cells[n * i + j] = k0 + 1
    return tuple(cells)


def models(clauses: list[list[int]], n: int, limit: int = 2) -> list[list[int]]:
    """Return up to `limit` models (all variables) that differ on the grid of side `n`:
    `pysat_models` with blocking clauses on the N**3 cell variables."""
    return [list(model) for model in pysat_models(clauses, n**3, limit=limit)]


def run_cli(*args: object, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `python -m encoder ARGS` and return the finished process (text mode)."""
    return subprocess.run(
        [sys.executable, "-m", "encoder", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )


def assert_input_error(result: subprocess.CompletedProcess, where: str | None, *words: str) -> None:
    """Check a bad-input exit: status 1, one stderr line 'encoder: WHERE: problem'
    (WHERE None: any location)."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"encoder: {where}: " if where else "encoder: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])


def assert_usage_error(result: subprocess.CompletedProcess) -> None:
    """Check a usage error: argparse's exit status 2, no traceback, and a usage message,
    or for a value an option refused, one line naming the option (cli_common.Parser)."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip("\n").splitlines()
    one_line = len(lines) == 1 and re.match(r"\S.*: error: argument -", lines[0])
    assert "usage:" in result.stderr or one_line, result.stderr
