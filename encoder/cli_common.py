"""Command-line pieces shared by the project's front ends: geometry flags and grid input.

`add_geometry_flags` declares the variant options (--size, --box, --diagonals,
--windows, --regions, --no-boxes, --symbols) and `load_puzzles` turns a GRID argument
(a grid, a file of grids, or `-`) into (geometry, grid, source) triples, inferring the
size from the first puzzle and reading jigsaw maps from `puzzle|regions` lines.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import IO

from encoder.errors import GridError, InputError, read_text
from encoder.geometry import MAX_SIZE, Geometry, disconnected_regions, make_geometry
from encoder.grids import (
    PuzzleText,
    describe_clash,
    expand_symbols,
    find_clashes,
    looks_like_path,
    parse_cells,
    read_source,
    region_ids,
    size_of_puzzle,
    split_puzzles,
)
from encoder.output_files import write_file
from encoder.puzzle_files import is_table, read_texts
from puzzlesets import PuzzleSet, PuzzleSetError, locate, lookup

GEOMETRY_FLAGS = ("size", "box", "diagonals", "windows", "regions", "no_boxes", "symbols")


def add_geometry_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("variant (geometry)")
    group.add_argument(
        "--size",
        type=_side,
        metavar="N",
        help=f"grid side N, 4 to {MAX_SIZE} (default: inferred from the grid's length)",
    )
    # A jigsaw map replaces the boxes, and --no-boxes removes them: each of the three
    # contradicts the others, so argparse refuses them together (a usage error).
    boxes = group.add_mutually_exclusive_group()
    boxes.add_argument("--box", metavar="RxC", help="box height x width (default per size)")
    group.add_argument("--diagonals", action="store_true", help="X-Sudoku: both main diagonals")
    group.add_argument(
        "--windows",
        action="store_true",
        help="Hyper/Windoku: four extra 3x3 windows at (1,1) (1,5) (5,1) (5,5) "
        "(16x16: nine 4x4, 25x25: sixteen 5x5, one cell apart)",
    )
    boxes.add_argument(
        "--regions",
        metavar="MAP",
        help="jigsaw: N*N region ids (a string or a file); replaces the boxes",
    )
    boxes.add_argument("--no-boxes", action="store_true", help="no boxes (Latin square)")
    group.add_argument(
        "--symbols",
        metavar="SPEC",
        help="alphabet, e.g. 0-F for 16x16 (default 1-9 then A-Z; numbers beyond 35)",
    )


def _side(text: str) -> int:
    """Parse --size: an integer side from 4 to MAX_SIZE."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 4 <= n <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"{n} is not a side from 4 to {MAX_SIZE}")
    return n


class GeometryFlagParser(argparse.ArgumentParser):
    """A parser of geometry flags found in text (headers, catalogue): errors raise."""

    def error(self, message: str):  # raise instead of exiting
        raise GridError(message)


def flags_namespace(flags: str) -> argparse.Namespace:
    """Return the geometry-flags namespace that a string such as '--diagonals' gives."""
    parser = GeometryFlagParser(add_help=False, prog="geometry")
    add_geometry_flags(parser)
    try:
        return parser.parse_args(shlex.split(flags))
    except ValueError as error:  # shlex: unbalanced quotes
        raise GridError(f"bad geometry flags {flags!r}: {error}") from None


def _given(value: object) -> bool:
    """Return True for a flag's value that the command line set (`--symbols ''` too)."""
    return value is not None and value is not False


def flags_given(args: argparse.Namespace) -> bool:
    """Return True when any geometry flag was given on the command line."""
    return any(_given(getattr(args, name, None)) for name in GEOMETRY_FLAGS)


def command_line_flags(args: argparse.Namespace) -> str:
    """Return the geometry flags of `args` written back as a command-line string."""
    parts = []
    for name in GEOMETRY_FLAGS:
        value = getattr(args, name, None)
        flag = "--" + name.replace("_", "-")
        if value is True:
            parts.append(flag)
        elif _given(value):
            parts.append(f"{flag} {shlex.quote(str(value))}")
    return " ".join(parts)


