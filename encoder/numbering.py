"""The one place that numbers propositional variables.

Variable x(i, j, k) says "cell (i, j) holds value k", with 0-based row i and column j
and value k in 1..N.  Following the Centrale 2014 exam it is DIMACS variable
N*N*i + N*j + k, so a 9x9 grid uses variables 1..729 and the rest of the project
never does this arithmetic itself.  Literals are DIMACS ints everywhere: 25 is x25,
-25 is its negation.  The project's vocabulary types are declared here once: `Lit`,
`Clause` and `Grid` (a grid as N*N values in reading order, cell c = N*i + j, 0 for a
blank), and every other module imports them.
"""

from __future__ import annotations

Lit = int  # a DIMACS literal: v or -v, v >= 1
Clause = list[Lit]
Grid = tuple[int, ...]  # N*N values in reading order (cell c = N*i + j), 0 for a blank


def var(i: int, j: int, k: int, n: int = 9) -> int:
    """Return the DIMACS variable of x(i, j, k) for an n x n grid."""
    if not (0 <= i < n and 0 <= j < n and 1 <= k <= n):
        raise ValueError(f"x({i},{j},{k}) is outside a {n}x{n} grid")
    return n * n * i + n * j + k


def unvar(v: int, n: int = 9) -> tuple[int, int, int]:
    """Return (i, j, k) for a cell variable v of an n x n grid (inverse of `var`)."""
    if not 1 <= v <= n * n * n:
        raise ValueError(f"variable {v} is not a cell variable of a {n}x{n} grid")
    i, rest = divmod(v - 1, n * n)
    j, k0 = divmod(rest, n)
    return i, j, k0 + 1


def cell_var(c: int, k: int, n: int = 9) -> int:
    """Return the variable of 'cell number c (= n*i + j, reading order) holds k': the
    same number as var(i, j, k), for code that walks cells by index (numpy arrays of
    cells and values give an array of variables)."""
    return n * c + k


def cell_value(v: int, n: int = 9) -> tuple[int, int]:
    """Return (cell number c, value k) of a cell variable v (inverse of `cell_var`);
    given a numpy array of variables, two arrays."""
    c, k0 = divmod(v - 1, n)
    return c, k0 + 1


def num_cell_vars(n: int = 9) -> int:
    """Return how many cell variables an n x n grid has (729 for 9x9)."""
    return n * n * n
