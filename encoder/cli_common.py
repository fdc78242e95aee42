"""The command line's shared pieces that are the encoder's: the geometry flags, reading a
GRID argument, and the one error handler of every front end.

This is the module of argparse helpers every front end shares (each package's
`__main__.py` and the command modules: `benchmarks/run.py`, `puzzles/generate.py`, ...);
the library beneath them takes typed values (`encoder.variant.Variant`,
`encoder.geometry.Geometry`, small option records) and never sees a Namespace
(tests/test_layers.py keeps it so).  `add_geometry_flags` declares the variant options
(--size, --box, --diagonals, --windows, --regions, --no-boxes, --symbols) and
`variant_of` turns them into a `Variant`; `one_puzzle` and `all_puzzles` read a GRID
argument through `encoder.puzzle_files.read_puzzles` and word the --index choices;
`run_front_end` turns bad input into one line `prog: FILE:LINE: problem` and prints the
library's warnings.  `Parser` is every front end's argparse parser: a value an option's
type refuses (a budget of 0, a time limit of nan) is one line, exit 2.  The flags of the
commands that run chunks (executor, Dask, budgets, numeric bounds) are `cli.flags`.
"""

from __future__ import annotations

import _thread
import argparse
import contextlib
import sys
import threading
import warnings
from collections.abc import Callable
from typing import IO

from encoder.errors import GridError, InputError
from encoder.geometry import MAX_SIZE
from encoder.output_files import checked_stdout, is_output_fault, output_lost, write_file
from encoder.puzzle_files import ClashError, Puzzle, open_source
from encoder.variant import GridWarning, Variant
from puzzlesets import PuzzleSetError

GEOMETRY_FLAGS = ("size", "box", "diagonals", "windows", "regions", "no_boxes", "symbols")


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a value that an option refused is said in one line
    (`prog: error: argument --budget: ...`, exit 2): the message names the option and the
    value, and a screen of usage would bury it.  A command line of the wrong shape (an
    unknown option, a missing argument, options that exclude each other) keeps argparse's
    usage, which is then the help wanted.  Subcommands' parsers are of this class too
    (argparse makes them of the parent's class)."""

    def error(self, message: str):
        # argparse calls error() inside its `except ArgumentError`; a refusal by the
        # option's type raised inside the conversion, so it is the ArgumentError's context
        failed = sys.exc_info()[1]
        if isinstance(failed, argparse.ArgumentError) and (
            isinstance(failed.__context__, (argparse.ArgumentTypeError, TypeError, ValueError))
            or failed.message.startswith("invalid choice")
        ):
            self.exit(2, f"{self.prog}: error: {message}\n")
        super().error(message)


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


def variant_of(args: argparse.Namespace) -> Variant:
    """Return the variant the geometry flags of the command line give."""
    return Variant(**{name: getattr(args, name) for name in GEOMETRY_FLAGS})


def one_puzzle(
    source: str,
    args: argparse.Namespace,
    index: int | None,
    allow_conflicts: bool = False,
    many_hint: str = "",
) -> Puzzle:
    """Return the one puzzle a GRID argument names; a file of several needs `index`."""
    opened = open_source(source, variant_of(args))
    texts = list(opened.texts())  # read once: `source` may be stdin
    if index is None and len(texts) > 1:
        raise GridError(
            f"{len(texts)} puzzles in this file: choose one with --index N "
            f"(0..{len(texts) - 1}){many_hint}",
            texts[0].path,
        )
    if not texts:
        raise GridError("no grid found (only a header)", opened.path)
    at = 0 if index is None else index
    if not 0 <= at < len(texts):
        raise GridError(
            f"--index {at} out of range: {len(texts)} puzzles (0..{len(texts) - 1})",
            texts[0].path,
        )
    return _conflict_hint(lambda: opened.puzzle(texts[at], allow_conflicts))


def all_puzzles(
    source: str, args: argparse.Namespace, allow_conflicts: bool = False
) -> list[Puzzle]:
    """Return every puzzle of a GRID argument."""
    opened = open_source(source, variant_of(args))
    return _conflict_hint(lambda: list(opened.puzzles(allow_conflicts)))


def _conflict_hint(read: Callable):
    """Call `read`; clashing givens say how to encode them anyway."""
    try:
        return read()
    except ClashError as error:
        message = f"{error.message}; --allow-conflicts encodes it anyway (UNSAT)"
        raise ClashError(message, error.path, error.line) from None


def run_front_end(
    prog: str, action: Callable[[], int], errors: tuple[type[Exception], ...] = ()
) -> int:
    """Run a command's `action` and return its exit status; the one error handler of
    every front end: bad input (InputError, a public set not here, and `errors`) is one
    line `prog: FILE:LINE: problem` and status 1, Ctrl-C one line and status 130, a
    reader that leaves early (`| head`) status 0 and no message, a full disk or a file-size
    limit on stdout one line saying where the output stops and status 1
    (`encoder.output_files.output_lost`).  Never a traceback.
    The library's warnings (`GridWarning`) are printed under `prog`, each once."""
    said: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if isinstance(message, GridWarning):
            if message.key not in said:
                said.add(message.key)
                print(f"{prog}: {message}", file=sys.stderr)
        else:
            print(warnings.formatwarning(message, category, filename, lineno, line), end="",
                  file=sys.stderr)  # fmt: skip

    with warnings.catch_warnings():
        warnings.simplefilter("always", GridWarning)
        warnings.showwarning = show
        hook, sys.unraisablehook = sys.unraisablehook, _pass_interrupts_on
        stdout = sys.stdout
        if stdout is sys.__stdout__:
            sys.stdout = checked_stdout(stdout)
        try:
            status = action()
            sys.stdout.flush()  # what is still buffered fails here, while it can be said
            return status
        except (InputError, PuzzleSetError, *errors) as error:
            print(f"{prog}: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print(f"{prog}: interrupted", file=sys.stderr)
            return 130
        except OSError as error:
            if not is_output_fault(error):
                raise
            return output_lost(prog, error)
        finally:
            sys.unraisablehook = hook
            if sys.stdout is not stdout:
                # an error already said ends the command: what it printed before is
                # flushed here, and a failing flush adds nothing to that error's line
                with contextlib.suppress(OSError, ValueError):
                    sys.stdout.flush()
                sys.stdout = stdout


def _pass_interrupts_on(unraisable, _default=sys.unraisablehook) -> None:
    """A Ctrl-C that lands in a finalizer (`__del__`, say a compiler's object freed while
    a kernel loads) cannot propagate: Python would print "Exception ignored" with its
    traceback and run on as if no key were pressed.  Press it again a moment later, once
    this hook has returned (raised from inside the hook it would be lost the same way),
    so that run_front_end's handler ends the command with one line and status 130."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        threading.Timer(0.01, _thread.interrupt_main).start()
    else:
        _default(unraisable)


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
