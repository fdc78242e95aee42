"""The project's source code as one SHA-256 digest: what tells two checkouts apart.

A Dask worker whose sources differ from the command's would give other figures
silently (`executors.dask_cluster` refuses it), and a run journal written by other
code cannot be finished by this one (`benchmarks.journal` refuses it).  The digest
covers every `.py` file of the project's packages, by relative path and contents.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

PACKAGES = (
    "puzzlesets",
    "executors",
    "encoder",
    "solvers",
    "puzzles",
    "benchmarks",
)  # code a task may run


def source_digest() -> str:
    """Return the SHA-256 of the project's source files on this machine."""
    digest = hashlib.sha256()
    for package in PACKAGES:
        folder = Path(importlib.import_module(package).__file__).parent
        for path in sorted(folder.rglob("*.py")):
            digest.update(f"{package}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
