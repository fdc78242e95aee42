"""The native core: the bit board of the exam's formula and the clause engine, in C
(solvers/core/native, one folder per concern, built by the package's own build), with
one Python module per type: `Board` (board), `Clauses` (clauses: the one native object
of a CNF, which also searches and traces), the length kernels (length), the proof log
(proof_log), `Engine` (engine, PySAT-shaped, over one Clauses) and `GridRules` (rules).
The extensions and the constants they define (the outcomes of status.h among them) are
loaded in `extension`; the arguments every kernel takes are made in `boundary`.  This
package re-exports the names its callers use.
"""

from __future__ import annotations

from encoder.geometry import Geometry
from solvers.core.board import BOARD_ENCODING, Board, applies
from solvers.core.boundary import POLARITIES, grid_rows, literal_sets
from solvers.core.clauses import Clauses, Counters
from solvers.core.extension import *  # noqa: F403  (the outcomes, bounds and records)
from solvers.core.extension import __all__ as _extension_names
from solvers.core.extension import _core  # noqa: F401  (the extension, for its tests)

__all__ = [
    *_extension_names, "BOARD_ENCODING", "POLARITIES", "Board", "Clauses", "Counters",
    "applies", "board_or_clauses", "grid_rows", "literal_sets",
]  # fmt: skip


def board_or_clauses(geometry: Geometry, encoding: str = BOARD_ENCODING) -> Board | Clauses:
    """Return the core's engine for the rules of `geometry` in `encoding`: the board
    where it computes the clause engine's answers (`applies`), else the clause engine
    over the rule formula.  Both answer `probe`, `propagate`, `depths` (its time limit
    and its proof log too), `work` and `hypotheses` alike; the caller never asks which
    it got (an `Engine` is the other factory's answer: any CNF, PySAT-shaped)."""
    if applies(geometry, encoding):
        return Board(geometry)
    from encoder.dimacs import Cnf  # the board never needs the clauses
    from encoder.encodings import rule_formula

    formula = rule_formula(geometry, encoding)
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    return Clauses((cnf.literals, cnf.offsets), formula.num_vars)
