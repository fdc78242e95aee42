"""A command's results written so that no fault loses them: files renamed into place,
standard output that may close early, and what was finished before Ctrl-C.

Every file a command writes (`generate -o`, `run --out`, `stats --out`) goes to a
temporary file in the same folder, renamed over the target once complete: a full disk
or Ctrl-C leaves the previous file or none, never half a results.json.  A target that
exists and is not a regular file (`/dev/null`, `/dev/full`, a named pipe) is written in
place, as a shell redirection would.  Each failure is an `OutputError` (an InputError:
the front ends print it as one line `prog: PATH: problem`, exit 1).

The commands print their tables before they write their files, and a reader closing
standard output early (`| head`) stops the printing, never the files (`print_out`).
`Interrupted` is the KeyboardInterrupt that carries what was finished before it, and
`interrupts()` turns the ways compiled code reports Ctrl-C into KeyboardInterrupt.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from encoder.cli_common import reader_left
from encoder.errors import InputError
from solvers.limits import pysat_interrupts


class OutputError(InputError):
    """A file or folder the command cannot write: one line `PATH: problem`."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with the work finished before it (`kept`)."""

    def __init__(self, kept: Any):
        super().__init__()
        self.kept = kept


@contextlib.contextmanager
def interrupts() -> Iterator[None]:
    """Turn every way compiled code reports Ctrl-C into KeyboardInterrupt: PySAT's own
    error (`solvers.limits.pysat_interrupts`), and the SystemError a numba call returns
    when Ctrl-C lands while it runs Python code of its own ("returned a result with an
    exception set", the KeyboardInterrupt as its context)."""
    try:
        with pysat_interrupts():
            yield
    except SystemError as error:
        cause = error.__cause__ or error.__context__
        while cause is not None and not isinstance(cause, KeyboardInterrupt):
            cause = cause.__cause__ or cause.__context__
        if cause is None:
            raise
        raise KeyboardInterrupt from None


def reason(error: OSError) -> str:
    """Return the system's reason for a failed write, in words."""
    if isinstance(error, FileExistsError | NotADirectoryError):
        return "a file is in the way of a folder"
    return error.strerror or str(error)


def check_folder(folder: str) -> None:
    """Create `folder` if needed and make sure a file can be created in it, so that a
    long run learns at once, not at the end, that it cannot keep its results."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise OutputError("not a folder", folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create the output folder: {reason(error)}", folder) from None
    try:
        _probe(folder)
    except OSError as error:
        raise OutputError(f"cannot write in this folder: {reason(error)}", folder) from None


def _probe(folder: str) -> None:
    """Create and remove a file in `folder`; raise OSError when it cannot be done."""
    probe = os.path.join(folder, f".sudoku-sat-probe.{os.getpid()}")
    os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.unlink(probe)


def check_file(path: str) -> None:
    """Make sure `path` can be written (its folder exists and takes new files), before the
    work that fills it."""
    if os.path.isdir(path):
        raise OutputError("cannot write: it is a folder", path)
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        return  # a device or a pipe: written in place
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise OutputError("cannot write: its folder does not exist", path)
    try:
        _probe(folder)
    except OSError as error:
        raise OutputError(f"cannot write: {reason(error)}", path) from None


def write_file(path: str | os.PathLike, write: Callable[[IO], object], binary: bool = False):
    """Write a file through `write(handle)`: into a temporary file beside it, renamed over
    `path` when complete (see the module docstring).  Raise OutputError on failure."""
    path = os.fspath(path)
    mode = "wb" if binary else "w"
    text = {} if binary else {"encoding": "utf-8", "newline": ""}
    try:
        if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
            if os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, "it is a folder")
            with open(path, mode, **text) as handle:
                write(handle)
            return
        target = os.path.realpath(path)  # a symbolic link keeps pointing at the file
        folder, name = os.path.split(target)
        temporary = os.path.join(folder, f".{name}.{os.getpid()}.part")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            with open(descriptor, mode, **text) as handle:
                write(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
    except OSError as error:
        raise OutputError(f"cannot write: {reason(error)}", path) from None


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write `text` to `path` as `write_file` does."""
    write_file(path, lambda handle: handle.write(text))


def write_png(figure, path: str | os.PathLike, dpi: int) -> None:
    """Write a matplotlib figure as a PNG, as `write_file` does, and close the figure."""
    try:
        write_file(path, lambda handle: figure.savefig(handle, format="png", dpi=dpi), True)
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)


def print_out(text: str) -> bool:
    """Print `text` on standard output; return False when its reader has gone (`| head`):
    standard output then goes to /dev/null and the command carries on with its files."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left()
        return False
    return True