def positive(kind, zero: bool = False):
    """Return an argparse type: a number of `kind` above 0 (or at least 0 if `zero`)."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be {'>= 0' if zero else '> 0'}, not {text}")
        return value

    return parse


def command_line(text: str) -> str:
    """argparse type of a solver command: non-empty, and split the way a shell would."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"cannot split {text!r}: {error}") from None
    if not words or words[0] in ("{cnf}", "{out}"):
        raise argparse.ArgumentTypeError(f"{text!r} names no program")
    return text


def reader_left() -> int:
    """Handle a BrokenPipeError of a front end: the reader of stdout went away (`... |
    head`), which is no error of ours and needs no message.  Point stdout at /dev/null so
    that the interpreter's final flush does not raise again (the recipe of Python's
    signal documentation); return the exit status, 0."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


@dataclass
class Warnings:
    """The warnings of the running command: each one line `PROG: FILE:LINE: warning:
    problem` on stderr, printed once per key (a jigsaw map read for many grids warns
    once)."""

    prog: str = "sudoku-sat"
    keys: set[str] = field(default_factory=set)

    def warn(self, problem: str, where: tuple[str, int | None], key: str) -> None:
        if key not in self.keys:
            self.keys.add(key)
            print(f"{self.prog}: {GridError(f'warning: {problem}', *where)}", file=sys.stderr)


WARNINGS = Warnings()  # run_front_end starts it afresh for each command


def run_front_end(
    prog: str, action: Callable[[], int], errors: tuple[type[Exception], ...] = ()
) -> int:
    """Run a command's `action` and return its exit status; the one error handler of
    every front end: bad input (InputError, a public set not here, and `errors`) is one
    line `prog: FILE:LINE: problem` and status 1, Ctrl-C one line and status 130, a
    reader that leaves early (`| head`) status 0 and no message.  Never a traceback.
    Warnings (`WARNINGS`) are printed under `prog`, each once."""
    WARNINGS.prog = prog
    WARNINGS.keys.clear()
    try:
        return action()
    except (InputError, PuzzleSetError, *errors) as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return reader_left()


def write_output(text: str, path: str | None) -> None:
    """Write to `path` (through `encoder.output_files`: no half-written file) or to
    stdout."""
    write_with(lambda handle: handle.write(text), path)


def write_with(writer: Callable[[IO[str]], object], path: str | None) -> None:
    """Call `writer(handle)` on stdout, or on `path` through `encoder.output_files` (a
    temporary file renamed into place; a device such as /dev/stdout written in place): a
    big formula is streamed, never held."""
    if path is None:
        writer(sys.stdout)
        return
    write_file(path, writer)


@dataclass(frozen=True)
class Puzzle:
    """A grid ready to encode: its geometry, values, and where it was read."""

    geometry: Geometry
    grid: tuple[int, ...]
    source: str  # 'FILE:LINE'

    def _repr_svg_(self) -> str:
        """The grid's picture, shown by notebooks."""
        from encoder.picture import grid_svg

        return grid_svg(self.geometry, self.grid)


def _parse_box(spec: str) -> tuple[int, int]:
    try:
        h, w = (int(part) for part in spec.lower().split("x"))
    except ValueError:
        raise GridError(f"--box {spec!r}: expected RxC such as 3x3 or 2x3") from None
    if h < 1 or w < 1:
        raise GridError(f"--box {spec!r}: box sides must be positive")
    return h, w


def _regions_map(spec: str) -> tuple[str, tuple[str, int | None]]:
    """Return the text of a --regions map (a file, or the map itself) and where its
    problems are: the file, or the option."""
    if os.path.exists(spec):
        try:
            text = read_text(spec, GridError)
        except GridError as error:
            message = f"--regions: cannot read the map: {error.message}"
            raise GridError(message, spec, error.line) from None
        lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        return "".join(ln for ln in lines if ln), (spec, None)
    if looks_like_path(spec):
        raise GridError("--regions: no such file", spec)
    return spec, ("--regions", None)


def _alphabet(spec: str, n: int) -> str:
    """Return the symbols a --symbols SPEC names for a grid of side n."""
    symbols = expand_symbols(spec)
    if len(symbols) != n:
        raise GridError(
            f"--symbols {spec!r} names {len(symbols)} symbols; a {n}x{n} grid needs {n}"
        )
    return symbols


