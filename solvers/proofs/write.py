"""Proofs of the engine's answers, as DRUP text anyone can check.

The engine's kernels write every fact they learn as a lemma (`solvers.core.proof_log`: a
failed literal under the hypotheses it was found under, a DPLL conflict under its
decisions); this module runs the queries with a log, turns the logs into DRUP text,
and finishes each proof with its claim:

- "no solution": the empty clause (`0`) ends the proof;
- a grid filled by the closure of some depth ("exactly one solution, found without
  search"): the unit of every cell's value ends the proof, so that the formula's units
  and the proof's determine one model;
- an explanation (`explain --proof`): its eliminations and placements, lemma by lemma,
  in the order it gives them, a depth-2 step preceded by the inner lemmas it rests on.

A proof is checked against the grid's formula as `python -m encoder GRID` writes it
(any --givens style, any encoding the rating used): the givens are unit clauses there,
and the lemmas are RUP with respect to it (`python -m solvers check CNF PROOF`, which
does not use the engine).  Logs start small and are doubled when a query overflows
them; the query is then asked again, so the answer never depends on the log's size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

import numpy as np

from encoder.geometry import Geometry
from encoder.grids import format_line, format_lines
from encoder.numbering import Grid, Lit, cell_value, cell_var, num_cell_vars
from solvers import core
from solvers.core import DEPTH_SAT, DEPTH_UNSAT
from solvers.core.engine import Engine, EngineAnswer
from solvers.core.extension import _core
from solvers.core.proof_log import FIRST, HEAD, new_log
from solvers.core.rules import GridRules
from solvers.limits import pysat_solve_in_one_call
from solvers.results import Status

FORMAT = "DRUP"
EMPTY = np.zeros(1, np.int64)  # the empty clause as a flat lemma: "0"
START_CAPACITY = 1 << 9  # literals per query (or per grid of a depth loop) at first


def lemma_lines(flat: np.ndarray) -> str:
    """Return flat lemmas (DIMACS literals, each lemma closed by 0) as DRUP lines (the
    core formats them: a Python str per literal cost more than the rating)."""
    return _core.lemma_text(np.ascontiguousarray(flat, np.int64))


def _logged(log: np.ndarray) -> np.ndarray | None:
    """Return the lemmas of a log, or None when it overflowed (ask again, bigger)."""
    if log[HEAD] > log.size:
        return None
    return log[FIRST : log[HEAD]].copy()


def _bigger(log: np.ndarray) -> int:
    return 2 * int(log[HEAD])


def closure_lemmas(
    engine: Engine, assumptions: Sequence[Lit], depth: int, polarity: str = "both"
) -> tuple[bool, np.ndarray, np.ndarray]:
    """Run `engine.probe` with a log; return (ok, literals, lemmas): the failed-literal
    lemmas, then the empty clause when the closure is contradictory.  The assumptions
    count as unit clauses of the formula the proof is checked against."""
    if not engine.ok:
        return False, np.empty(0, np.int64), EMPTY.copy()
    capacity = START_CAPACITY
    while True:
        log = new_log(capacity)
        ok, literals = engine.probe(assumptions, depth, polarity, as_array=True, log=log)
        lemmas = _logged(log)
        if lemmas is not None:
            return ok, literals, lemmas if ok else np.concatenate((lemmas, EMPTY))
        capacity = _bigger(log)


def search_lemmas(
    engine: Engine, assumptions: Sequence[Lit] = ()
) -> tuple[EngineAnswer, np.ndarray]:
    """Run `engine.solve` with a log; return (result, lemmas), the lemmas of an UNSAT
    answer ending with the empty clause (none for the others)."""
    if not engine.ok:
        return engine.solve(assumptions), EMPTY.copy()
    capacity = START_CAPACITY
    while True:
        log = new_log(capacity)
        result = engine.solve(assumptions, log=log)
        lemmas = _logged(log)
        if lemmas is not None:
            break
        capacity = _bigger(log)
    if result.status is not Status.UNSAT:
        return result, np.empty(0, np.int64)
    if lemmas.size == 0:  # the assumptions contradict each other by propagation
        lemmas = EMPTY.copy()
    return result, lemmas


def depth_lemmas(
    engine: core.Clauses,
    grids: np.ndarray,
    max_depth: int,
    polarity: str = "both",
    time_limit: float | None = None,
    capacity: int = 0,
    budget: int | None = None,
) -> tuple[core.Depths, list[np.ndarray], int]:
    """Run `engine.depths` with a log of `capacity` literals (0: a guess); return (the
    depths, each grid's lemmas, the capacity it took, a good guess for the next call).
    When the log overflows, the grids whose lemmas fit are kept and the others are
    rated again with a bigger log: a bad guess costs at most one more pass over a batch."""

    def depths(grids: np.ndarray, log: np.ndarray | None, log_at: np.ndarray | None):
        return engine.depths(grids, max_depth, polarity, budget, log, log_at, time_limit)

    count = len(grids)
    capacity = capacity or START_CAPACITY * max(1, count)
    if count == 0:
        return depths(grids, None, None), [], capacity
    parts: list[core.Depths] = []
    lemmas: list[np.ndarray] = []
    first = 0
    while first < count:
        log = new_log(capacity)
        log_at = np.zeros(count - first + 1, np.int64)
        out = depths(grids[first:], log, log_at)
        # the grids before the first whose lemmas ran past the log's end are whole
        over = log_at[1:] > log.size
        kept = int(np.argmax(over)) if log[HEAD] > log.size and over.any() else count - first
        parts.append(type(out)(*(field[:kept] for field in _fields(out))))
        lemmas += [log[log_at[g] : log_at[g + 1]] for g in range(kept)]
        first += kept
        if first < count:
            capacity = _bigger(log)
    columns = zip(*map(_fields, parts), strict=True)
    joined = type(parts[0])(*(np.concatenate(column) for column in columns))
    return joined, lemmas, capacity


def _fields(out: core.Depths) -> tuple[np.ndarray, ...]:
    return tuple(getattr(out, field.name) for field in fields(out))


def header(claim: str, grid: Grid | None, geometry: Geometry | None, how: str) -> list[str]:
    """Return the comment lines that open a proof: what it proves and against what."""
    lines = [f"c sudoku-sat proof ({FORMAT}): {claim}"]
    if grid is not None and geometry is not None:
        lines.append(f"c grid: {format_line(grid, geometry)}")
        lines.append(
            "c formula: the grid's CNF as `python -m encoder GRID` writes it (any --givens "
            "style; the same geometry flags and --encoding)"
        )
    lines.append(f"c {how}")
    lines.append("c check: python -m solvers check CNF PROOF")
    return lines


SEPARATOR = -(1 << 62)  # a token no literal takes: where one grid's proof ends in a batch's text


def rating_proofs(
    out: core.Depths, lemmas: list[np.ndarray], grids: np.ndarray, geometry: Geometry
):
    """Return each grid's proof of its depth rating ("" when the rating settled nothing:
    open, or stopped by the time limit): a short header, the closures' lemmas, then the
    empty clause (no solution) or the unit of every cell (the solution).  The lemmas of
    the whole batch are formatted in one pass (a join per grid costs as much as the
    rating of a 17-clue grid)."""
    heads, flat = [], []
    units = _batch_units(out, grids, geometry)
    texts = format_lines(np.ascontiguousarray(grids, np.int8), geometry)
    for g, code in enumerate(out.status.tolist()):
        depth = int(out.depth[g])
        if code == DEPTH_UNSAT:
            claim, tail = f"no solution (a contradiction at depth {depth})", EMPTY
        elif code == DEPTH_SAT:
            claim = f"exactly one solution, filled by the depth-{depth} closure without search"
            tail = units[g]
        else:
            heads.append(None)
            continue
        heads.append(
            f"c sudoku-sat proof ({FORMAT}) of the depth rating: {claim}\n"
            f"c grid {texts[g]} (its formula: `python -m encoder GRID`, the same flags)\n"
        )
        flat += [lemmas[g], tail, SEPARATOR_LEMMA]
    bodies = iter(lemma_lines(np.concatenate(flat)).split(_SEPARATOR_LINE) if flat else ())
    return ["" if head is None else head + next(bodies) for head in heads]


def _batch_units(out: core.Depths, grids: np.ndarray, geometry: Geometry) -> list[np.ndarray]:
    """Return, for each grid of a batch the rating filled, the unit lemma of every cell's
    value that is not a given (flat lemmas; empty for the other grids), computed for the
    whole batch in a few numpy calls."""
    filled = (out.status == DEPTH_SAT)[:, None] & (grids == 0)
    rows, cells = np.nonzero(filled)  # row-major: each grid's cells in order
    units = np.zeros(2 * rows.size, np.int64)
    values = out.solutions[rows, cells].astype(np.int64)
    units[0::2] = cell_var(cells.astype(np.int64), values, geometry.size)
    ends = 2 * np.cumsum(filled.sum(axis=1))
    return np.split(units, ends[:-1])


SEPARATOR_LEMMA = np.array([SEPARATOR, 0], np.int64)
_SEPARATOR_LINE = f"{SEPARATOR} 0\n"


def unsat_proof(lemmas: np.ndarray, claim: str, how: str, lrat_of: str | None = None) -> str:
    """Return a refutation's text: its header, then the lemmas (the empty clause last);
    in LRAT, the lemmas with their hints alone, when `lrat_of` is the DIMACS text of the
    formula they refute (their hints number its clauses; its comments say the claim)."""
    if lrat_of is None:
        return "\n".join(header(claim, None, None, how)) + "\n" + lemma_lines(lemmas)
    from encoder.dimacs import parse_cnf
    from solvers.proofs.lrat import lrat_lines

    return lrat_lines(parse_cnf(lrat_of), lemmas)  # no comment line (solvers.proofs.lrat)


def explanation_lemmas(explainer, grid: Grid, steps: Sequence) -> np.ndarray:
    """Return the lemmas of an explanation (`solvers.explain.steps.Step`s), in its order: a
    placement or a refutation is one unit lemma (unit propagation proves it from the
    lemmas before); a nested hypothesis is preceded by the lemmas of its own inner
    closure, each with the hypothesis negated in front; a contradiction is the empty
    clause."""
    geometry = explainer.geometry
    engine = explainer.engine
    facts = [cell_var(c, k, geometry.size) for c, k in enumerate(grid) if k]
    out: list[np.ndarray] = []
    for step in steps:
        if step.kind == "contradiction":
            out.append(EMPTY)
            break
        if step.kind not in ("placement", "refutation", "hypothesis"):
            continue
        var = cell_var(step.cell, step.value, geometry.size)
        lit = var if step.after.values[step.cell] == step.value else -var
        if step.kind == "hypothesis":
            out.append(_hypothesis_lemmas(engine, facts, -lit))
        if step.kind != "placement":
            facts.append(lit)
        out.append(np.array([lit, 0], np.int64))
    return np.concatenate(out) if out else np.empty(0, np.int64)


def _hypothesis_lemmas(engine: Engine, facts: list[Lit], hypothesis: Lit) -> np.ndarray:
    """Return the lemmas under which `hypothesis` fails (its inner closure's, each with
    the hypothesis negated in front), trying the inner depths from 1 up; the unit of
    its negation then follows by propagation."""
    depth = 1
    while True:
        ok, _, lemmas = closure_lemmas(engine, [*facts, hypothesis], depth)
        if not ok:
            break
        depth += 1
    lemmas = lemmas[:-1]  # the empty clause: under the hypothesis, it is (¬hypothesis)
    ends = np.flatnonzero(lemmas == 0)
    out = np.empty(lemmas.size + ends.size, np.int64)
    starts = np.concatenate(([0], ends[:-1] + 1)) if ends.size else np.empty(0, np.int64)
    positions = starts + np.arange(starts.size)  # each lemma moves right by its rank
    mask = np.ones(out.size, bool)
    mask[positions] = False
    out[positions] = -hypothesis
    out[mask] = lemmas
    return out


# Who can prove an UNSAT answer of `solvers solve`, and how (the others say why not).
HOME_PROOFS = {"up": 0, "fl": 1, "fl2": 2, "fl3": 3, "dpll": None}
PYSAT_PROOFS = ("cadical195", "glucose3", "glucose4")
CADICAL_COMMAND = ("cadical", "-q", "--no-binary")  # then the formula and the proof file
NO_PROOF = {
    "minisat22": "PySAT's MiniSat 2.2 keeps no proof (PySAT: proof logging not supported)",
    "minisat": "the MiniSat binary writes no proof",
    "picosat": "the project does not read PicoSAT's trace format",
    "cryptominisat5": "the project does not ask CryptoMiniSat for its proof",
    "command": "a --solver-cmd command's proof output is unknown to the project",
}


def proof_refusal(name: str) -> str:
    """Return why solver `name` cannot give a proof of UNSAT ("" when it can)."""
    if name in HOME_PROOFS or name in PYSAT_PROOFS or name == "cadical":
        return ""
    return NO_PROOF.get(name, f"{name} writes no proof the project can read")


def solver_proof(name: str, formula, path: str | None, timeout: float | None) -> str | None:
    """Prove that `formula` (an `encoder.dimacs.Cnf`) has no model with solver `name`,
    asked again with its proof logging on; return the DRUP text, or None when this run
    found a model or ran out of time.  `path` is the formula's file (the `cadical`
    binary reads it; None: a temporary copy is written)."""
    how = f"lemmas: {name}'s derivation, asked again with proof logging on"
    claim = "no solution: the formula is unsatisfiable"
    if name in HOME_PROOFS:
        engine = Engine(formula, formula.num_vars)
        depth = HOME_PROOFS[name]
        with engine.limited(timeout):
            if depth is None:
                result, lemmas = search_lemmas(engine)
                ok = result.status is not Status.UNSAT
            elif depth == 0:
                ok, lemmas = engine.ok, EMPTY
            else:
                ok, _, lemmas = closure_lemmas(engine, [], depth)
        return None if ok else unsat_proof(lemmas, claim, how)
    if name in PYSAT_PROOFS:
        from pysat.solvers import Solver

        with Solver(name=name, bootstrap_with=formula, with_proof=True) as solver:
            if pysat_solve_in_one_call(solver):  # Ctrl-C without PySAT's longjmp
                return None
            lines = "".join(f"{line}\n" for line in solver.get_proof())
        return _closed("\n".join(header(claim, None, None, how)) + "\n" + lines)
    return _cadical_proof(formula, path, timeout, how, claim)


def _closed(text: str) -> str:
    """Return a solver's refutation with the empty clause last: Glucose leaves it out
    when propagation of the formula alone is contradictory (it is then RUP at once)."""
    lines = text.rstrip("\n").splitlines()
    if lines and lines[-1].split() == ["0"]:
        return text
    return text + "0\n"


def _cadical_proof(formula, path: str | None, timeout: float | None, how: str, claim: str):
    """Run the `cadical` binary with its own (text) proof output."""
    import os
    import subprocess
    import tempfile

    from encoder.dimacs import clause_lines, write_dimacs

    with tempfile.TemporaryDirectory(prefix="sudoku-sat-") as tmp:
        if path is None or path == "-":
            path = os.path.join(tmp, "in.cnf")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(write_dimacs(formula.num_vars, [clause_lines(formula)], len(formula)))
        proof = os.path.join(tmp, "proof.drup")
        try:
            done = subprocess.run(
                [*CADICAL_COMMAND, path, proof], capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 20:
            return None
        with open(proof, encoding="utf-8") as handle:
            lines = handle.read()
    return _closed("\n".join(header(claim, None, None, how)) + "\n" + lines)


def renamed_proof(text: str, names: np.ndarray) -> str:
    """Return a proof of a renumbered formula (`encoder.dimacs.Cnf.compact`) under the
    file's own variables (comment lines kept as they are)."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("c"):
            out.append(line)
            continue
        deletion = line.startswith("d")
        lits = np.array((line[1:] if deletion else line).split(), np.int64)
        moved = np.where(lits == 0, 0, np.sign(lits) * names[np.abs(lits) - 1])
        out.append(("d " if deletion else "") + " ".join(map(str, moved.tolist())))
    return "\n".join(out) + "\n"


