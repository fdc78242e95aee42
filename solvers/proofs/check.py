"""Checking a proof without trusting the engine: `python -m solvers check CNF PROOF`.

A proof is a DRUP text file (what SAT solvers have written since 2013, and what
`solvers.proofs.write` writes): one lemma a line, DIMACS literals closed by 0; `d` lines
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

A proof is read as it is checked, a block of bytes at a time, and trusts no number it
holds: a literal beyond the formula's variables is refused at its line before any
solver sees it (MiniSat would grow its arrays to that variable, and PySAT wraps
literals of 2^32 and more), and so is a line longer than any lemma over those
variables can be.  The checker then holds the formula, the lemmas added (a lemma added
again, as a proof that adds and deletes the same clause over and over does, is checked
but not added twice: a 64-bit key a lemma added, in one flat array) and the proof's
units: memory follows the lemmas kept, not the size of the file.  A formula whose
header declares far more variables than its clauses use (`Cnf.sparse`) is checked over
its used variables renumbered, as the solvers run it.
"""

from __future__ import annotations

import io
import re
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from encoder.dimacs import Cnf
from encoder.errors import DimacsError, unreadable
from solvers.limits import sigint_kept_by_python

CHECKER = "minisat22"  # the PySAT solver whose propagation checks each lemma
# `rate --proof FILE` over many grids writes each grid's proof after this line and N
PROOF_SECTION = "c proof of grid "
BLOCK = 1 << 20  # bytes of proof read at a time
_SECTION = PROOF_SECTION.encode()
_BREAK = re.compile(rb"\r\n|\r|\n")  # LF, CR LF and CR all end a line


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


def parse_proof(text: str, name: str, num_vars: int) -> list[Lemma]:
    """Return the lemmas and deletions of a DRUP text over `num_vars` variables; raise
    DimacsError at a defect (the text of one proof; `read_proof` reads a file)."""
    stream = io.BytesIO(text.encode("utf-8", "surrogateescape"))
    return list(_lemmas(_lines(stream, name, _line_limit(num_vars)), name, num_vars))


def read_proof(path: str, grid: int | None, num_vars: int) -> Iterator[Lemma]:
    """Open a DRUP proof file (or `-` for stdin) and return its lemmas, read as they are
    taken (see the module docstring), each over at most `num_vars` variables; `grid`:
    the proof of grid N in a file of proofs of many grids (`rate --proof FILE`), lines
    numbered as in the file.  A file that cannot be opened is a DimacsError at once."""
    name = "<stdin>" if path == "-" else path
    handle = _open(path)
    if grid is None and handle.seekable():  # refused before a proof of it is checked
        _refuse_many_sections(handle, name)
    lines = _lines(handle, name, _line_limit(num_vars))
    return _lemmas(_section(lines, name, grid), name, num_vars)


def _open(path: str) -> BinaryIO:
    if path == "-":
        if sys.stdin is None:  # started with stdin closed (`<&-`)
            raise DimacsError("cannot read: standard input is closed", "<stdin>")
        buffer = getattr(sys.stdin, "buffer", None)  # a text stream in its place: tests
        return buffer if buffer is not None else io.BytesIO(sys.stdin.read().encode())
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise DimacsError("no such file", path) from None
    except OSError as error:
        raise DimacsError(unreadable(path, error)[0], path) from None


def _line_limit(num_vars: int) -> int:
    """Return the longest line a lemma over `num_vars` variables needs: each literal
    once, with its sign and a blank (a longer line is refused, never held)."""
    return max(1 << 12, (2 * num_vars + 2) * (len(str(num_vars)) + 2))


