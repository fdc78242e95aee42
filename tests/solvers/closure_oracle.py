"""Oracles of unit propagation and the failed-literal closure that share nothing with
the native core: a naive unit propagation in plain Python (every clause rescanned until
nothing changes) and the closure of depth k the slow obvious way (full passes over the
variables in order, nested by plain recursion), on any propagation function, PySAT's
`Minisat22.propagate` included for formulas too big for plain Python.

The core's closure visits candidates round-robin and skips literals implied by a passed
hypothesis; agreeing with this oracle on the set of literals (or the contradiction)
checks that those shortcuts keep the (unique) fixpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Propagate = Callable[[Sequence[int]], tuple[bool, set[int]]]


def unit_propagate(clauses: Sequence[Sequence[int]], assumptions: Sequence[int]):
    """Return (True, every literal the assumptions and the clauses' units force) or
    (False, set()) on a contradiction (an assumption and its negation, or a clause whose
    every literal is false)."""
    true: set[int] = set()
    for lit in assumptions:
        if -lit in true:
            return False, set()
        true.add(lit)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in true for lit in clause):
                continue
            open_lits = [lit for lit in clause if -lit not in true]
            if not open_lits:
                return False, set()
            if len(set(open_lits)) == 1:
                true.add(open_lits[0])
                changed = True
    return True, true


def python_propagate(clauses: Sequence[Sequence[int]]) -> Propagate:
    return lambda assumptions: unit_propagate(clauses, assumptions)


def minisat_propagate(solver) -> Propagate:
    """Propagation by an open PySAT solver (`solver.propagate`), as a set."""

    def propagate(assumptions: Sequence[int]) -> tuple[bool, set[int]]:
        ok, lits = solver.propagate(assumptions=list(assumptions))
        return (True, set(lits)) if ok else (False, set())

    return propagate


def closure(
    propagate: Propagate,
    assumptions: Sequence[int],
    depth: int,
    polarity: str,
    variables: Sequence[int],
) -> tuple[bool, set[int]]:
    """Return (ok, literals) of the depth-k failed-literal closure: a hypothesis on one
    of `variables` (both signs, or positive alone) whose closure of depth k - 1
    contradicts is false; repeat until no hypothesis fails."""
    facts = list(assumptions)
    ok, literals = propagate(facts)
    if not ok:
        return False, set()
    if depth == 0:
        return True, literals
    changed = True
    while changed:
        changed = False
        for v in variables:
            for lit in (v, -v) if polarity == "both" else (v,):
                if lit in literals or -lit in literals:
                    continue
                if not closure(propagate, [*facts, lit], depth - 1, polarity, variables)[0]:
                    facts.append(-lit)
                    changed = True
                    ok, literals = propagate(facts)
                    if not ok:
                        return False, set()
    return True, literals
