"""Work budgets: the default bound on every grid's rating and solve, in each engine's own
units, so that a result is a function of its input and never of the machine's load.

A budget counts work the engine does anyway, and stops a grid at a point that depends
on the grid alone:

- `work`: the home-grown engine's closures, depth loops and search, in its work units:
  the clause engine counts literals propagated and hypotheses tested, the board cells
  placed and hypotheses tested.  A grid is given up at the first
  hypothesis boundary where the work spent on it exceeds the budget: the C core checks
  there.
- `searches`: the refutation-length and BxB ratings; the hypotheses whose shortest
  refutation was searched (each open candidate of each step).
- `conflicts`: a PySAT solver's conflicts in one call (`conf_budget`).

The defaults rate every grid of the project's own sets with room to spare (the
heaviest grid of `data/sets/` needs less than a tenth of each); a grid past a budget is
labelled `>budget`, the same on every machine.  A wall-clock limit (`--timeout`) is a
separate opt-in: its outcome is `timeout`, and results that used it depend on the
machine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

DEFAULT_WORK = 200_000_000
DEFAULT_SEARCHES = 50_000_000
DEFAULT_CONFLICTS = 1_000_000

OVER_BUDGET = ">budget"  # the label of a grid whose budget ran out


@dataclass(frozen=True)
class Budget:
    """The work one grid may take, per kind of engine (see the module docstring)."""

    work: int = DEFAULT_WORK
    searches: int = DEFAULT_SEARCHES
    conflicts: int = DEFAULT_CONFLICTS

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"budget {field.name} must be a positive integer, not {value!r}")

    def describe(self) -> str:
        """Return the budget as the commands print it: 'work=N, ...'."""
        return ", ".join(f"{f.name}={getattr(self, f.name):,}" for f in fields(self))


DEFAULT_BUDGET = Budget()
KINDS = tuple(f.name for f in fields(Budget))


# What a budget of each kind counts, as its messages say it.
UNITS = {"work": "work units", "searches": "searches", "conflicts": "conflicts"}


def budget_reason(kind: str, budget: int) -> str:
    """Return the reason an UNKNOWN answer gives when a budget stopped it."""
    return f"work budget of {budget:,} {UNITS[kind]} reached"


class BudgetExhausted(Exception):
    """A query spent its work budget; what it computed so far is abandoned."""

    def __init__(self, kind: str, budget: int):
        self.kind, self.budget = kind, budget
        super().__init__(budget_reason(kind, budget))


def budget_from(items: list[tuple[str, int]]) -> Budget:
    """Return the default budget with the `--budget` items given (the front ends'
    `cli.flags.add_budget_flag`)."""
    return replace(DEFAULT_BUDGET, **dict(items))
