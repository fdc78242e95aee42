"""DIMACS CNF and model files: the one place signed ints meet text.

`write_dimacs` emits `c` comment lines, the `p cnf V C` header and one clause per line.
`read_cnf` parses a CNF strictly and names the line of the first defect (no header,
duplicate header, a clause that is not closed by 0, a literal beyond V, a clause count
that differs from the header, a token that is not an integer).  LF, CR LF and CR line
ends are all accepted (real solvers read them all), and a UTF-8 byte-order mark is
skipped.  `read_model` accepts what solvers print: SAT-competition output (`s
SATISFIABLE` then `v ... 0` lines), MiniSat's result file (`SAT` then the literals), or
a bare list of literals; it refuses two status lines that disagree, literals with an
UNSATISFIABLE answer and `v` lines cut short before their 0.

A parsed CNF (`Cnf`) is held flat, whatever its size: the literals of all clauses in
one int32 array and the clause boundaries in an int64 array (`offsets`), which the
engine (`solvers.core.engine.Engine`) and the backends take as they are.  A Python list of
lists costs about 36 bytes a literal; the flat form costs 4.  A file is streamed, a few
megabytes of whole lines at a time, so its text is never held whole (half the peak
memory of reading it whole); a block's clause text is read
by numpy a chunk at a time: a chunk of digits, signs and blanks only is converted
by array operations; a chunk with anything else (a comment, a '%', a bad token) is read
line by line in Python, which names the line of a defect (`_careful_tokens`); so line
numbers are counted only for an error.  The
encoder's formulas (lists of clauses) become a `Cnf` with `Cnf.from_clauses`, and a
`Cnf` still reads as a sequence of clauses (lists of ints).

What a header may promise.  The header's variable count V is a promise checked against
the clauses (a literal beyond V is an error) and is never used to size anything:

- V must be a plain decimal integer of at most MAX_VARS = 2^30 - 1 = 1,073,741,823, the
  largest variable a 32-bit literal can name in the engine (code 2v + sign), MiniSat and
  PySAT.  A larger V is refused in one line, before anything is allocated.
- A solver holds arrays per variable, so V is only taken as the formula's variable
  count when it is at most the number of literals in the clauses plus SPARE_VARS
  (65,536): the model then lists all V variables.  Beyond that the header is `sparse`
  (`p cnf 200000000 1` for one clause, or variables numbered far apart), and a solver
  works on the variables the clauses use, renumbered 1..k (`Cnf.compact`); the model
  then lists those k variables under their own numbers, and the others, which no
  clause mentions, may take any value (MiniSat prints the same: only the variables its
  clauses create).  Memory is then proportional to the clauses, not to the header.
- The header's clause count must equal the number of clauses; it sizes nothing either,
  but it bounds what is kept: past it, clauses are counted (for the message) and their
  literals dropped.
"""

from __future__ import annotations

import contextlib
import io
import operator
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, pairwise
from typing import BinaryIO

import numpy as np

from encoder.errors import DimacsError, unreadable
from encoder.errors import read_text as read_text_file
from encoder.status import Status

# A DIMACS integer: ASCII digits with an optional sign.  Python's int() alone would also
# take '1_000' and non-ASCII digits such as '２'.
_INTEGER = re.compile(r"[-+]?[0-9]+")

MAX_VARS = (1 << 30) - 1  # the largest variable of a 32-bit literal code 2v + sign
SPARE_VARS = 1 << 16  # variables a header may declare beyond its literals (see above)