def _lines(handle: BinaryIO, name: str, limit: int) -> Iterator[tuple[int, bytes]]:
    """Yield (line number, bytes) of a binary stream, a block at a time, and close it.
    A comment longer than `limit` is skipped in pieces; any other such line is a
    DimacsError.  A line that spans blocks is held as its blocks (`pending`) and joined
    once its end comes, so that a long line is read in time linear in its length."""
    number, skipping = 0, False
    pending: list[bytes] = []  # the blocks of a line whose end is still to come
    held = 0  # bytes in `pending`
    try:
        while block := _read(handle, name):
            if b"\n" not in block and b"\r" not in block[:-1]:  # the line goes on
                pending.append(block)
                held += len(block)
                if held > limit:
                    rest = b"".join(pending)
                    if not (skipping or rest.lstrip()[:1] == b"c"):
                        raise _too_long(limit, name, number + 1)
                    pending, held, skipping = [], 0, True
                continue
            data = b"".join([*pending, block])
            held_cr = data.endswith(b"\r")  # a CR LF may be cut between two blocks
            parts = _BREAK.split(data[:-1] if held_cr else data)
            rest = parts.pop() + (b"\r" if held_cr else b"")
            for part in parts:
                number += 1
                if skipping:
                    skipping = False
                    continue
                if len(part) > limit and part.lstrip()[:1] != b"c":
                    raise _too_long(limit, name, number)
                yield number, part.removeprefix(b"\xef\xbb\xbf") if number == 1 else part
            if len(rest) > limit:
                if not (skipping or rest.lstrip()[:1] == b"c"):
                    raise _too_long(limit, name, number + 1)
                rest, skipping = b"", True
            pending, held = ([rest], len(rest)) if rest else ([], 0)
        rest = b"".join(pending)
        if rest.rstrip(b"\r") and not skipping:
            number += 1
            yield number, rest.removeprefix(b"\xef\xbb\xbf") if number == 1 else rest
    finally:
        if handle is not getattr(sys.stdin, "buffer", None):
            handle.close()


def _too_long(limit: int, name: str, number: int) -> DimacsError:
    return DimacsError(
        f"line longer than {limit} bytes: longer than any lemma over the formula's variables",
        name,
        number,
    )


def _read(handle: BinaryIO, name: str) -> bytes:
    try:
        return handle.read(BLOCK)
    except OSError as error:
        raise DimacsError(unreadable(name, error)[0], name) from None


def _refuse_many_sections(handle: BinaryIO, name: str) -> None:
    """Raise DimacsError when a file holds the proofs of several grids (a quick count of
    its section lines, then back to the start)."""
    count, tail = 0, b"\n"
    while block := _read(handle, name):
        count += (tail + block).count(b"\n" + _SECTION)
        tail = block[-len(_SECTION) :]
    handle.seek(0)
    if count > 1:
        raise DimacsError(
            f"the file holds the proofs of {count} grids: say which with --grid N", name
        )


def _section(
    lines: Iterable[tuple[int, bytes]], name: str, grid: int | None
) -> Iterator[tuple[int, bytes]]:
    """Yield the lines of grid `grid`'s proof (from its line `c proof of grid N` to the
    next such line), or, for `grid` None, every line, refusing a second section (a
    stream that could not be counted first)."""
    sections = 0
    wanted = f"{PROOF_SECTION}{grid}".encode()
    inside = grid is None
    for number, line in lines:
        if line.startswith(_SECTION):
            sections += 1
            if grid is None:
                if sections > 1:
                    raise DimacsError(
                        "the file holds the proofs of several grids: say which with --grid N",
                        name,
                    )
            elif inside:
                return
            else:
                inside = line.strip() == wanted
        if inside:
            yield number, line
    if grid is not None and not inside:
        raise DimacsError(f"no proof of grid {grid} in the file", name)


