"""Checking a proof without trusting the engine: `python -m solvers check CNF PROOF`.

A proof is a DRUP text file (what SAT solvers have written since 2013, and what
`solvers.proof` writes): one lemma a line, DIMACS literals closed by 0; `d` lines
delete a clause, `c` lines are comments.  Each lemma must follow from the formula and
the lemmas before it by reverse unit propagation: with every literal of the lemma
assumed false, unit propagation reaches a conflict.  That test is run here by PySAT's
MiniSat (`Solver.propagate` on a solver loaded with the formula and the lemmas so
far), an implementation that shares nothing with the home engine whose reasoning the
proof records, so a proof the engine got wrong is refused, not re-derived by the same
code.  Deletions are read and ignored: keeping a clause can only make a RUP test pass
that a deletion would fail, never accept a lemma the formula does not imply.

What a verified proof shows depends on how it ends:
- the empty clause: the formula is unsatisfiable ("no solution");
- no empty clause: the units of the formula and of the proof, closed under unit
  propagation (computed here on the clause arrays, again without the engine), must
  satisfy every clause and leave no variable of the formula open.  The formula then
  has exactly one model ("exactly one solution", the claim of a rating proof: the grid
  follows from the givens by the lemmas).  A proof that ends in neither is refused:
  a refutation whose empty clause was dropped cannot pass, since an unsatisfiable
  formula has no model to determine.

Defects of the proof file are `DimacsError`s (the front end's one-line `solvers:
PROOF:LINE: problem`); a lemma that fails is a `ProofRefused`, with its line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from encoder.dimacs import Cnf, read_text
from encoder.errors import DimacsError
from solvers.limits import sigint_kept_by_python

CHECKER = "minisat22"  # the PySAT solver whose propagation checks each lemma
# `rate --proof FILE` over many grids writes each grid's proof after this line and N
PROOF_SECTION = "c proof of grid "


@dataclass(frozen=True)
class Lemma:
    """One line of a proof: its literals, whether it deletes a clause, and its line."""

    literals: tuple[int, ...]
    line: int
    deletion: bool = False


class ProofRefused(DimacsError):
    """A proof that is well formed but proves nothing: a lemma that does not follow, or
    a proof that ends in neither the empty clause nor a single model."""


@dataclass(frozen=True)
class Verdict:
    """What a verified proof shows: `claim` is "unsatisfiable" or "one model" (then
    `model` holds it, one literal per variable of the formula), with the work done."""

    claim: str
    lemmas: int
    deletions: int
    seconds: float
    model: tuple[int, ...] = ()
    widest: int = 0  # the most literals in one lemma


def parse_proof(text: str, name: str) -> list[Lemma]:
    """Return the lemmas and deletions of a DRUP text; raise DimacsError at a defect."""
    lemmas = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        deletion = line.startswith("d")
        tokens = line[1:].split() if deletion else line.split()
        try:
            values = [int(token) for token in tokens]
        except ValueError:
            bad = next(t for t in tokens if not t.lstrip("-").isdigit())
            raise DimacsError(f"not a literal: {bad[:40]!r}", name, number) from None
        if not values or values[-1] != 0:
            raise DimacsError("lemma is not terminated by 0", name, number)
        if 0 in values[:-1]:
            raise DimacsError("one lemma a line: 0 before the end of the line", name, number)
        if deletion and len(values) == 1:
            raise DimacsError("deletion of the empty clause", name, number)
        lemmas.append(Lemma(tuple(values[:-1]), number, deletion))
    return lemmas


def read_proof(path: str, grid: int | None = None) -> list[Lemma]:
    """Read a DRUP proof file (or `-` for stdin); `grid`: the proof of grid N in a file
    of proofs of many grids (`rate --proof FILE`), lines numbered as in the file."""
    text, name = read_text(path)
    return parse_proof(proof_section(text, name, grid), name)


def proof_section(text: str, name: str, grid: int | None) -> str:
    """Return the text with only the lines of grid `grid`'s proof left (the others
    blank, so that line numbers stay the file's); a file of one proof as it is."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(PROOF_SECTION)]
    if grid is None:
        if len(starts) > 1:
            raise DimacsError(
                f"the file holds the proofs of {len(starts)} grids: say which with --grid N",
                name,
            )
        return text
    wanted = f"{PROOF_SECTION}{grid}"
    begin = next((i for i in starts if lines[i].strip() == wanted), None)
    if begin is None:
        raise DimacsError(f"no proof of grid {grid} in the file", name)
    end = next((i for i in starts if i > begin), len(lines))
    return "\n" * begin + "\n".join(lines[begin:end]) + "\n"