@dataclass(frozen=True, eq=False)
class Cnf(Sequence[list[int]]):
    """A CNF held flat: clause i is literals[offsets[i]:offsets[i + 1]] (DIMACS ints,
    int32), offsets int64 starting at 0; num_vars is the header's count (at least the
    highest variable used).  Reads as a sequence of clauses, each a list of ints."""

    num_vars: int
    literals: np.ndarray
    offsets: np.ndarray

    def __post_init__(self) -> None:
        lits, offsets = self.literals, self.offsets
        if lits.dtype != np.int32 or lits.ndim != 1 or offsets.dtype != np.int64:
            raise TypeError("a Cnf holds int32 literals and int64 offsets")
        if offsets.ndim != 1 or not offsets.size or offsets[0] or offsets[-1] != lits.size:
            raise ValueError("offsets must run from 0 to the number of literals")

    @classmethod
    def from_clauses(cls, clauses: Iterable[Iterable[int]], num_vars: int | None = None) -> Cnf:
        """Return the flat form of clauses given as lists of DIMACS ints; num_vars
        defaults to the highest variable used.  ValueError for a literal 0 or beyond
        num_vars (or MAX_VARS), TypeError for one that is not an integer (1.9, "3")."""
        rows = [tuple(clause) for clause in clauses]
        offsets = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=len(rows)), out=offsets[1:])
        # operator.index takes exact integers only (int, numpy integers): a float or a
        # numeric string would otherwise be truncated or parsed into another formula.
        if bool in set(map(type, chain.from_iterable(rows))):  # (operator.index takes True)
            raise TypeError("a literal must be an integer, not a bool")
        literals = map(operator.index, chain.from_iterable(rows))
        try:
            wide = np.fromiter(literals, dtype=np.int64, count=int(offsets[-1]))
        except OverflowError:
            raise ValueError(f"a literal names a variable beyond {MAX_VARS}") from None
        except TypeError as problem:
            raise TypeError(f"a literal must be an integer: {problem}") from None
        if wide.size and not wide.all():
            raise ValueError("literal 0 inside a clause (0 only ends a clause in DIMACS)")
        highest = int(np.abs(wide).max()) if wide.size else 0
        if highest > MAX_VARS:
            raise ValueError(f"variable {highest} is beyond {MAX_VARS} (32-bit literals)")
        if num_vars is None:
            num_vars = highest
        elif not 0 <= num_vars <= MAX_VARS:
            raise ValueError(f"num_vars must be in 0..{MAX_VARS}, not {num_vars}")
        elif highest > num_vars:
            raise ValueError(f"a clause mentions variable {highest} but num_vars is {num_vars}")
        return cls(int(num_vars), wide.astype(np.int32), offsets)

    def __len__(self) -> int:
        return self.offsets.size - 1

    def __getitem__(self, index: int) -> list[int]:  # type: ignore[override]
        index = range(len(self))[index]
        return self.literals[self.offsets[index] : self.offsets[index + 1]].tolist()

    def __iter__(self) -> Iterator[list[int]]:
        """Yield the clauses as lists, converting a few thousand at a time (PySAT's
        solvers are bootstrapped from this without a list of lists of the formula)."""
        step = 4096
        for first in range(0, len(self), step):
            bounds = self.offsets[first : first + step + 1]
            lits = self.literals[bounds[0] : bounds[-1]].tolist()
            ends = (bounds - bounds[0]).tolist()
            for a, b in pairwise(ends):
                yield lits[a:b]

    def __repr__(self) -> str:
        return f"Cnf(num_vars={self.num_vars}, clauses={len(self)}, literals={self.literals.size})"

    @property
    def clauses(self) -> list[list[int]]:
        """The clauses as a list of lists (for small formulas: 36 bytes a literal)."""
        return list(self)

    @cached_property
    def highest(self) -> int:
        """The highest variable a clause uses (0 without literals)."""
        lits = self.literals
        return max(int(lits.max()), -int(lits.min())) if lits.size else 0

    @property
    def sparse(self) -> bool:
        """True when num_vars exceeds the literal count by more than SPARE_VARS: a
        solver should then work on `compact()` (see the module docstring)."""
        return self.num_vars > self.literals.size + SPARE_VARS

    def compact(self) -> tuple[Cnf, np.ndarray]:
        """Return (the formula over its used variables renumbered 1..k in increasing
        order, the original number of each: names[i - 1] for variable i)."""
        names, index = np.unique(np.abs(self.literals), return_inverse=True)
        renamed = (index.reshape(-1) + 1).astype(np.int32)
        np.negative(renamed, out=renamed, where=self.literals < 0)
        return Cnf(int(names.size), renamed, self.offsets), names


