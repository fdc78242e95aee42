"""From a grid to a DIMACS document: header comments, `p cnf`, clauses.

The rule clauses do not depend on the grid, so their text is formatted once per
(geometry, encoding) and reused; encoding a grid then only formats its unit clauses.
"""

from __future__ import annotations

from functools import lru_cache

from encoder.dimacs import clause_lines, write_dimacs
from encoder.encodings import Grid, grid_groups, rule_formula
from encoder.geometry import Geometry
from encoder.grids import format_line
from encoder.version import __version__


@lru_cache(maxsize=32)
def _rule_text(geometry: Geometry, encoding: str) -> str:
    return clause_lines(rule_formula(geometry, encoding).clauses)


def _meaning(geometry: Geometry, num_vars: int) -> list[str]:
    n = geometry.size
    lines = [
        f"variable {n * n}*i + {n}*j + k (1..{n**3}) is true when cell (i,j) holds value k",
        f"  (rows i and columns j 0-based, values k in 1..{n}; symbols {geometry.symbols})",
    ]
    if num_vars > n**3:
        lines.append(f"variables {n**3 + 1}..{num_vars}: segment variables (augmented encoding)")
    return lines


def encode_dimacs(
    grid: Grid | None,
    geometry: Geometry,
    encoding: str = "centrale",
    givens: str = "centrale",
    source: str | None = None,
) -> str:
    """Return the DIMACS text of F_initiale for `grid` (the rules alone when grid is None)."""
    rules = rule_formula(geometry, encoding)
    units = grid_groups(grid, geometry, givens) if grid is not None else []
    counts = [(name, len(block)) for name, block in rules.groups] + [
        (name, len(block)) for name, block in units
    ]
    total = sum(count for _, count in counts)
    comments = [
        f"sudoku-sat encoder {__version__}",
        f"encoding: {encoding}; givens: {givens if grid is not None else 'none (rules only)'}",
        f"geometry: {geometry.describe()}",
        *_meaning(geometry, rules.num_vars),
    ]
    if grid is not None:
        comments.append(f"grid: {format_line(grid, geometry)}")
    if source:
        comments.append(f"source: {source}")
    comments.append("clauses per group: " + ", ".join(f"{name} {count}" for name, count in counts))
    comments.append(f"total clauses: {total}")
    unit_text = "".join(clause_lines(block) for _, block in units)
    return write_dimacs(
        rules.num_vars, [_rule_text(geometry, encoding), unit_text], total, comments
    )
