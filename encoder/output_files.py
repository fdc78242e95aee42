"""Files written so that no fault loses them: each goes to a temporary file in its
folder, renamed over the target once complete, so a full disk or Ctrl-C leaves the
previous file or none, never half of one.  A target that exists and is not a regular
file (`/dev/stdout`, `/dev/null`, `/dev/full`, a named pipe) is written in place, as a
shell redirection would, and a symbolic link keeps pointing at the file it names.  Every
failure is an `OutputError`: the front ends print it as one line `prog: PATH: problem`
and exit 1.  `check_folder` and `check_file` tell before a long run that its results
could not be kept.

This is the one home of atomic writing: the encoder's `-o`, the commands' `--out` and
`generate -o` all come here.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Callable
from typing import IO

from encoder.errors import InputError


class OutputError(InputError):
    """A file or folder the command cannot write: one line `PATH: problem`."""


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


def reader_left() -> int:
    """Handle a BrokenPipeError of a front end: the reader of stdout went away (`... |
    head`), which is no error of ours and needs no message.  Point stdout at /dev/null so
    that the interpreter's final flush does not raise again; return the exit status, 0."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


class _WholeWrites(io.RawIOBase):
    """A file descriptor's raw writer that writes every byte it is given or raises.  A
    write cut short by a file-size limit returns the part written, and Python's buffered
    writer drops the rest without a word; writing on makes the system say why (EFBIG,
    ENOSPC)."""

    def __init__(self, descriptor: int):
        super().__init__()
        self._descriptor = descriptor

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._descriptor

    def isatty(self) -> bool:
        return os.isatty(self._descriptor)

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            written = os.write(self._descriptor, view[done:])
            if written == 0:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            done += written
        return done


def checked_stdout(stream):
    """Return a text stream on `stream`'s descriptor with its encoding and buffering,
    whose every write reaches the file or raises (`_WholeWrites`); `stream` itself when it
    has no descriptor (a test's StringIO)."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return stream
    return io.TextIOWrapper(
        io.BufferedWriter(_WholeWrites(descriptor)),
        encoding=stream.encoding,
        errors=stream.errors,
        newline="\n" if os.linesep == "\n" else None,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )


def output_lost(prog: str, error: OSError) -> int:
    """Handle a failed write to stdout of a front end and return its exit status.  A
    reader that went away (`... | head`, a BrokenPipeError) is no error of ours: no
    message, status 0.  A full disk or a file-size limit (ENOSPC, EFBIG, EDQUOT, EIO) cut
    the output short: one line `prog: stdout: cannot write: REASON; the output stops after
    N bytes` (N when stdout is a file), status 1.  Either way stdout is pointed at
    /dev/null, so that the interpreter's final flush of what is still buffered neither
    raises again nor prints "Exception ignored" (the recipe of Python's signal
    documentation)."""
    if isinstance(error, BrokenPipeError):
        return reader_left()
    kept = _position(sys.stdout)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    after = "" if kept is None else f"; the output stops after {kept} bytes"
    print(f"{prog}: stdout: cannot write: {reason(error)}{after}", file=sys.stderr)
    return 1


def is_output_fault(error: OSError) -> bool:
    """Tell whether `error` is a write that no retry mends: a closed pipe, a full disk, a
    file-size limit or quota, a device that failed."""
    return isinstance(error, BrokenPipeError) or error.errno in _OUTPUT_FAULTS


_OUTPUT_FAULTS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}


def _position(stream) -> int | None:
    """Return how many bytes of `stream` reached its file, when that is a regular file."""
    try:
        descriptor = stream.fileno()
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        return os.lseek(descriptor, 0, os.SEEK_CUR)
    except (OSError, ValueError, AttributeError):
        return None