def renamed(literals: Sequence[int], names: np.ndarray) -> list[int]:
    """Return literals of a `Cnf.compact()` formula under the original variables."""
    lits = np.asarray(literals, dtype=np.int64)
    return (np.sign(lits) * names[np.abs(lits) - 1]).tolist()


def clause_lines(clauses: Iterable[Sequence[int]]) -> str:
    """Return clauses as DIMACS lines ('1 -2 0'), each ending with a newline."""
    if isinstance(clauses, Cnf):
        return _formatted(clauses)
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
    data = text.removeprefix("\ufeff").encode("utf-8", "surrogatepass")
    return _parse_blocks(iter([data]), name)


def read_cnf(path: str) -> Cnf:
    """Read a DIMACS CNF file (or `-` for stdin), streamed a block of lines at a time:
    the text is never held whole, only the integers of its clauses.  A file this process
    has not the memory to hold is a DimacsError naming it, not a MemoryError."""
    name = "<stdin>" if path == "-" else path
    try:
        with _binary(path) as handle:
            return _parse_blocks(_blocks(handle), name)
    except FileNotFoundError:
        raise DimacsError("no such file", name) from None
    except OSError as problem:
        raise DimacsError(unreadable(path, problem)[0], name) from None
    except MemoryError:
        raise DimacsError(f"not enough memory to read this CNF ({_size(path)})", name) from None


def _binary(path: str) -> BinaryIO:
    """The file, or standard input, as bytes (a text stream put in place of stdin by a
    test is encoded)."""
    if path != "-":
        return open(path, "rb")
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise OSError("standard input is closed")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogatepass"))
    return contextlib.nullcontext(buffer)  # type: ignore[return-value]  # never closed


def _blocks(handle: BinaryIO) -> Iterator[bytes]:
    """Yield the bytes of a stream in blocks of whole lines (about _BLOCK bytes; a
    longer line whole), cut after an LF, or after a CR where a file has no LF (never
    between the CR and LF of a CR LF)."""
    rest = b""
    while piece := handle.read(_BLOCK):
        data = rest + piece
        cut = data.rfind(b"\n") + 1 or data.rfind(b"\r", 0, len(data) - 1) + 1
        rest = data[cut:]
        if cut:
            yield data[:cut]
    if rest:
        yield rest


