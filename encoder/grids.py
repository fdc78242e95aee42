"""Reading and writing grids.

A grid is a tuple of N*N ints in reading order, 0 for a blank.  Accepted text:
- one puzzle per line: N*N symbols, blanks written `.`, `0` or `_` (`0` only when it is
  not a symbol of the alphabet);
- a laid-out grid over N lines, with any of ` |-+` as separators;
- jigsaw lines `puzzle|regions`: N*N symbols, then N*N region ids (one symbol each);
- numbers (any size, and the only way beyond 35 symbols): values 1..N separated by
  spaces or commas, `0` or `.` for a blank, either one grid per line (N*N numbers) or one
  row per line (N lines of N numbers, `|` and lines of `-+` allowed as separators);
  a text is read as numbers when it has a comma or a number of two digits or more and
  its counts fit one of the two layouts;
- in files, `#` comments and blank lines are ignored.
The side N is recognised from the length (N*N symbols, N from 4 to 35); symbols are
`1-9` then `A-Z` unless another alphabet is given (for example `0-F` for 16x16).
Grids of more than 35 symbols are written as numbers (`format_line`), one grid per
line.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from math import isqrt

from encoder.errors import GridError
from encoder.geometry import DEFAULT_SYMBOLS, MAX_SIZE, SUPPORTED_SIZES, Geometry, Region
from encoder.numbering import Grid

BLANKS = "._0"
_RANGE_ORDERS = ("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789abcdefghijklmnopqrstuvwxyz")
SEPARATORS = " \t|-+"
RESERVED = "._#" + SEPARATORS  # never symbols: `0` is a blank only when not a symbol


@dataclass(frozen=True)
class PuzzleText:
    """One puzzle as read from a file: its cells' text and where it came from."""

    cells: str | tuple[str, ...]  # N*N characters, separators removed; or N*N numbers
    regions: str | None  # N*N region ids for jigsaw lines, else None
    path: str
    line: int  # 1-based line where the puzzle starts


def expand_symbols(spec: str) -> str:
    """Return the alphabet named by `spec`: ranges such as '0-F' or '1-9A-G', or a list."""
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = spec[i], spec[i + 2]
            # Ranges run along digits-then-letters, so 0-F is 0..9 then A..F (hex).
            order = next((o for o in _RANGE_ORDERS if lo in o and hi in o), None)
            if order is None or order.index(hi) < order.index(lo):
                raise GridError(f"bad symbol range {lo}-{hi} in --symbols {spec!r}")
            out.extend(order[order.index(lo) : order.index(hi) + 1])
            i += 3
        else:
            out.append(spec[i])
            i += 1
    alphabet = "".join(out)
    if not alphabet:
        raise GridError("--symbols '' names no symbol: give the alphabet, e.g. 0-F")
    if len(set(alphabet)) != len(alphabet):
        raise GridError(f"--symbols {spec!r} repeats a symbol")
    reserved = next((ch for ch in alphabet if ch in RESERVED or ch.isspace()), None)
    if reserved is not None:
        raise GridError(
            f"--symbols {spec!r}: {reserved!r} cannot be a symbol (blanks are . and _, "
            "separators | - + and spaces, comments start with #)"
        )
    return alphabet


_NO_SEPARATORS = str.maketrans("", "", SEPARATORS)


def _strip(line: str) -> str:
    return line.translate(_NO_SEPARATORS)


def _size_of(length: int) -> int | None:
    n = isqrt(length)
    return n if n * n == length and n in SUPPORTED_SIZES else None


_NUMBER_SEPARATORS = re.compile(r"[\s,|]+")
_NUMBER = re.compile(r"[0-9]+|\.")
_RULE_LINE = re.compile(r"[-+| ]+")  # a laid-out grid's box rule, such as ------+------