def geometry_for(
    args: argparse.Namespace,
    n: int,
    regions: str | None = None,
    where: tuple[str, int | None] = ("command line", None),
) -> Geometry:
    """Return the geometry the flags describe for a grid of side n (`regions`: the map of
    a `puzzle|regions` line, which --box, --no-boxes or another --regions contradict)."""
    if args.size and args.size != n:
        raise GridError(f"grid has {n * n} cells but --size {args.size} was given", *where)
    try:
        symbols = _alphabet(args.symbols, n) if args.symbols is not None else None
    except GridError as error:
        raise error.located(*where) from None
    if regions is not None:
        flag = "--box" if args.box is not None else "--no-boxes" if args.no_boxes else None
        if (
            flag is None
            and args.regions is not None
            and _strip_map(_regions_map(args.regions)[0]) != _strip_map(regions)
        ):
            flag = "--regions"
        if flag:
            raise GridError(
                f"this line gives its own jigsaw map (puzzle|regions), which {flag} "
                "contradicts: drop the option or the map",
                *where,
            )
    jigsaw, map_text, map_at = None, "", where
    if regions is not None or args.regions is not None:
        map_text, map_at = (regions, where) if regions is not None else _regions_map(args.regions)
        jigsaw = region_ids(map_text, n, *map_at)
    try:
        box = _parse_box(args.box) if args.box is not None else None
        geometry = make_geometry(
            n,
            box=box,
            diagonals=args.diagonals,
            windows=args.windows,
            jigsaw=jigsaw,
            boxes=not args.no_boxes,
            symbols=symbols,
        )
    except GridError as error:
        raise error.located(*where) from None
    if jigsaw is not None:
        _warn_disconnected(geometry, jigsaw, map_text, map_at)
    return geometry


def _warn_disconnected(
    geometry: Geometry, jigsaw: tuple[int, ...], map_text: str, where: tuple[str, int | None]
) -> None:
    """Warn, once per map, about jigsaw regions that are not orthogonally connected: such
    a map still defines a valid formula, but is most likely a typing mistake."""
    found = disconnected_regions(geometry)
    if found:
        ids = sorted(set(jigsaw))  # region b of the geometry is the b-th id (a code point)
        listed = "; ".join(
            f"region {chr(ids[region.index])!r} is not connected "
            f"({count} separate pieces of its {len(region.cells)} cells)"
            for region, count in found
        )
        WARNINGS.warn(f"{listed}; read as given", where, _strip_map(map_text))


def _strip_map(text: str) -> str:
    return "".join(text.split())


def named_set(source: str) -> PuzzleSet | None:
    """Return the catalogued public set a GRID or DATASET argument names (`top95`), or
    None for a file, a grid or `-`: an existing file of that name wins."""
    if source == "-" or os.path.exists(source):
        return None
    return lookup(source)


def resolve_named_set(
    source: str, args: argparse.Namespace
) -> tuple[str, argparse.Namespace, PuzzleSet | None]:
    """Return (path, flags, entry) for a GRID argument: a catalogue name becomes the path
    of its verified local copy, with the set's geometry flags when the command line gave
    none; anything else comes back unchanged, with entry None.  Nothing is downloaded:
    a set not on this machine is a GridError naming the fetch command."""
    entry = named_set(source)
    if entry is None:
        return source, args, None
    if not entry.one_variant:
        raise GridError(
            "its rows have several layouts (see its other columns): it cannot be read as "
            f"one set; open {entry.file} and take the rows one at a time",
            entry.name,
        )
    try:
        path = locate(entry.name)
    except PuzzleSetError as error:
        raise GridError(error.message, entry.name) from None
    if entry.flags and not flags_given(args):
        args = argparse.Namespace(**{**vars(args), **vars(flags_namespace(entry.flags))})
    return str(path), args, entry