def check_proof(cnf: Cnf, lemmas: list[Lemma], name: str) -> Verdict:
    """Check every lemma by reverse unit propagation, then what the proof claims (see
    the module docstring); return the verdict or raise ProofRefused."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    checked = deletions = widest = 0
    last_line = lemmas[-1].line if lemmas else 1
    # Ctrl-C between two lemmas, never by PySAT's longjmp out of one
    with Solver(name=CHECKER, bootstrap_with=cnf) as solver, sigint_kept_by_python():
        for lemma in lemmas:
            if lemma.deletion:
                deletions += 1
                continue
            ok, _ = solver.propagate(assumptions=[-lit for lit in lemma.literals])
            if ok:  # no conflict reached: the lemma is not RUP
                shown = " ".join(map(str, lemma.literals[:12]))
                shown += " ... 0" if len(lemma.literals) > 12 else (" 0" if shown else "0")
                raise ProofRefused(
                    f"lemma {checked + 1} ({shown}) does not follow by unit "
                    "propagation from the formula and the lemmas before it",
                    name,
                    lemma.line,
                )
            checked += 1
            widest = max(widest, len(lemma.literals))
            if not lemma.literals:
                seconds = time.perf_counter() - start
                return Verdict("unsatisfiable", checked, deletions, seconds, widest=widest)
            solver.add_clause(list(lemma.literals))
    units = [lemma.literals[0] for lemma in lemmas if len(lemma.literals) == 1]
    model, problem = _single_model(cnf, units)
    if problem:
        raise ProofRefused(
            f"the proof ends without the empty clause, and its units {problem}", name, last_line
        )
    return Verdict("one model", checked, deletions, time.perf_counter() - start, model, widest)


def _single_model(cnf: Cnf, units: list[int]) -> tuple[tuple[int, ...], str]:
    """Return (the model, "") when the formula's units and `units`, closed under unit
    propagation, satisfy every clause and assign every variable a clause uses; else
    ((), what goes wrong).  Plain numpy over the clause arrays, one sweep per round."""
    lits, offsets = cnf.literals.astype(np.int64), cnf.offsets.astype(np.int64)
    lengths = np.diff(offsets)
    if lits.size == 0 or np.any(lengths == 0):
        return (), "cannot satisfy a formula with an empty clause or no clause"
    variables = np.abs(lits)
    num_vars = int(variables.max())
    value = np.zeros(num_vars + 1, np.int8)  # per variable: 1 true, -1 false, 0 open
    starts = offsets[:-1]
    clause_of = np.repeat(np.arange(lengths.size), lengths)
    forced = np.array([lit for lit in units if abs(lit) <= num_vars], np.int64)
    forced = np.concatenate((forced, lits[starts[lengths == 1]]))
    while forced.size:
        if (
            np.any(value[np.abs(forced)] == -np.sign(forced))
            or np.intersect1d(forced, -forced).size
        ):
            return (), "contradict the formula"
        value[np.abs(forced)] = np.sign(forced)
        truth = value[variables] * np.sign(lits)  # per literal: 1 true, -1 false, 0 open
        satisfied = np.add.reduceat(truth == 1, starts) > 0
        open_count = np.add.reduceat(truth == 0, starts)
        if np.any(~satisfied & (open_count == 0)):
            return (), "falsify a clause of the formula"
        unit = ~satisfied & (open_count == 1)
        forced = np.unique(lits[(truth == 0) & unit[clause_of]])
    left = np.count_nonzero(value[np.unique(variables)] == 0)
    if left:
        return (), f"leave {left} of the formula's variables open"
    model = np.where(value[1:] > 0, 1, -1) * np.arange(1, num_vars + 1)
    return tuple(model.tolist()), ""