def _numeric_puzzles(
    lines: list[tuple[int, str]], path: str, size: int | None
) -> list[PuzzleText] | None:
    """Return the puzzles of a text of numbers (one grid per line, or one grid laid out
    one row per line), or None when the text is not written in numbers."""
    rows: list[tuple[int, tuple[str, ...]]] = []
    for number, content in lines:
        if _RULE_LINE.fullmatch(content):
            continue
        tokens = tuple(t for t in _NUMBER_SEPARATORS.split(content) if t)
        if len(tokens) < 2 or not all(_NUMBER.fullmatch(t) for t in tokens):
            return None
        rows.append((number, tokens))
    if not rows:
        return None
    counts = {len(tokens) for _, tokens in rows}
    if len(counts) != 1:
        return None
    count = counts.pop()
    side = isqrt(count)
    # Digits separated by spaces are a laid-out grid of symbols, unless commas or numbers
    # of two digits say otherwise, or the grid is too wide for an alphabet of symbols.
    widest = len(DEFAULT_SYMBOLS)
    too_wide = (len(rows) == count > widest) or (side * side == count and side > widest)
    written_in_numbers = (
        too_wide
        or any("," in content for _, content in lines)
        or any(len(t) > 1 for _, tokens in rows for t in tokens)
    )
    if not written_in_numbers:
        return None
    if len(rows) == count and (size is None or size == count):  # one row per line
        n, puzzles = count, [PuzzleText(sum((t for _, t in rows), ()), None, path, rows[0][0])]
    elif side * side == count and (size is None or size == side):  # one grid per line
        n, puzzles = side, [PuzzleText(tokens, None, path, number) for number, tokens in rows]
    else:
        return None
    if not 4 <= n <= MAX_SIZE:
        return None
    if n <= widest and any(t != "." and int(t) > n for p in puzzles for t in p.cells):
        return None  # digits of a grid of symbols, such as 123 456 789 (a wider grid's
        # bad value is reported by parse_cells)
    return puzzles


def split_puzzles(
    text: str, path: str = "<input>", size: int | None = None, first_line: int = 1
) -> list[PuzzleText]:
    """Split a file's text into puzzles (one per line, or a single laid-out grid); the
    text's first line is line `first_line` of the file (a later block of a long one)."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=first_line):
        content = raw.split("#", 1)[0].strip()
        if content:
            lines.append((number, content))
    if not lines:
        raise GridError("no grid found (only blank lines or comments)", path)
    numeric = _numeric_puzzles(lines, path, size)
    if numeric is not None:
        return numeric
    one_per_line: list[PuzzleText] = []
    for number, content in lines:
        cells, regions = content, None
        if "|" in content and content.count("|") == 1:
            left, right = (part.strip() for part in content.split("|"))
            # A whole grid on the left makes a jigsaw line even when the map on the
            # right has the wrong length or is empty: region_ids then says so, instead
            # of the two halves being read as one grid of N*N cells and more.
            if _size_of(len(left)):
                cells, regions = left, right
        cells = cells if regions is not None else _strip(cells)
        one_per_line.append(PuzzleText(cells, regions, path, number))
    lengths = {len(p.cells) for p in one_per_line}
    # L lines of L cells each: one grid laid out when a side of L is supported (16 lines
    # of 16 cells: a 16x16 grid, not sixteen 4x4 ones), else L puzzles (81 lines of 81).
    square_layout = (
        len(lengths) == 1 and len(one_per_line) == min(lengths) and min(lengths) in SUPPORTED_SIZES
    )
    if size is None and len(lengths) == 1 and _size_of(min(lengths)) and not square_layout:
        return one_per_line
    if size is not None and all(len(p.cells) == size * size for p in one_per_line):
        return one_per_line
    # A laid-out grid spread over several lines.
    joined = "".join(p.cells for p in one_per_line)
    n = size or _size_of(len(joined))
    if n and len(joined) == n * n and len(one_per_line) > 1:
        return [PuzzleText(joined, None, path, one_per_line[0].line)]
    expected = f"{size * size}" if size else f"N*N ({_SIDES})"
    whole = {size * size} if size else {m * m for m in SUPPORTED_SIZES}  # a grid's lengths
    if len(one_per_line) > 1 and max(lengths) <= max(SUPPORTED_SIZES) and not lengths & whole:
        raise _laid_out_error(one_per_line, size)  # short lines: a laid-out grid
    for p in one_per_line:
        if len(p.cells) not in whole:
            raise GridError(f"grid has {len(p.cells)} cells, expected {expected}", path, p.line)
    raise _sizes_error(one_per_line)


_SIDES = "N from 4 to 35, or numbers separated by spaces or commas"


def _odd_one(puzzles: list[PuzzleText]) -> tuple[int, PuzzleText | None]:
    """Return the most common length of `puzzles` and the first puzzle of another length
    (None when all have the same)."""
    common = Counter(len(p.cells) for p in puzzles).most_common(1)[0][0]
    return common, next((p for p in puzzles if len(p.cells) != common), None)


def _sizes_error(puzzles: list[PuzzleText]) -> GridError:
    """The error for a file of whole puzzles of several sizes, located at the first
    puzzle whose size is not the file's most common one."""
    common, odd = _odd_one(puzzles)
    assert odd is not None
    first = next(p for p in puzzles if len(p.cells) == common)
    n, m = _size_of(len(odd.cells)), _size_of(common)
    return GridError(
        f"puzzles of different sizes in one file: a {n}x{n} puzzle here, {m}x{m} ones "
        f"elsewhere (the first on line {first.line})",
        odd.path,
        odd.line,
    )


