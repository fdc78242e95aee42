"""The native core: the bit board of the exam's formula and the clause engine, in C
(solvers/core/native, one folder per concern, built by the package's own build), with
one Python module per type: `Board` (board), `Clauses` and its `Closures` (clauses),
DPLL (search), the length kernels (length), the proof log (proof_log), `Engine`
(engine, PySAT-shaped, over them) and `GridRules` (rules).  The extensions and the
constants they define are loaded in `extension`; the arguments every kernel takes are
made in `boundary`.  This package re-exports the names its callers use.
"""

from __future__ import annotations

from encoder.geometry import Geometry
from solvers.core.board import BOARD_ENCODING, Board, applies
from solvers.core.boundary import POLARITIES, grid_rows, literal_sets
from solvers.core.clauses import Clauses
from solvers.core.extension import (
    DEPTH_BAD,
    DEPTH_BUDGET,
    DEPTH_OPEN,
    DEPTH_SAT,
    DEPTH_TIMEOUT,
    DEPTH_UNSAT,
    MAX_COUNT,
    MAX_DEPTH,
    MAX_SECONDS,
    MAX_SIDE,
    PROBE_BUDGET,
    PROBE_CONFLICT,
    PROBE_OK,
    PROBE_TIME,
    Closures,
    Depths,
    _core,
    load_extension,
    use_variant,
    variant,
    variants,
)

Trace = _core.Trace  # Trace(flat, offsets, num_vars).trace(assumptions): see trace.c

__all__ = [
    "BOARD_ENCODING", "DEPTH_BAD", "DEPTH_BUDGET", "DEPTH_OPEN", "DEPTH_SAT",
    "DEPTH_TIMEOUT", "DEPTH_UNSAT", "MAX_COUNT", "MAX_DEPTH", "MAX_SECONDS", "MAX_SIDE",
    "POLARITIES", "PROBE_BUDGET",
    "PROBE_CONFLICT", "PROBE_OK", "PROBE_TIME", "Board", "Clauses", "Closures", "Depths",
    "Trace", "applies", "engine_for", "grid_rows", "literal_sets", "load_extension",
    "use_variant", "variant", "variants",
]  # fmt: skip


def engine_for(
    geometry: Geometry,
    encoding: str = BOARD_ENCODING,
    proofs: bool = False,
    time_limit: bool = False,
) -> Board | Clauses:
    """Return the core's engine for the rules of `geometry` in `encoding`: the board
    where it computes the clause engine's answers (`applies`) and neither proofs (the
    closures' lemmas) nor the opt-in time limit are asked, else the clause engine over
    the rule formula.  Both answer `probe`, `propagate`, `depths`, `work` and
    `hypotheses` alike; the caller never asks which it got."""
    if applies(geometry, encoding) and not proofs and not time_limit:
        return Board(geometry)
    from encoder.dimacs import Cnf  # the board never needs the clauses
    from encoder.encodings import rule_formula

    formula = rule_formula(geometry, encoding)
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    return Clauses((cnf.literals, cnf.offsets), formula.num_vars)