class _Position:
    """Where a block starts in the whole text, to name lines and columns as if the
    text had been read whole: lines as `_line` counts them, LFs and the bytes since the
    last LF as a UTF-8 error counts them (encoder.errors.unreadable)."""

    def __init__(self) -> None:
        self.line = self.lfs = self.since_lf = 0

    def advance(self, data: bytes) -> None:
        lfs = data.count(b"\n")
        self.line += _line(data, len(data)) - 1 if b"\r" in data else lfs
        last = data.rfind(b"\n")
        self.lfs += lfs
        self.since_lf = len(data) - last - 1 if last >= 0 else self.since_lf + len(data)

    def not_utf8(self, data: bytes, name: str) -> None:
        """Raise DimacsError at the first byte of `data` that is not UTF-8."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as problem:
            at = problem.start
            last = data.rfind(b"\n", 0, at)
            column = at - last if last >= 0 else self.since_lf + at + 1
            line = self.lfs + data.count(b"\n", 0, at) + 1
            raise DimacsError(
                f"not UTF-8 text: byte 0x{data[at]:02x} at column {column}", name, line
            ) from None


def _parse_blocks(blocks: Iterator[bytes], name: str) -> Cnf:
    """Parse DIMACS CNF from blocks of whole lines (a UTF-8 byte-order mark at the
    start skipped)."""
    where = _Position()
    blank = True  # nothing but blanks so far
    for data in blocks:  # the first line that is neither blank nor a comment
        if blank and not where.lfs and not where.since_lf:
            data = data.removeprefix(b"\xef\xbb\xbf")
        where.not_utf8(data, name)
        blank = blank and not data.strip()
        found = next(iter(_lines(data, 0, len(data))), None)
        if found is not None:
            break
        where.advance(data)
    else:
        problem = "empty file: expected a" if blank else "no"
        raise DimacsError(f"{problem} 'p cnf VARS CLAUSES' header", name, 1)
    at, fields = found
    line = where.line + _line(data, at)
    if fields[0][:1] != b"p":
        if fields[0][:1] == b"%":
            raise DimacsError("no 'p cnf VARS CLAUSES' header", name, 1)
        raise DimacsError("clause before the 'p cnf VARS CLAUSES' header", name, line)
    body = _line_end(data, at)
    num_vars, announced = _header(data[at:body], name, line)
    clauses = _Clauses(num_vars, announced, name, line)
    while clauses.read(data, body, where.line):
        where.advance(data)
        data = next(blocks, None)
        if data is None:
            break
        where.not_utf8(data, name)
        body = 0
    return clauses.finished()


class _Clauses:
    """The clause text's integers, gathered block by block: the literals of the
    clauses the header announces, the number of clauses, and enough of the block where
    the last open clause starts to name its line if the file ends before its 0."""

    def __init__(self, num_vars: int, announced: str, name: str, header_line: int):
        self.num_vars, self.announced, self.name = num_vars, announced, name
        self.header_line = header_line
        self.keep = int(announced) if len(announced) <= 19 else 1 << 62
        self.literals: list[np.ndarray] = []
        self.ends: list[np.ndarray] = []  # per block: literals before each clause's end
        self.count = self.kept = 0  # clauses seen; literals kept
        self.open: tuple | None = None  # block, lines before it, token, chunk marks

    def read(self, data: bytes, start: int, line: int) -> bool:
        """Take the clause lines of data[start:] (a block starting after `line` lines);
        False once a '%' line has ended the clauses."""
        tokens, marks = _tokens(data, start, self.num_vars, self.name, self.header_line, line)
        stopped = tokens.size and tokens[-1] == _TRAILER
        if stopped:
            tokens = tokens[:-1]
        zeros = np.flatnonzero(tokens == 0)
        if tokens.size and (not zeros.size or zeros[-1] != tokens.size - 1):
            if zeros.size or self.open is None:  # a clause opens in this block
                first = int(zeros[-1]) + 1 if zeros.size else 0
                self.open = (data, line, first, marks)
        elif tokens.size:
            self.open = None
        room = max(0, self.keep - self.count)  # the clauses still kept
        kept = zeros[:room]
        upto = int(kept[-1]) + 1 if kept.size else 0
        if room > kept.size:  # an open clause's literals too
            upto = tokens.size
        piece = tokens[:upto]
        lits = piece[piece != 0]
        self.ends.append(self.kept + kept - np.arange(kept.size))
        self.literals.append(lits)
        self.kept += lits.size
        self.count += zeros.size
        return not stopped

    def finished(self) -> Cnf:
        if self.open is not None:
            data, line, first, marks = self.open
            raise DimacsError(
                "last clause is not terminated by 0", self.name,
                line + _token_line(data, marks, first),
            )  # fmt: skip
        if str(self.count) != self.announced:
            raise DimacsError(
                f"header announces {_shown(self.announced)} clauses, file has {self.count}",
                self.name,
                self.header_line,
            )
        offsets = np.zeros(self.count + 1, dtype=np.int64)
        if self.ends:
            np.concatenate(self.ends, out=offsets[1:])
        literals = np.concatenate(self.literals) if self.literals else np.empty(0, np.int32)
        return Cnf(self.num_vars, literals, offsets)


def _size(path: str) -> str:
    """Return a file's size in words, for a message."""
    try:
        return f"{os.path.getsize(path):,} bytes"
    except (OSError, ValueError):
        return "size unknown"