def _lemmas(lines: Iterable[tuple[int, bytes]], name: str, num_vars: int) -> Iterator[Lemma]:
    """Yield the lemma or deletion of each line that holds one, bounded by `num_vars`."""
    digits = len(str(num_vars)) + 1  # a sign and the digits of the largest variable
    for number, raw in lines:
        line = raw.strip()
        if not line or line.startswith(b"c"):
            continue
        deletion = line.startswith(b"d")
        tokens = line[1:].split() if deletion else line.split()
        if tokens.count(b"0") > 1 and tokens[-1] == b"0":  # before any number is read
            raise DimacsError(
                "one lemma a line: 0 before the end of the line (an LRAT proof? check it "
                "with --proof-format lrat)",
                name,
                number,
            )
        try:  # int() alone would take '1_000' and any number of digits
            if b"_" in line or max(map(len, tokens), default=0) > digits:
                raise ValueError
            values = [int(token) for token in tokens]
        except ValueError:
            values = [_literal(token, name, number, num_vars) for token in tokens]
        if not values or values[-1] != 0:
            raise DimacsError("lemma is not terminated by 0", name, number)
        if 0 in values[:-1]:
            raise DimacsError(
                "one lemma a line: 0 before the end of the line (an LRAT proof? check it "
                "with --proof-format lrat)",
                name,
                number,
            )
        if deletion and len(values) == 1:
            raise DimacsError("deletion of the empty clause", name, number)
        if max(values) > num_vars or min(values) < -num_vars:
            beyond = next(v for v in values if abs(v) > num_vars)
            raise _beyond(str(beyond), name, number, num_vars)
        yield Lemma(tuple(values[:-1]), number, deletion)


def _literal(token: bytes, name: str, number: int, num_vars: int) -> int:
    """Return the literal a token writes (ASCII digits, a sign, leading zeros), or raise
    DimacsError: not a literal, or beyond `num_vars` (checked before int() is asked)."""
    text = token.decode("utf-8", "replace")
    if not re.fullmatch(r"[-+]?[0-9]+", text):
        raise DimacsError(f"not a literal: {text[:40]!r}", name, number)
    magnitude = text.lstrip("+-").lstrip("0") or "0"
    if len(magnitude) > len(str(num_vars)) or int(magnitude) > num_vars:
        raise _beyond(text, name, number, num_vars)
    return -int(magnitude) if text.startswith("-") else int(magnitude)


def _beyond(literal: str, name: str, number: int, num_vars: int) -> DimacsError:
    shown = literal if len(literal) <= 40 else f"{literal[:20]}... ({len(literal)} characters)"
    return DimacsError(
        f"literal {shown} names a variable beyond the formula's {num_vars}", name, number
    )