def explanation_proof(explainer, grid: Grid, steps: Sequence) -> str:
    """Return the proof of an explanation (see `explanation_lemmas`), its claim said by
    how the explanation ends."""
    last = steps[-1].kind if steps else ""
    claims = {
        "solved": "exactly one solution, by the explanation's steps",
        "contradiction": "no solution, by the explanation's steps",
    }
    claim = claims.get(last, "the explanation's eliminations (it stops short: no claim)")
    how = "lemmas: each placement and elimination of the explanation, in its order"
    lines = header(claim, grid, explainer.geometry, how)
    lemmas = explanation_lemmas(explainer, grid, steps)
    return "\n".join(lines) + "\n" + lemma_lines(lemmas)


def uniqueness_proof(
    rules: GridRules, grid: Grid, proof_format: str = "drup"
) -> tuple[str, str] | None:
    """Return (formula, proof) showing that `grid` has one solution: the grid's CNF (the
    exam's rules, F1 and F2) with the clause that forbids its solution, and the proof
    (DRUP, or LRAT with `proof_format` "lrat"), by the engine's search, that this formula
    is unsatisfiable.  None when the grid has no solution."""
    from encoder.dimacs import clause_lines, write_dimacs
    from encoder.encodings import puzzle_formula

    geometry = rules.geometry
    found = rules.engine.solve(rules.givens(grid))
    if found.status is not Status.SAT:
        return None
    n = geometry.size
    true = [lit for lit in found.model if 0 < lit <= num_cell_vars(n)]
    formula = puzzle_formula(grid, geometry)
    clauses = [*formula.clauses, [-lit for lit in true]]
    comments = [
        "sudoku-sat: a grid's formula (centrale rules, F1 and F2) and, last, the clause",
        "forbidding its solution: unsatisfiable exactly when that solution is the only one",
        f"grid: {format_line(grid, geometry)}",
        f"solution: {format_line(tuple(cell_value(v, n)[1] for v in sorted(true)), geometry)}",
    ]
    cnf = write_dimacs(formula.num_vars, [clause_lines(clauses)], len(clauses), comments)
    claim = "exactly one solution: the formula with its solution forbidden is unsatisfiable"
    lrat = cnf if proof_format == "lrat" else None
    lemmas = board_search_lemmas(rules, grid)
    if lemmas is not None:
        how = "lemmas: the board's DPLL search (failed decisions and closed nodes, in order)"
        return cnf, unsat_proof(lemmas, claim, how, lrat)
    result, lemmas = search_lemmas(Engine(clauses, formula.num_vars))
    if result.status is not Status.UNSAT:  # cannot be: the engine found one solution
        raise AssertionError("a second solution where the counter found one")
    how = "lemmas: the engine's DPLL search (conflicts and closed branches, in order)"
    return cnf, unsat_proof(lemmas, claim, how, lrat)


def board_search_lemmas(rules: GridRules, grid: Grid) -> np.ndarray | None:
    """Return the lemmas of the board's count of `grid` (to 2, no lookahead), a
    refutation of the grid's formula with its one solution excluded (board_search.h
    says why), or None when the board does not compute these rules or the count is
    not exactly one."""
    board = rules.board
    if board is None:
        return None
    row = np.asarray([grid], np.int8)
    capacity = START_CAPACITY
    while True:
        log, log_at = new_log(capacity), np.zeros(2, np.int64)
        counted = board.count(row, 2, log=log, log_at=log_at)
        lemmas = _logged(log)
        if lemmas is not None:
            break
        capacity = _bigger(log)
    if int(counted.models[0]) != 1 or int(counted.status[0]) != core.STATUS_EXHAUSTED:
        return None
    return lemmas