def _header(line: bytes, name: str, number: int) -> tuple[int, str]:
    """Return (variables, the clause count as written without leading zeros) of a
    header line, refusing a malformed one or more variables than MAX_VARS."""
    text = line.decode("utf-8", "replace").strip()
    fields = text.split()
    if (
        len(fields) != 4
        or fields[:2] != ["p", "cnf"]
        or not all(f.isascii() and f.isdigit() for f in fields[2:])
    ):
        raise DimacsError(
            f"bad header {_shown(text)!r}: expected 'p cnf VARS CLAUSES'", name, number
        )
    variables, clauses = (field.lstrip("0") or "0" for field in fields[2:])
    if len(variables) > _MAX_DIGITS or int(variables) > MAX_VARS:
        raise DimacsError(
            f"header declares {_shown(variables)} variables: at most {MAX_VARS} "
            "(literals are 32-bit integers in the engine, MiniSat and PySAT)",
            name,
            number,
        )
    return int(variables), clauses


# The fast path reads clause text a chunk of lines at a time with numpy.  A chunk made
# of blanks, digits and signs only (no comment, no header, no '%') is converted by
# array operations; any other chunk, and any doubtful token, goes through the careful
# path (Python, line by line), which also names the line of an error.
_BLANK, _DIGIT, _SIGN, _OTHER = 0, 1, 2, 3
_CLASS = np.full(256, _OTHER, dtype=np.uint8)  # byte -> class
_CLASS[list(b" \t\v\f\r\n")] = _BLANK
_CLASS[list(b"0123456789")] = _DIGIT
_CLASS[list(b"+-")] = _SIGN
_CHUNK = 1 << 18  # bytes of clause text converted at once (a line is never cut)
_BLOCK = 1 << 22  # bytes read at once: a few chunks, so that each is near _CHUNK
_MAX_DIGITS = len(str(MAX_VARS))
_POWERS_OF_TEN = 10 ** np.arange(1, _MAX_DIGITS + 1, dtype=np.int64)
_LINE = re.compile(rb"[^\r\n]*")  # LF, CR LF and CR all end a line
_INTEGER_BYTES = re.compile(rb"[-+]?[0-9]+")


_TRAILER = np.int32(np.iinfo(np.int32).min)  # marks a '%' line: no literal is this


