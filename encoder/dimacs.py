"""DIMACS CNF and model files: the one place signed ints meet text.

`write_dimacs` emits `c` comment lines, the `p cnf V C` header and one clause per line.
`read_cnf` parses a CNF strictly and names the line of the first defect (no header,
duplicate header, a clause that is not closed by 0, a literal beyond V, a clause count
that differs from the header, Windows line ends, a token that is not an integer).
`read_model` accepts what solvers print: SAT-competition output (`s SATISFIABLE` then
`v ... 0` lines), MiniSat's result file (`SAT` then the literals), or a bare list of
literals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from encoder.errors import DimacsError
from encoder.errors import read_text as read_text_file
from encoder.status import Status

# A DIMACS integer: ASCII digits with an optional sign.  Python's int() alone would also
# take '1_000' and non-ASCII digits such as '２'.
_INTEGER = re.compile(r"[-+]?[0-9]+")


def _literal(token: str) -> int | None:
    """Return the integer a token spells, or None when it is not a DIMACS integer."""
    return int(token) if _INTEGER.fullmatch(token) else None


@dataclass(frozen=True)
class Cnf:
    """A parsed CNF: the header's variable count and the clauses in file order."""

    num_vars: int
    clauses: list[list[int]]


def clause_lines(clauses: Iterable[Sequence[int]]) -> str:
    """Return clauses as DIMACS lines ('1 -2 0'), each ending with a newline."""
    return "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


def write_dimacs(
    num_vars: int, clause_text: Iterable[str], num_clauses: int, comments: Sequence[str] = ()
) -> str:
    """Return a DIMACS document from already-formatted clause lines."""
    head = "".join(f"c {line}\n" if line else "c\n" for line in comments)
    return head + f"p cnf {num_vars} {num_clauses}\n" + "".join(clause_text)


def read_text(path: str) -> tuple[str, str]:
    """Return (text, display name) of a path or `-` for stdin, as a DimacsError if unreadable."""
    name = "<stdin>" if path == "-" else path
    return read_text_file(path, DimacsError, newline=""), name


def parse_cnf(text: str, name: str = "<input>") -> Cnf:
    """Parse DIMACS CNF text; raise DimacsError(name, line) at the first defect."""
    if not text.strip():
        raise DimacsError("empty file: expected a 'p cnf VARS CLAUSES' header", name, 1)
    header: tuple[int, int] | None = None
    header_line = 0
    clauses: list[list[int]] = []
    current: list[int] = []
    current_line = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            raise DimacsError(
                "Windows line end (CR LF); convert the file to LF line ends", name, number
            )
        stripped = line.strip()
        if not stripped or stripped.startswith("c"):
            continue
        if stripped.startswith("%"):
            break  # SATLIB files end with '%' then '0'
        if stripped.startswith("p"):
            if header is not None:
                raise DimacsError(
                    f"second 'p' header (the first is on line {header_line})", name, number
                )
            fields = stripped.split()
            if (
                len(fields) != 4
                or fields[1] != "cnf"
                or not all(f.isascii() and f.isdigit() for f in fields[2:])
            ):
                raise DimacsError(
                    f"bad header {stripped!r}: expected 'p cnf VARS CLAUSES'", name, number
                )
            header = (int(fields[2]), int(fields[3]))
            header_line = number
            continue
        if header is None:
            raise DimacsError("clause before the 'p cnf VARS CLAUSES' header", name, number)
        for token in stripped.split():
            lit = _literal(token)
            if lit is None:
                raise DimacsError(f"not an integer: {token!r}", name, number)
            if lit == 0:
                clauses.append(current)
                current = []
                continue
            if abs(lit) > header[0]:
                raise DimacsError(
                    f"literal {lit} beyond the {header[0]} variables of the header", name, number
                )
            if not current:
                current_line = number
            current.append(lit)
    if header is None:
        raise DimacsError("no 'p cnf VARS CLAUSES' header", name, 1)
    if current:
        raise DimacsError("last clause is not terminated by 0", name, current_line)
    if len(clauses) != header[1]:
        raise DimacsError(
            f"header announces {header[1]} clauses, file has {len(clauses)}", name, header_line
        )
    return Cnf(num_vars=header[0], clauses=clauses)


def read_cnf(path: str) -> Cnf:
    """Read a DIMACS CNF file (or `-` for stdin)."""
    text, name = read_text(path)
    return parse_cnf(text, name)


@dataclass(frozen=True)
class Model:
    """A solver's answer, and the literals when SAT."""

    status: Status
    literals: tuple[int, ...]


_STATUS_WORDS = {
    "SATISFIABLE": Status.SAT,
    "SAT": Status.SAT,
    "UNSATISFIABLE": Status.UNSAT,
    "UNSAT": Status.UNSAT,
    "UNKNOWN": Status.UNKNOWN,
    "INDETERMINATE": Status.UNKNOWN,
}


def parse_model(text: str, name: str = "<input>") -> Model:
    """Parse solver output in any of the three accepted shapes."""
    status: Status | None = None
    literals: list[int] = []
    terminated = False
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0] == "c":
            continue
        if fields[0] == "s":
            word = " ".join(fields[1:]).upper()
            if word not in _STATUS_WORDS:
                raise DimacsError(f"unknown status line {line.strip()!r}", name, number)
            status = _STATUS_WORDS[word]
            continue
        if len(fields) == 1 and fields[0].upper() in _STATUS_WORDS and status is None:
            status = _STATUS_WORDS[fields[0].upper()]  # MiniSat's result file
            continue
        if fields[0] == "v":
            fields = fields[1:]
        for token in fields:
            lit = _literal(token)
            if lit is None:
                raise DimacsError(f"not a literal: {token!r}", name, number)
            if lit == 0:
                terminated = True
            elif terminated:
                raise DimacsError(f"literal {lit} after the closing 0", name, number)
            else:
                literals.append(lit)
    if status is None:
        if not literals:
            raise DimacsError("no model: no status line and no literals", name, 1)
        status = Status.SAT
    if status is not Status.SAT:
        return Model(status, ())
    return Model(Status.SAT, tuple(literals))


def read_model(path: str) -> Model:
    """Read solver output from a file (or `-` for stdin)."""
    text, name = read_text(path)
    return parse_model(text, name)
