"""The journal of `benchmarks run --out DIR`: every finished chunk is committed to
DIR/journal.sqlite before it counts, so that a run cut short (Ctrl-C, `kill -9`, a
full disk, a lost worker or scheduler, a reboot) is finished by `--resume`, which runs
only the chunks the journal lacks.  The outputs are then made from the journal, chunk
by chunk in run order, whether the run was resumed or not: results.json and
results.csv of a resumed run are those of a run never interrupted (times and metadata
apart).

Why SQLite in WAL mode rather than a file appended to and fsynced:
- a commit is atomic: a process killed in the middle of writing a chunk, or a disk
  that fills up, leaves the journal as it was before that chunk (an appended file
  leaves a torn last record that the reader must detect and cut off);
- `synchronous=FULL` makes each commit durable (the WAL is fsynced), and a commit
  costs one append to the WAL, about what an append+fsync costs;
- the chunks are read back in run order by their index, whatever order they
  finished in, without holding them all in memory;
- it is in Python's standard library.

The journal starts with what it is the journal of (`identity`): the project's source
digest and every option that changes a figure (solvers, encodings, data checksums,
selection, chunk size, time limit, ratings).  `--resume` against a journal whose
identity differs is refused in one line naming the first difference; so is a new run
into a folder holding an unfinished journal (add `--resume`, or delete it).  Options
that change no figure (workers, executor, scheduler) may differ between sessions.
A complete run's outputs are written, then its journal is deleted.

`--resume` with no journal in the folder is refused: the folder is most likely
mistyped (or the run finished), and running everything again without a word would
hide it.  A journal that cannot be written for want of space is reported as a full
disk: SQLite says "database or disk is full", or "disk I/O error" when the write that
sizes WAL mode's shared-memory file fails, and the disk has less than LOW_SPACE free
(SQLite does not pass on the system's errno; with more room free, its own words are
kept).  A journal this run was creating is then removed rather than left half made (the
next run would take it for an unfinished one); one that holds chunks stays as it was
before the chunk that did not fit, for `--resume`.
"""

from __future__ import annotations

import json
import pickle
import shutil
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path

from encoder.errors import InputError

FILE = "journal.sqlite"
SCHEMA = "sudoku-sat/run-journal/1"
LOW_SPACE = 16 << 20  # bytes free under which a failed write is taken for a full disk
_FULL, _IOERR = sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR  # primary result codes


class JournalError(InputError):
    """A journal that cannot serve this run: printed as one line, exit status 1."""


def _label(key: str) -> str:
    return key.replace("_", " ")


def missing(folder: Path) -> str:
    """Return why `--resume` into `folder` has nothing to resume ("" when a journal is
    there)."""
    if (Path(folder) / FILE).exists():
        return ""
    return (
        f"no run journal ({FILE}) to resume: is it the run's folder? (a run that finished "
        "leaves none; without --resume a new run starts there)"
    )


def disk_problem(error: sqlite3.Error, folder: Path) -> str:
    """Return "the disk is full ..." when a write of the journal failed for want of
    space, else "" (see the module docstring)."""
    if getattr(error, "sqlite_errorcode", 0) & 0xFF not in (_FULL, _IOERR):
        return ""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return ""
    if free >= LOW_SPACE:
        return ""
    return f"the disk is full (No space left on device, {free:,} bytes free; SQLite: {error})"


class Journal:
    """The chunks of one run committed so far (see the module docstring)."""

    def __init__(self, folder: Path, identity: dict, resume: bool):
        self.path = Path(folder) / FILE
        existed = self.path.exists()
        if existed and not resume:
            raise JournalError(
                "the journal of an unfinished run: add --resume to finish it, or delete "
                "it to start afresh",
                str(self.path),
            )
        if resume and not existed:
            raise JournalError(missing(folder), str(folder))
        self.db = None
        wanted = {"schema": SCHEMA, "identity": json.dumps(identity, sort_keys=True)}
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS chunks (task INTEGER PRIMARY KEY, result BLOB)"
            )
            found = dict(self.db.execute("SELECT key, value FROM meta"))
            if not found:
                with self.db:
                    self.db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())
        except sqlite3.Error as error:
            full = disk_problem(error, self.path.parent)
            if not existed:  # never left half made: the next run would resume it
                self.remove()
            if full:
                problem = f"cannot write the run journal: {full}"
            elif not existed:
                problem = f"cannot create the run journal ({error})"
            else:
                problem = f"not a run journal ({error})"
            raise JournalError(problem, str(self.path)) from None
        if not found:
            self.resumed = False
            return
        if found.get("schema") != SCHEMA:
            schema = found.get("schema")
            raise JournalError(f"not a journal this code writes ({schema})", str(self.path))
        theirs = json.loads(found.get("identity", "{}"))
        for key, mine in identity.items():
            if theirs.get(key) != mine:
                raise JournalError(
                    f"written for other {_label(key)} ({_short(theirs.get(key))}; this run: "
                    f"{_short(mine)}): run without --resume into another folder, or delete it",
                    str(self.path),
                )
        self.resumed = existed

    def done(self) -> set[int]:
        """Return the indices of the tasks committed."""
        return {task for (task,) in self.db.execute("SELECT task FROM chunks")}

    def commit(self, task: int, result) -> None:
        """Commit one finished chunk (durable when this returns)."""
        payload = zlib.compress(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL), 1)
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO chunks VALUES (?, ?)", (task, payload))
        except sqlite3.Error as error:  # a full disk, a folder gone
            full = disk_problem(error, self.path.parent)
            if full:  # the journal stays as it was before the chunk: --resume finishes
                raise JournalError(
                    f"cannot commit a chunk: {full}; --resume finishes the run once there is room",
                    str(self.path),
                ) from None
            raise JournalError(f"cannot commit a chunk ({error})", str(self.path)) from None

    def chunks(self) -> Iterator:
        """Yield the committed chunks in run order (task index), one at a time."""
        cursor = self.db.execute("SELECT result FROM chunks ORDER BY task")
        for (payload,) in cursor:
            yield pickle.loads(zlib.decompress(payload))

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def remove(self) -> None:
        """Close and delete the journal (a run complete, its outputs written)."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
