"""From a grid to a DIMACS document: header comments, `p cnf`, clauses.

Two roads to the same text.  `encode_dimacs` returns a string: the rule clauses do not
depend on the grid, so their text is formatted once per (geometry, encoding, at-most-one
encoding) and reused; encoding a grid then only formats its unit clauses.  `write_cnf`
streams to a file: the clauses are made one constraint at a time (encodings.RuleClauses)
and written to a temporary file while they are counted, then the comments and the
`p cnf` header (which need the counts) are written, followed by the clause text copied
over; the memory it takes is that of one constraint, not of the formula (a 100x100
grid's rules run to hundreds of megabytes of text).  With `simplify` the givens are
applied first (encoder.simplify) and the comments carry the map back.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from typing import TextIO

from encoder.amo import at_most_one
from encoder.dimacs import clause_lines
from encoder.encodings import RuleClauses, grid_groups, rule_blocks
from encoder.geometry import Geometry
from encoder.grids import format_line
from encoder.numbering import Grid, num_cell_vars
from encoder.simplify import Simplification
from encoder.version import __version__


@dataclass(frozen=True)
class CnfSize:
    """What `write_cnf` wrote: variables, clauses and bytes of the document."""

    num_vars: int
    num_clauses: int
    num_bytes: int


@lru_cache(maxsize=32)
def _rules(geometry: Geometry, encoding: str, amo: str) -> tuple[str, tuple, int, tuple, int]:
    """Return (clause text, clause counts per group, variables, auxiliaries, variables
    before the auxiliaries) of the rules."""
    stream = RuleClauses(geometry, encoding, amo)
    counts = {block.name: 0 for block in stream.blocks}
    parts = []
    for name, clauses in stream.chunks():
        counts[name] += len(clauses)
        parts.append(clause_lines(clauses))
    return (
        "".join(parts),
        tuple(counts.items()),
        stream.num_vars,
        tuple(stream.auxiliaries),
        stream.base_vars,
    )


def rule_size(
    geometry: Geometry, encoding: str = "centrale", amo: str = "pairwise"
) -> tuple[int, int]:
    """Return (variables, clauses) of the rule formula without writing it: the rows of a
    block all have the same length, so one row's at-most-one stands for them all."""
    num_vars, blocks = rule_blocks(geometry, encoding)
    clauses = 0
    for block in blocks:
        rows = len(block.rows)
        if block.kind != "amo" or rows == 0:
            clauses += rows
            continue
        length = len(block.rows[0])
        one, next_var = at_most_one(list(range(1, length + 1)), amo, length + 1)
        clauses += rows * len(one)
        num_vars += rows * (next_var - length - 1)
    return num_vars, clauses


def _comments(
    geometry: Geometry,
    grid: Grid | None,
    encoding: str,
    givens: str,
    amo: str,
    stream: RuleClauses | None,
    auxiliaries: tuple,
    base_vars: int,
    source: str | None,
) -> list[str]:
    n = geometry.size
    cell_vars = num_cell_vars(n)
    what = f"encoding: {encoding}; givens: {givens if grid is not None else 'none (rules only)'}"
    if amo != "pairwise":
        what += f"; at most one: {amo}"
    if stream is not None and stream.fixed is not None:
        what = f"encoding: {encoding}; at most one: {amo}; givens: applied (--simplify)"
    lines = [
        f"sudoku-sat encoder {__version__}",
        what,
        f"geometry: {geometry.describe()}",
        f"variable {n * n}*i + {n}*j + k (1..{cell_vars}) is true when cell (i,j) holds value k",
        f"  (rows i and columns j 0-based, values k in 1..{n}; "
        + (f"symbols {geometry.symbols})" if geometry.symbols else "values written as numbers)"),
    ]
    if stream is not None and stream.fixed is not None:
        lines += stream.fixed.comment_lines()
        full_vars, full_clauses = rule_size(geometry, encoding, amo)
        lines.append(f"the full rule formula has {full_vars} variables and {full_clauses} clauses")
    elif base_vars > cell_vars:
        segments = f"variables {cell_vars + 1}..{base_vars}"
        lines.append(f"{segments}: segment variables (augmented encoding)")
    for aux in auxiliaries:
        lines.append(f"variables {aux.first}..{aux.last}: {amo} auxiliaries of {aux.block}")
    if grid is not None:
        lines.append(f"grid: {format_line(grid, geometry)}")
    if source:
        lines.append(f"source: {source}")
    return lines


def encode_dimacs(
    grid: Grid | None,
    geometry: Geometry,
    encoding: str = "centrale",
    givens: str = "centrale",
    source: str | None = None,
    amo: str = "pairwise",
    simplify: bool = False,
) -> str:
    """Return the DIMACS text of F_initiale for `grid` (the rules alone when grid is None)."""
    if simplify:
        out = io.StringIO()
        write_cnf(out, grid, geometry, encoding, givens, source, amo, simplify)
        return out.getvalue()
    text, rule_counts, num_vars, auxiliaries, base_vars = _rules(geometry, encoding, amo)
    units = grid_groups(grid, geometry, givens) if grid is not None else []
    counts = list(rule_counts) + [(name, len(block)) for name, block in units]
    comments = _comments(
        geometry, grid, encoding, givens, amo, None, auxiliaries, base_vars, source
    )
    comments += _count_lines(counts)
    unit_text = "".join(clause_lines(block) for _, block in units)
    total = sum(count for _, count in counts)
    return _header(comments, num_vars, total) + text + unit_text


def _count_lines(counts: list[tuple[str, int]]) -> list[str]:
    return [
        "clauses per group: " + ", ".join(f"{name} {count}" for name, count in counts),
        f"total clauses: {sum(count for _, count in counts)}",
    ]


def _header(comments: list[str], num_vars: int, num_clauses: int) -> str:
    head = "".join(f"c {line}\n" if line else "c\n" for line in comments)
    return head + f"p cnf {num_vars} {num_clauses}\n"


def write_cnf(
    out: TextIO,
    grid: Grid | None,
    geometry: Geometry,
    encoding: str = "centrale",
    givens: str = "centrale",
    source: str | None = None,
    amo: str = "pairwise",
    simplify: bool = False,
) -> CnfSize:
    """Write the DIMACS document of `grid` to `out`, clause by clause (see the module
    docstring); return its size.  `simplify` applies the givens (a grid is needed)."""
    if simplify and grid is None:
        raise ValueError("the simplified formula needs a grid")
    fixed = Simplification(grid, geometry) if simplify else None
    stream = RuleClauses(geometry, encoding, amo, fixed)
    counts = {block.name: 0 for block in stream.blocks}
    written = 0
    with tempfile.TemporaryFile("w+", encoding="ascii") as body:
        for name, clauses in stream.chunks():
            counts[name] += len(clauses)
            written += body.write(clause_lines(clauses))
        units = grid_groups(grid, geometry, givens) if grid is not None and not simplify else []
        unit_text = "".join(clause_lines(block) for _, block in units)
        all_counts = list(counts.items()) + [(name, len(block)) for name, block in units]
        comments = _comments(
            geometry,
            grid,
            encoding,
            givens,
            amo,
            stream,
            tuple(stream.auxiliaries),
            stream.base_vars,
            source,
        )
        comments += _count_lines(all_counts)
        header = _header(comments, stream.num_vars, sum(c for _, c in all_counts))
        out.write(header)
        body.seek(0)
        shutil.copyfileobj(body, out, 1 << 20)
        out.write(unit_text)
    return CnfSize(
        stream.num_vars,
        sum(c for _, c in all_counts),
        len(header) + written + len(unit_text),
    )
