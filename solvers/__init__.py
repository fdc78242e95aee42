"""SAT solvers: the home-grown engine, the exam-faithful reference, and adapters.

The public API, shaped like PySAT's:

- `Engine(clauses)`: the home-grown engine on any CNF (DIMACS ints): `propagate`,
  `probe` (the failed-literal rule, nested to any depth), `solve`, `count`;
- `solve(grid, solver=...)`: one grid, one solver of the registry, its answer as a
  `GridResult` (a notebook draws it);
- `count(grid, cap=2)`, `count_many(grids, cap=2)`: solutions counted on the board (DPLL
  in the C core), one grid or many in one call;
- `SOLVERS`: the registry, name -> factory of a backend (`up`, `fl`, `fl2`, `fl3`,
  `dpll`, PySAT's, solver binaries);
- `Rater(geometry).rate(grid)`: the depth of reasoning a grid needs;
- `Explainer(geometry).steps(grid)`: the reasoning as `Step` records;
- `Status`: SAT, UNSAT, UNKNOWN.

The native core and PySAT are imported on first use of a name that needs them, so
`import solvers` stays cheap.

>>> from solvers import Engine, SOLVERS, Status
>>> engine = Engine([[1, 2], [-1, 2], [-2, 3]])
>>> engine.propagate([1])
(True, [1, 2, 3])
>>> engine.solve().status is Status.SAT
True
>>> list(SOLVERS)[:5]
['up', 'fl', 'fl2', 'fl3', 'dpll']
>>> with SOLVERS["minisat22"]() as minisat:  # a backend: load a formula, then solve
...     minisat.load([[1, 2], [-1], [-2, 3]], num_vars=3).solve().model
(-1, 2, 3)

The depth of reasoning of the Easter Monster, and its first steps explained:

>>> from solvers import Explainer, Rater
>>> from encoder import parse_grid, standard
>>> grid = parse_grid(
...     "1.......2.9.4...5...6...7...5.9.3.......7......."
...     "85..4.7.....6...3...9.8...2.....1", standard(9))
>>> Rater(standard(9)).rate(grid).depth
2
>>> steps = list(Explainer(standard(9)).steps(grid))
>>> steps[0].kind, steps[-1].kind, any(step.kind == "hypothesis" for step in steps)
('grid', 'solved', True)
>>> steps[-1].after.values == Rater(standard(9)).rate(grid).solution
True
"""

from __future__ import annotations

from encoder.status import Status

__all__ = [
    "SOLVERS",
    "Engine",
    "Explainer",
    "GridResult",
    "Rater",
    "Status",
    "Step",
    "count",
    "count_many",
    "solve",
]


def __getattr__(name: str):
    # Each name from its module, imported when first asked for (the native core,
    # PySAT): `import solvers` itself loads none of them.
    if name == "SOLVERS":
        from solvers.backends.registry import REGISTRY

        return REGISTRY
    if name == "Engine":
        from solvers.core.engine import Engine

        return Engine
    if name in ("Explainer", "Step"):
        from solvers.explain import steps as explain

        return getattr(explain, name)
    if name == "Rater":
        from solvers.ratings.depth import Rater

        return Rater
    if name in ("count", "count_many"):
        from solvers.backends import count as counting

        return getattr(counting, name)
    if name in ("GridResult", "solve"):
        from solvers.backends import solve as grid_solve

        return getattr(grid_solve, name)
    raise AttributeError(f"module 'solvers' has no attribute {name!r}")