def _tokens(
    data: bytes, start: int, num_vars: int, name: str, header_line: int, before: int = 0
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Return the integers of the clause lines of data[start:] (int32, the 0s
    included, _TRAILER last when a '%' line ended the clauses) and, for locating errors
    later, (byte position, number of integers before it) at the start of every chunk.
    Raise DimacsError at a bad token or a second header (`before`: the lines before
    `data` in the file)."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    pieces: list[np.ndarray] = []
    marks: list[tuple[int, int]] = []
    count = 0
    while start < len(data):
        end = len(data) if start + _CHUNK >= len(data) else _line_end(data, start + _CHUNK)
        marks.append((start, count))
        piece, stopped = _fast_tokens(buffer[start:end], num_vars), False
        if piece is None:
            piece, stopped = _careful_tokens(data, start, end, num_vars, name, header_line, before)
        pieces.append(piece)
        count += piece.size
        if stopped:  # the SATLIB trailer: what follows '%' is not read
            pieces.append(np.array([_TRAILER], np.int32))
            break
        start = end
    return (np.concatenate(pieces) if pieces else np.empty(0, np.int32)), marks


def _fast_tokens(chunk: np.ndarray, num_vars: int) -> np.ndarray | None:
    """Return the integers of a chunk of blanks, digits and signs (int32), or None when
    it holds anything else or a token the careful path must judge."""
    kind = _CLASS[chunk]
    if (kind == _OTHER).any():
        return None
    edges = np.diff((kind != _BLANK).view(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    signed = kind[starts] == _SIGN
    digits = stops - starts - signed
    if (
        np.count_nonzero(kind == _SIGN) != np.count_nonzero(signed)
        or not ((digits >= 1) & (digits <= _MAX_DIGITS)).all()
    ):
        return None  # a sign inside a token, a lone sign, or a very long number
    first = starts + signed
    value = np.zeros(starts.size, dtype=np.int64)
    for k in range(int(digits.max(initial=0))):  # digit by digit, at most 10 rounds
        more = digits > k
        value[more] = value[more] * 10 + (chunk[first[more] + k] - ord("0"))
    if (value > num_vars).any():
        return None
    value[chunk[starts] == ord("-")] *= -1
    return value.astype(np.int32)


def _careful_tokens(
    data: bytes, start: int, end: int, num_vars: int, name: str, header_line: int, before: int
) -> tuple[np.ndarray, bool]:
    """Return the integers of the clause lines of data[start:end] and whether a '%'
    line ended the clauses there; raise DimacsError at the first defect (`before`: the
    lines before `data` in the file)."""
    values: list[int] = []
    for at, fields in _lines(data, start, end):
        line = before + _line(data, at)
        head = fields[0][:1]
        if head == b"%":
            return np.array(values, dtype=np.int32), True
        if head == b"p":
            raise DimacsError(f"second 'p' header (the first is on line {header_line})", name, line)
        for token in fields:
            if not _INTEGER_BYTES.fullmatch(token):
                raise DimacsError(f"not an integer: {_shown(token)!r}", name, line)
            if len(token.lstrip(b"+-").lstrip(b"0")) > _MAX_DIGITS or abs(int(token)) > num_vars:
                raise DimacsError(
                    f"literal {_shown(token)} beyond the {num_vars} variables of the header",
                    name,
                    line,
                )
            values.append(int(token))
    return np.array(values, dtype=np.int32), False


def _lines(data: bytes, start: int, end: int) -> Iterator[tuple[int, list[bytes]]]:
    """Yield (start, tokens) of each line of data[start:end] that is neither blank nor
    a comment (a line whose first token starts with 'c')."""
    while start < end:
        stop = _line_end(data, start)
        fields = data[start:stop].split()
        if fields and fields[0][:1] != b"c":
            yield start, fields
        start = stop + 1


def _token_line(data: bytes, marks: list[tuple[int, int]], index: int) -> int:
    """Return the line of the integer number `index` (0-based) of the clause text."""
    start, count = next((m for m in reversed(marks) if m[1] <= index), marks[0])
    for at, fields in _lines(data, start, len(data)):
        count += len(fields)
        if count > index:
            return _line(data, at)
    raise AssertionError(f"no integer number {index}")


def _line(data: bytes, position: int) -> int:
    """Return the 1-based line of a byte position (LF, CR LF and CR end a line)."""
    ends = data.count(b"\n", 0, position) + data.count(b"\r", 0, position)
    return 1 + ends - data.count(b"\r\n", 0, position)


def _line_end(data: bytes, position: int) -> int:
    """Return the position of the line end (LF or CR) at or after `position`, or the end."""
    return _LINE.match(data, position).end()


def _shown(token: str | bytes, width: int = 40) -> str:
    """Return a token as an error message shows it: an integer normalised, and at most
    `width` characters."""
    if isinstance(token, bytes):
        token = token.decode("utf-8", "replace")
    if _INTEGER.fullmatch(token) and len(token) <= width:
        return str(int(token))
    return token if len(token) <= width else token[:width] + "..."


def _formatted(cnf: Cnf) -> str:
    """Return the clause lines of a flat CNF, written by array operations a block of
    clauses at a time (no Python int or str per literal)."""
    pieces = []
    step = 1 << 16
    for first in range(0, len(cnf), step):
        bounds = cnf.offsets[first : first + step + 1]
        lits = cnf.literals[bounds[0] : bounds[-1]].astype(np.int64)
        closed = bounds[1:] - bounds[0]  # literals before the end of each clause
        size = np.abs(lits)
        digits = 1 + np.searchsorted(_POWERS_OF_TEN, size, side="right")
        width = digits + (lits < 0) + 1  # sign, digits, space
        before = np.zeros(lits.size + 1, dtype=np.int64)
        np.cumsum(width, out=before[1:])
        # A literal starts after the literals before it and a "0\n" per clause closed.
        start = before[:-1] + 2 * np.searchsorted(closed, np.arange(lits.size), side="right")
        zeros = before[closed] + 2 * np.arange(closed.size)  # where each "0\n" goes
        out = np.full(int(before[-1]) + 2 * closed.size, ord(" "), dtype=np.uint8)
        out[start[lits < 0]] = ord("-")
        last = start + width - 2  # the last digit
        for k in range(int(digits.max(initial=0))):
            more = digits > k
            out[last[more] - k] = ord("0") + size[more] // 10**k % 10
        out[zeros] = ord("0")
        out[zeros + 1] = ord("\n")
        pieces.append(out.tobytes().decode("ascii"))
    return "".join(pieces)


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
    status_line = 0
    literals: list[int] = []
    first_literal_line = last_v_line = 0
    terminated = False
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0] == "c":
            continue
        said = None
        if fields[0] == "s":
            said = _STATUS_WORDS.get(" ".join(fields[1:]).upper())
            if said is None:
                raise DimacsError(f"unknown status line {_shown(line.strip(), 60)!r}", name, number)
        elif len(fields) == 1 and fields[0].upper() in _STATUS_WORDS:
            said = _STATUS_WORDS[fields[0].upper()]  # MiniSat's result file
        if said is not None:
            if status is not None and said is not status:
                raise DimacsError(
                    f"status {said} contradicts the status {status} of line {status_line}",
                    name,
                    number,
                )
            status, status_line = said, status_line or number
            continue
        if fields[0] == "v":
            fields = fields[1:]
            last_v_line = number
        for token in fields:
            lit = _model_literal(token, name, number)
            if lit == 0:
                terminated = True
            elif terminated:
                raise DimacsError(f"literal {lit} after the closing 0", name, number)
            else:
                literals.append(lit)
                first_literal_line = first_literal_line or number
    if status is None:
        if not literals:
            raise DimacsError("no model: no status line and no literals", name, 1)
        status = Status.SAT
    if status is Status.UNSAT and literals:
        raise DimacsError(
            f"model literals with the UNSATISFIABLE status of line {status_line}",
            name,
            first_literal_line,
        )
    if status is not Status.SAT:
        return Model(status, ())
    if last_v_line and not terminated:
        raise DimacsError(
            "the 'v' lines end without their closing 0 (cut short?)", name, last_v_line
        )
    return Model(Status.SAT, tuple(literals))


def _model_literal(token: str, name: str, number: int) -> int:
    """Return the literal a model token spells, refusing a non-integer and a variable
    beyond MAX_VARS."""
    if not _INTEGER.fullmatch(token):
        raise DimacsError(f"not a literal: {_shown(token)!r}", name, number)
    if len(token) > len(str(MAX_VARS)) + 1 or abs(int(token)) > MAX_VARS:
        raise DimacsError(
            f"literal {_shown(token)} beyond the largest variable {MAX_VARS}", name, number
        )
    return int(token)


def read_model(path: str) -> Model:
    """Read solver output from a file (or `-` for stdin)."""
    text, name = read_text(path)
    return parse_model(text, name)
