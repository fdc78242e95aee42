"""Errors raised at the edges (bad grids, bad DIMACS), and the one reader of text files.

Each carries where the problem is (file and line when known) so that a command-line
front end can print one line `prog: FILE:LINE: problem` and exit 1, never a traceback.
"""

from __future__ import annotations

import json
import sys


class InputError(Exception):
    """Bad user input, located by file name and 1-based line number when known."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def located(self, path: str | None = None, line: int | None = None) -> InputError:
        """Return a copy of this error with the location filled in where missing."""
        return type(self)(self.message, self.path or path, self.line or line)

    def __str__(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class GridError(InputError):
    """A grid that cannot be read or whose givens clash."""


class DimacsError(InputError):
    """A DIMACS CNF or model file that does not follow the format."""


def unreadable(path: str, error: OSError | UnicodeDecodeError) -> tuple[str, int | None]:
    """Return (problem, 1-based line or None) for a file that could not be read as text:
    the line of the first byte that is not UTF-8, or the system's reason."""
    if isinstance(error, UnicodeDecodeError):
        line = error.object[: error.start].count(b"\n") + 1
        column = error.start - (error.object.rfind(b"\n", 0, error.start) + 1) + 1
        byte = error.object[error.start]
        return f"not UTF-8 text: byte 0x{byte:02x} at column {column}", line
    return f"cannot read: {error.strerror or error}", None


def read_text(path: str, error: type[InputError] = InputError, newline: str | None = None) -> str:
    """Return the text of a UTF-8 file (`-`: standard input), or raise `error` located at
    the file (and the line of a byte that is not UTF-8), worded the same for every kind
    of file the project reads.  A UTF-8 byte-order mark at the start (as some Windows
    editors write) is dropped.  `newline=""` keeps CR characters, for formats that must
    see them; otherwise CR LF and CR become LF, as `open` does."""
    try:
        if path == "-":
            return _stdin_text(newline)
        with open(path, encoding="utf-8-sig", newline=newline) as handle:
            return handle.read()
    except FileNotFoundError:
        raise error("no such file", path) from None
    except (OSError, UnicodeDecodeError) as problem:
        message, line = unreadable(path, problem)
        raise error(message, "<stdin>" if path == "-" else path, line) from None


def _stdin_text(newline: str | None) -> str:
    """Return standard input read the way `read_text` reads a file: strict UTF-8 (the
    bytes, whatever the locale says), without a byte-order mark, line ends as `newline`
    asks.  A text stream put in place of stdin (tests) is read as text."""
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise OSError("standard input is closed")
    buffer = getattr(sys.stdin, "buffer", None)
    text = sys.stdin.read() if buffer is None else buffer.read().decode("utf-8")
    text = text.removeprefix("\ufeff")
    if newline is None:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_json(path: str, checker, what: str) -> dict:
    """Return the JSON document in a file once `checker` (raising ValueError) accepts
    it, or raise InputError saying what is wrong; `what` names such a document."""
    text = read_text(path)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", path, error.lineno) from None
    except RecursionError:
        raise InputError(f"not {what}: nested too deeply", path) from None
    try:
        checker(document)
    except ValueError as error:
        raise InputError(str(error), path) from None
    return document