def read_puzzle_texts(
    source: str, args: argparse.Namespace
) -> tuple[list[PuzzleText], argparse.Namespace]:
    """Return the puzzle texts of a GRID argument and the flags to read them with (those
    of the command line, or a catalogued set's own)."""
    source, args, _ = resolve_named_set(source, args)
    if source != "-" and is_table(source) and os.path.isfile(source):
        return read_texts(source, None, args.size), args
    text, name = read_source(source)
    return split_puzzles(text, name, args.size), args


def to_puzzle(text: PuzzleText, args: argparse.Namespace, allow_conflicts: bool = False) -> Puzzle:
    """Parse one puzzle text under the flags; refuse clashing givens unless allowed."""
    where = (text.path, text.line)
    n = args.size or size_of_puzzle(text)
    geometry = geometry_for(args, n, text.regions, where)
    grid = parse_cells(text.cells, geometry, *where)
    if not allow_conflicts:
        clashes = find_clashes(grid, geometry)
        if clashes:
            detail = describe_clash(clashes[0], geometry)
            more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
            raise GridError(f"{detail}{more}; --allow-conflicts encodes it anyway (UNSAT)", *where)
    return Puzzle(geometry, grid, f"{text.path}:{text.line}")


def select(texts: list[PuzzleText], indices: Sequence[int] | None) -> list[PuzzleText]:
    """Return the puzzle texts at `indices` (all when None), checking the range."""
    if indices is None:
        return texts
    for index in indices:
        if not 0 <= index < len(texts):
            raise GridError(
                f"--index {index} out of range: {len(texts)} puzzles (0..{len(texts) - 1})",
                texts[0].path,
            )
    return [texts[index] for index in indices]


def load_puzzles(
    source: str,
    args: argparse.Namespace,
    allow_conflicts: bool = False,
    indices: Sequence[int] | None = None,
) -> list[Puzzle]:
    """Return the puzzles of a GRID argument (all, or those at `indices`)."""
    texts, args = read_puzzle_texts(source, args)
    return [to_puzzle(t, args, allow_conflicts) for t in select(texts, indices)]


STREAM_LINES = 1 << 16  # lines of a file of grids read at a time by iter_puzzles


def iter_puzzles(
    source: str, args: argparse.Namespace, allow_conflicts: bool = False
) -> Iterator[Puzzle]:
    """Yield the puzzles of a GRID argument, as `load_puzzles` returns them, reading a file
    STREAM_LINES lines at a time so that memory stays flat however long the file is.

    A problem is raised when its block is read: in a file of more than STREAM_LINES
    lines, after the puzzles of the blocks before it.  A table, stdin or a grid given on
    the command line is read whole."""
    path, flags, _ = resolve_named_set(source, args)
    if path == "-" or is_table(path) or not os.path.isfile(path):
        yield from load_puzzles(source, args, allow_conflicts)
        return
    seen = False
    done = 0  # lines of the file read before the block
    with open(path, encoding="utf-8-sig") as handle:
        while True:
            try:
                lines = list(itertools.islice(handle, STREAM_LINES))
            except (OSError, UnicodeDecodeError):
                read_text(path, GridError)  # raises the problem worded as for every file
                raise
            if not lines:
                break
            if any(line.split("#", 1)[0].strip() for line in lines):
                seen = True
                try:
                    texts = split_puzzles("".join(lines), path, flags.size)
                except GridError as error:
                    line = error.line + done if error.line is not None else None
                    raise GridError(error.message, error.path, line) from None
                for text in texts:
                    yield to_puzzle(replace(text, line=text.line + done), flags, allow_conflicts)
            done += len(lines)
    if not seen:
        raise GridError("no grid found (only blank lines or comments)", path)


def load_one_puzzle(
    source: str,
    args: argparse.Namespace,
    index: int | None,
    allow_conflicts: bool = False,
    many_hint: str = "",
) -> Puzzle:
    """Return the one puzzle a GRID argument names; a file of several needs `index`."""
    texts, args = read_puzzle_texts(source, args)  # read once: `source` may be stdin
    if len(texts) > 1 and index is None:
        raise GridError(
            f"{len(texts)} puzzles in this file: choose one with --index N "
            f"(0..{len(texts) - 1}){many_hint}",
            texts[0].path,
        )
    [text] = select(texts, None if index is None else [index])
    return to_puzzle(text, args, allow_conflicts)