def check_proof(cnf: Cnf, lemmas: Iterable[Lemma], name: str) -> Verdict:
    """Check every lemma by reverse unit propagation as it comes, then what the proof
    claims (see the module docstring); return the verdict or raise ProofRefused.  The
    lemmas after the empty clause are read too (a defect there is still reported)."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    checked = deletions = widest = 0
    last_line = 1
    formula, renamed = _as_solved(cnf)
    added = _Keys()  # keys of the lemmas added to the solver
    units: set[int] = set()  # the unit lemmas, as the proof writes them
    lemmas = iter(lemmas)
    # Ctrl-C between two lemmas, never by PySAT's longjmp out of one
    with Solver(name=CHECKER, bootstrap_with=formula) as solver, sigint_kept_by_python():
        for lemma in lemmas:
            last_line = lemma.line
            if lemma.deletion:
                deletions += 1
                continue
            literals = renamed(lemma.literals)
            ok, _ = solver.propagate(assumptions=[-lit for lit in literals])
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
            widest = max(widest, len(literals))
            if not literals:
                for _ in lemmas:  # the rest is read for its defects, not checked
                    pass
                seconds = time.perf_counter() - start
                return Verdict("unsatisfiable", checked, deletions, seconds, widest=widest)
            # A key shared by two different clauses (a hash collision) leaves the second
            # out of the solver: a later lemma may then fail, never pass wrongly.
            key = hash(" ".join(map(str, sorted(set(literals)))))  # keyed per process
            if added.add(key):
                solver.add_clause(literals)
            if len(literals) == 1:
                units.add(lemma.literals[0])
    model, problem = _single_model(cnf, sorted(units))
    if problem:
        raise ProofRefused(
            f"the proof ends without the empty clause, and its units {problem}", name, last_line
        )
    return Verdict("one model", checked, deletions, time.perf_counter() - start, model, widest)


class _Keys:
    """A set of 64-bit keys in one flat array of slots (open addressing, linear probing,
    0 for an empty slot), kept at most 2/3 full: 12 to 24 bytes a key, 36 while it
    doubles.  A Python set of ints took about 100 (an int object, and a slot of a table
    kept at most 3/5 full), the most memory a proof of distinct lemmas made the checker
    hold: MiniSat's own clauses take less."""

    def __init__(self) -> None:
        self.slots = array("q", [0]) * 1024  # the number of slots is a power of 2
        self.count = 0

    def add(self, key: int) -> bool:
        """Add a key (any int of 64 bits, sign included); return whether it is new."""
        key = key or 1  # 0 marks an empty slot: key 0 shares key 1's place
        slots = self.slots
        mask = len(slots) - 1
        at = key & mask
        while held := slots[at]:
            if held == key:
                return False
            at = (at + 1) & mask
        slots[at] = key
        self.count += 1
        if 3 * self.count > 2 * len(slots):
            self._grow()
        return True

    def _grow(self) -> None:
        """Double the slots and place the keys again (each key is there once: no key to
        compare, just the first free slot)."""
        old = self.slots
        self.slots = slots = array("q", [0]) * (2 * len(old))
        mask = len(slots) - 1
        for key in old:
            if key:
                at = key & mask
                while slots[at]:
                    at = (at + 1) & mask
                slots[at] = key


def _as_solved(cnf: Cnf) -> tuple[Cnf, Callable[[tuple[int, ...]], list[int]]]:
    """Return the formula the solver is given and the renaming of a lemma's literals
    into it: the formula itself, or for a sparse one its used variables renumbered
    1..k, and the variables a lemma adds numbered on from there."""
    if not cnf.sparse:
        return cnf, list
    formula, names = cnf.compact()
    number = {name: index for index, name in enumerate(names.tolist(), 1)}

    def renamed(literals: tuple[int, ...]) -> list[int]:
        out = []
        for lit in literals:
            var = number.setdefault(abs(lit), len(number) + 1)
            out.append(var if lit > 0 else -var)
        return out

    return formula, renamed


def _single_model(cnf: Cnf, units: list[int]) -> tuple[tuple[int, ...], str]:
    """Return (the model, "") when the formula's units and `units`, closed under unit
    propagation, satisfy every clause and assign every variable of the formula (all
    `num_vars` of its header: one left open doubles the models); else ((), what goes
    wrong).  Plain numpy over the clause arrays, one sweep per round."""
    lits, offsets = cnf.literals.astype(np.int64), cnf.offsets.astype(np.int64)
    lengths = np.diff(offsets)
    if lits.size == 0 or np.any(lengths == 0):
        return (), "cannot satisfy a formula with an empty clause or no clause"
    if cnf.sparse:  # never one model, and an array per variable would be too big
        used = np.unique(np.abs(lits)).size
        return (), f"leave open the {cnf.num_vars - used:,} variables no clause mentions"
    variables = np.abs(lits)
    num_vars = cnf.num_vars
    value = np.zeros(num_vars + 1, np.int8)  # per variable: 1 true, -1 false, 0 open
    starts = offsets[:-1]
    clause_of = np.repeat(np.arange(lengths.size), lengths)
    forced = np.array(units, np.int64)
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
    left = np.count_nonzero(value[1:] == 0)
    if left:
        return (), f"leave {left} of the formula's {num_vars} variables open"
    model = np.where(value[1:] > 0, 1, -1) * np.arange(1, num_vars + 1)
    return tuple(model.tolist()), ""