def _laid_out_error(rows: list[PuzzleText], size: int | None) -> GridError:
    """The error for a grid laid out over several lines whose cells do not add up: the
    first row of an odd length, or else the number of rows."""
    common, odd = _odd_one(rows)
    n = size or (common if _size_of(common * common) else None)
    what = f"a grid laid out over {len(rows)} lines has {sum(len(p.cells) for p in rows)} cells"
    what += f", not the {n * n} of a {n}x{n} grid" if n else ", not N*N"
    if odd is not None:
        problem = f"{what}: this line has {len(odd.cells)} cells, most have {common}"
        return GridError(problem, odd.path, odd.line)
    return GridError(f"{what}: {len(rows)} lines of {common} cells", rows[0].path, rows[0].line)


def looks_like_path(source: str) -> bool:
    """Return True when an argument that names no file was meant as a file name."""
    return "/" in source or source.endswith((".txt", ".sdk", ".csv"))


def size_of_puzzle(puzzle: PuzzleText) -> int:
    """Return N for a puzzle whose length is N*N, or raise a located GridError."""
    if isinstance(puzzle.cells, tuple):  # numbers: _numeric_puzzles checked the square
        return isqrt(len(puzzle.cells))
    n = _size_of(len(puzzle.cells))
    if n is None:
        raise GridError(
            f"grid has {len(puzzle.cells)} cells, not a square of a supported size",
            puzzle.path,
            puzzle.line,
        )
    return n


def parse_cells(
    cells: str | tuple[str, ...], geometry: Geometry, path: str = "<input>", line: int | None = None
) -> Grid:
    """Return the grid of an N*N-character string (or of N*N numbers), checking every
    symbol."""
    n = geometry.size
    if len(cells) != n * n:
        raise GridError(f"grid has {len(cells)} cells, expected {n * n}", path, line)
    if isinstance(cells, tuple):
        return _parse_numbers(cells, n, path, line)
    if geometry.numeric:
        raise GridError(
            f"a {n}x{n} grid is written in numbers separated by spaces or commas", path, line
        )
    allowed, to_values, _ = _tables(geometry.symbols)
    if allowed.issuperset(cells):  # the common case, at C speed: one byte per value
        return tuple(cells.translate(to_values).encode("latin-1"))
    value_of = {s: k for k, s in enumerate(geometry.symbols, start=1)}
    grid = []
    for c, ch in enumerate(cells):
        if ch in value_of:
            grid.append(value_of[ch])
        elif ch in BLANKS:
            grid.append(0)
        else:
            i, j = divmod(c, n)
            raise GridError(
                f"bad symbol {ch!r} at cell ({i},{j}); allowed: {geometry.symbols} or a blank",
                path,
                line,
            )
    return tuple(grid)


def _parse_numbers(cells: tuple[str, ...], n: int, path: str, line: int | None) -> Grid:
    grid = []
    for c, token in enumerate(cells):
        value = 0 if token == "." else int(token)
        if value > n:
            i, j = divmod(c, n)
            problem = f"bad value {token} at cell ({i},{j}); allowed: 1..{n} or 0 or ."
            raise GridError(problem, path, line)
        grid.append(value)
    return tuple(grid)


def parse_grid(text: str, geometry: Geometry) -> Grid:
    """Return the grid written in `text` (one line, or a laid-out grid)."""
    puzzles = split_puzzles(text, size=geometry.size)
    if len(puzzles) != 1:
        raise GridError(f"expected one grid, found {len(puzzles)}")
    return parse_cells(puzzles[0].cells, geometry, puzzles[0].path, puzzles[0].line)


def format_line(grid: Grid, geometry: Geometry, blank: str = ".") -> str:
    """Return the grid as one line of N*N symbols (N*N numbers separated by spaces, 0 for
    a blank, for a numeric geometry)."""
    if geometry.numeric:
        return " ".join(map(str, grid))
    n = len(geometry.symbols)
    if blank == "." and isinstance(grid, tuple) and grid and 0 <= min(grid) <= max(grid) <= n:
        return bytes(grid).decode("latin-1").translate(_tables(geometry.symbols)[2])
    return "".join(geometry.symbols[k - 1] if k else blank for k in grid)


