"""The home-grown solvers behind `solve --solver up|fl|fl2|dpll`.

`up` and `fl`/`fl2` are incomplete: they answer SAT only when the literals they derive
already satisfy every clause (unassigned variables then take any value, here false),
UNSAT when they reach a contradiction, and UNKNOWN otherwise.  `dpll` is complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solvers.engine import Engine, Status

INCOMPLETE_DEPTHS = {"up": 0, "fl": 1, "fl2": 2, "fl3": 3}


@dataclass(frozen=True)
class HomeResult:
    status: Status
    model: tuple[int, ...] = ()
    stats: dict[str, int] = field(default_factory=dict)


def complete_model(engine: Engine, literals: Sequence[int], clauses: Sequence[Sequence[int]]):
    """Return a full model extending `literals` if they satisfy every clause, else None."""
    true = set(literals)
    if any(not any(lit in true for lit in clause) for clause in clauses):
        return None
    value = {abs(lit): lit for lit in literals}
    return tuple(value.get(v, -v) for v in range(1, engine.num_vars + 1))


def solve_home(
    engine: Engine, clauses: Sequence[Sequence[int]], solver: str, budget: int | None = None
) -> HomeResult:
    """Run one of the home-grown solvers on the engine's formula."""
    if solver == "dpll":
        result = engine.solve(budget=budget)
        stats = {
            "decisions": result.decisions,
            "backtracks": result.backtracks,
            "conflicts": result.conflicts,
            "propagations": result.propagations,
        }
        return HomeResult(result.status, result.model, stats)
    depth = INCOMPLETE_DEPTHS[solver]
    ok, derived = engine.propagate() if depth == 0 else engine.probe(depth=depth)
    if not ok:
        return HomeResult(Status.UNSAT)
    literals = [*engine.fixed(), *derived]
    model = complete_model(engine, literals, clauses)
    if model is None:
        return HomeResult(Status.UNKNOWN, (), {"assigned": len(literals)})
    return HomeResult(Status.SAT, model, {"assigned": len(literals)})
