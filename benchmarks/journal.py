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
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path

from encoder.errors import InputError

FILE = "journal.sqlite"
SCHEMA = "sudoku-sat/run-journal/1"


class JournalError(InputError):
    """A journal that cannot serve this run: printed as one line, exit status 1."""


def _label(key: str) -> str:
    return key.replace("_", " ")


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
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS chunks (task INTEGER PRIMARY KEY, result BLOB)"
            )
            found = dict(self.db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as error:
            raise JournalError(f"not a run journal ({error})", str(self.path)) from None
        wanted = {"schema": SCHEMA, "identity": json.dumps(identity, sort_keys=True)}
        if not found:
            with self.db:
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())
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
            raise JournalError(f"cannot commit a chunk ({error})", str(self.path)) from None

    def chunks(self) -> Iterator:
        """Yield the committed chunks in run order (task index), one at a time."""
        cursor = self.db.execute("SELECT result FROM chunks ORDER BY task")
        for (payload,) in cursor:
            yield pickle.loads(zlib.decompress(payload))

    def close(self) -> None:
        self.db.close()

    def remove(self) -> None:
        """Close and delete the journal (a run complete, its outputs written)."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
