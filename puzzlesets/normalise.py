"""The canonical text of a puzzle set, and the recipe that makes it from the originals.

Public puzzle files come in many shapes: a count line or `#` header at the top, CRLF
line ends, a CSV with many columns, one set spread over several files, a few
duplicates.  The project's copies (the mirror) were normalised once, by hand; a fresh
download must give the same puzzles, so the normalisation is written down here as data
(a `Recipe` per catalogue entry) and applied the same way every time.

The checksum of a set is the SHA-256 of its *canonical* text: UTF-8 without a byte-order
mark, LF line ends, no trailing spaces, no blank lines at the end, one final newline.
A mirror copy checked out with CRLF line ends therefore has the same checksum as the
downloaded file the recipe produces, and the cache holds exactly the canonical bytes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field


class RecipeError(ValueError):
    """An original file does not have the shape its recipe expects."""


def canonical(data: bytes) -> bytes:
    """Return the canonical form of a text file's bytes (see the module docstring)."""
    text = data.decode("utf-8-sig")  # drops a byte-order mark
    lines = [line.rstrip() for line in text.splitlines()]  # \r\n, \r and \n alike
    while lines and not lines[-1]:
        lines.pop()
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def checksum(data: bytes) -> str:
    """Return the hex SHA-256 of the canonical form of `data`."""
    return hashlib.sha256(canonical(data)).hexdigest()


@dataclass(frozen=True)
class Part:
    """One original file and what to keep of it, in this order: the first `drop_first`
    lines dropped (count lines, headers), `#` comment lines dropped, only the lines
    matching `extract` kept (its first group), every `every`-th line kept (the first,
    then every `every` lines on), a table's rows sorted by the number in
    column `sort_by` (header kept), one `column` of a table kept, substrings replaced
    (`replace`), `prefix` put before every line, the first `head` lines kept."""

    url: str
    sha256: str  # of the bytes as downloaded (checked before anything is kept)
    drop_first: int = 0
    drop_comments: bool = False
    extract: str | None = None  # a regular expression; group 1 of each matching line
    every: int = 1  # keep lines 1, 1 + every, 1 + 2 * every, ... (a sample of a long list)
    sort_by: str | None = None  # a table: sort the rows by this numeric column
    column: str | None = None  # a table: keep this column
    delimiter: str = ","
    replace: tuple[tuple[str, str], ...] = ()
    prefix: str = ""
    head: int | None = None

    def lines(self, data: bytes) -> list[str]:
        """Return the lines this part contributes, from the original's bytes."""
        lines = canonical(data).decode("utf-8").split("\n")[:-1]
        lines = lines[self.drop_first :]
        if self.drop_comments:
            lines = [line for line in lines if not line.lstrip().startswith("#")]
        if self.extract is not None:
            pattern = re.compile(self.extract)
            lines = [found.group(1) for found in map(pattern.search, lines) if found]
        if self.every < 1:
            raise RecipeError(f"{self.url}: every = {self.every}, expected 1 or more")
        lines = lines[:: self.every]
        if self.sort_by is not None:
            lines = _sorted_table(lines, self.sort_by, self.delimiter, self.url)
        if self.column is not None:
            lines = _column(lines, self.column, self.delimiter, self.url)
        for old, new in self.replace:
            lines = [line.replace(old, new) for line in lines]
        lines = [self.prefix + line for line in lines]
        if self.head is not None:
            if len(lines) < self.head:
                raise RecipeError(f"{self.url}: {len(lines)} lines, expected at least {self.head}")
            lines = lines[: self.head]
        return lines


def _rows(lines: list[str], name: str, delimiter: str, url: str) -> tuple[list[list[str]], int]:
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
    if not rows or name not in rows[0]:
        raise RecipeError(f"{url}: no column {name!r} in the header")
    return rows, rows[0].index(name)


def _sorted_table(lines: list[str], name: str, delimiter: str, url: str) -> list[str]:
    rows, at = _rows(lines, name, delimiter, url)
    try:
        order = sorted(range(1, len(rows)), key=lambda r: float(rows[r][at]))
    except (ValueError, IndexError):
        raise RecipeError(f"{url}: column {name!r} is not numeric on every row") from None
    return [lines[0]] + [lines[r] for r in order]


def _column(lines: list[str], name: str, delimiter: str, url: str) -> list[str]:
    rows, at = _rows(lines, name, delimiter, url)
    return [row[at] for row in rows[1:] if len(row) > at]


@dataclass(frozen=True)
class Recipe:
    """How the parts make one file: concatenated (or pasted side by side, TAB-separated,
    for a table whose columns come from several files), later duplicates dropped, and a
    header line put on top."""

    parts: tuple[Part, ...] = field(default_factory=tuple)
    combine: str = "concat"  # or "paste"
    dedupe: bool = False
    header: str | None = None

    def make(self, originals: Sequence[bytes]) -> bytes:
        """Return the canonical file the recipe makes from the parts' original bytes."""
        if len(originals) != len(self.parts):
            raise RecipeError(f"{len(self.parts)} parts, {len(originals)} files given")
        columns = [part.lines(data) for part, data in zip(self.parts, originals, strict=True)]
        if self.combine == "paste":
            lengths = {len(column) for column in columns}
            if len(lengths) > 1:
                raise RecipeError(f"pasted parts differ in length: {sorted(lengths)}")
            lines = ["\t".join(row) for row in zip(*columns, strict=True)]
        else:
            lines = [line for column in columns for line in column]
        if self.dedupe:
            lines = list(dict.fromkeys(lines))
        if self.header is not None:
            lines = [self.header, *lines]
        return canonical("\n".join(lines).encode("utf-8"))