def format_lines(values, geometry: Geometry) -> list[str]:
    """Return `format_line` of each row of `values`, a 2-D numpy array of one-byte
    values (N*N a row): for a grid of symbols, the rows are translated in one call."""
    cells, count = geometry.size**2, len(values)
    if (
        geometry.numeric
        or values.itemsize != 1
        or count == 0
        or not 0 <= values.min() <= values.max() <= len(geometry.symbols)
    ):
        return [format_line(tuple(row), geometry) for row in values.tolist()]
    text = values.tobytes().decode("latin-1").translate(_tables(geometry.symbols)[2])
    return [text[at : at + cells] for at in range(0, count * cells, cells)]


@functools.lru_cache(maxsize=16)
def _tables(symbols: str) -> tuple[frozenset[str], dict[int, str], dict[int, str]]:
    """Return, for an alphabet, the characters a grid may hold (its symbols and the blanks
    that are not symbols), and the translation tables from them to chr(value) (0 for a
    blank) and back (a blank written '.'), for parse_cells and format_line."""
    blanks = [ch for ch in BLANKS if ch not in symbols]
    to_values = {ord(ch): chr(0) for ch in blanks}
    to_values.update({ord(ch): chr(k) for k, ch in enumerate(symbols, start=1)})
    to_symbols = {0: "."} | {k: ch for k, ch in enumerate(symbols, start=1)}
    return frozenset(symbols) | frozenset(blanks), to_values, to_symbols


def value_table(symbols: str) -> dict[int, int]:
    """Return {byte: value} for the characters a grid of alphabet `symbols` may hold (0 for
    a blank), as `parse_cells` reads them."""
    return {byte: ord(value) for byte, value in _tables(symbols)[1].items()}


def format_pretty(grid: Grid, geometry: Geometry) -> str:
    """Return the grid laid out over N lines, boxes separated by | and -+- rules."""
    n = geometry.size
    h, w = geometry.box or (n, n)
    if geometry.numeric:
        width = len(str(n))
        symbols = [str(k).rjust(width) for k in grid]
    else:
        width, symbols = 1, list(format_line(grid, geometry))
    rows = []
    for i in range(n):
        groups = [" ".join(symbols[n * i + j : n * i + j + w]) for j in range(0, n, w)]
        rows.append(" | ".join(groups))
        if (i + 1) % h == 0 and i + 1 < n:
            rows.append("-+-".join("-" * ((width + 1) * w - 1) for _ in range(0, n, w)))
    return "\n".join(rows)


@dataclass(frozen=True)
class Clash:
    """Two givens with the same value in one region."""

    value: int
    first: int
    second: int
    region: Region


def find_clashes(grid: Grid, geometry: Geometry) -> list[Clash]:
    """Return every pair of equal givens sharing a region (first pair per value per region)."""
    clashes = []
    for region in geometry.regions:
        first_cell: dict[int, int] = {}
        for c in region.cells:
            k = grid[c]
            if not k:
                continue
            if k in first_cell:
                clashes.append(Clash(k, first_cell[k], c, region))
            else:
                first_cell[k] = c
    return clashes


def first_clash(grid: Grid, geometry: Geometry) -> str:
    """Return the first clash of the givens of `grid` in words, or "" when none clash."""
    clashes = find_clashes(grid, geometry)
    return describe_clash(clashes[0], geometry) if clashes else ""


def describe_clash(clash: Clash, geometry: Geometry) -> str:
    a, b = geometry.cell(clash.first), geometry.cell(clash.second)
    symbol = geometry.symbol(clash.value)
    return (
        f"value {symbol} given twice in {clash.region.name()}: cells ({a[0]},{a[1]}) and "
        f"({b[0]},{b[1]}) (0-based row,column)"
    )


def region_ids(
    text: str, n: int, path: str = "<input>", line: int | None = None
) -> tuple[int, ...]:
    """Return the region id of every cell from a jigsaw map of N*N symbols."""
    stripped = _strip(text)
    if not stripped:
        message = f"the region map is empty: a jigsaw map gives the region of all {n * n} cells"
        raise GridError(message, path, line)
    if len(stripped) != n * n:
        raise GridError(f"region map has {len(stripped)} cells, expected {n * n}", path, line)
    sizes = Counter(stripped)
    if len(sizes) != n or any(count != n for count in sizes.values()):
        # Checked here, on the map's own symbols: the geometry only sees numeric ids.
        listed = ", ".join(f"{symbol!r}: {count}" for symbol, count in sorted(sizes.items()))
        raise GridError(
            f"a jigsaw map needs {n} regions of {n} cells; this one has {len(sizes)} "
            f"(cells per region symbol: {listed})",
            path,
            line,
        )
    return tuple(ord(ch) for ch in stripped)
