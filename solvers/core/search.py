"""DPLL on the native clause engine (solvers/core/native/search/search.c), with this thin
Python face: one model, the number of models up to a limit, or the models one after the other.  The
order of decisions: the lowest literal of the first shortest open clause, true first;
then binary clauses and free variables, false first (search.c says why), so the
answers and the decision, backtrack and conflict counts depend on the formula alone.

Bounds: a decision budget (`budget`), a work budget (`work_budget`: the clause engine's
work units, literals propagated and hypotheses tested, since the search began; checked
at the start of each node and at the closures' hypothesis boundaries) and a deadline
(`deadline`: a `time.monotonic()` value, checked at the start of each node).  The
search runs without the GIL and polls for signals at every node, so Ctrl-C and the
time limit's SIGALRM (`solvers.limits.alarm_after`) raise within a few tens of
milliseconds, the state back at the root.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from solvers.core.extension import load_extension
from solvers.core.proof_log import NO_LOG

_search = load_extension("_search")

FOUND = _search.FOUND  # max_models models found
EXHAUSTED = _search.EXHAUSTED  # no (further) model
DECISIONS = _search.DECISIONS  # the decision budget ran out
WORK = _search.WORK  # the work budget ran out
TIME = _search.TIME  # the deadline passed


@dataclass(frozen=True)
class Counters:
    """The engine's counters since the Search was made: work (literals propagated and
    hypotheses tested), hypotheses, conflicts (failed hypotheses, contradictory frames
    and nodes), decisions, backtracks."""

    work: int
    hypotheses: int
    conflicts: int
    decisions: int
    backtracks: int


class Search:
    """DPLL on one CNF formula of DIMACS clauses (a pair (flat, offsets) of int64 arrays,
    clause i being flat[offsets[i]:offsets[i + 1]]) over num_vars variables (at least
    one); its own state, one search at a time."""

    def __init__(self, flat: np.ndarray, offsets: np.ndarray, num_vars: int):
        flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in (flat, offsets))
        self.num_vars = int(num_vars)
        self._search = _search.Search(flat, offsets, self.num_vars)
        self._model = np.zeros(self.num_vars, np.int64)

    @property
    def ok(self) -> bool:
        """False when the formula's units (or an empty clause) are contradictory."""
        return self._search.ok()

    def counters(self) -> Counters:
        return Counters(*self._search.counters())

    def run(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        max_models: int | None = 1,
        budget: int | None = None,
        work_budget: int | None = None,
        deadline: float | None = None,
        probe_depth: int = 0,
        positive_only: bool = False,
        log: np.ndarray = NO_LOG,
        next_model: bool = False,
    ) -> tuple[int, int, np.ndarray | None]:
        """Search above the assumptions (DIMACS ints): return (outcome, models found by
        this call, the last model as num_vars signed literals when FOUND, else None).

        `max_models`, `budget` (decisions), `work_budget`: None for none.  `log`: where
        the lemmas of the search and its closures go until a model is found
        (`solvers.core.proof_log`).  `next_model`: go on from the model the last call found
        (the assumptions are then ignored)."""
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        deadline_ns = -1 if deadline is None else max(int(deadline * 1e9), 0)
        outcome, models = self._search.search(
            lits, next_model, _or_minus_one(max_models), _or_minus_one(budget),
            _or_minus_one(work_budget), deadline_ns, int(probe_depth), bool(positive_only), log,
            self._model,
        )  # fmt: skip
        return outcome, models, self._model.copy() if outcome == FOUND else None

    def propagate(self, assumptions: Sequence[int] | np.ndarray = ()) -> tuple[bool, np.ndarray]:
        """Return (True, the literals unit propagation of the assumptions assigns above
        the root level, in order) or (False, empty) on a conflict, as Engine.propagate;
        the search after it finds the watches as this propagation left them."""
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        out = np.empty(self.num_vars, np.int64)
        count = self._search.propagate(lits, out)
        return count >= 0, out[: max(count, 0)].copy()

    def fixed(self) -> np.ndarray:
        """Return the literals of the root level (the units and what they imply), in
        the order they were assigned; empty when they are contradictory."""
        out = np.empty(self.num_vars, np.int64)
        return out[: max(self._search.fixed(out), 0)].copy()

    def models(self, assumptions: Sequence[int] | np.ndarray = ()) -> Iterator[np.ndarray]:
        """Yield every model above the assumptions, each as num_vars signed literals."""
        outcome, _, model = self.run(assumptions)
        while outcome == FOUND:
            yield model
            outcome, _, model = self.run(next_model=True)


def _or_minus_one(value: int | None) -> int:
    if value is not None and value < 0:
        raise ValueError(f"a limit or budget must be >= 0 or None, not {value}")
    return -1 if value is None else int(value)
