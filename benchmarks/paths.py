"""Where the data lives: the project's own `data/` and the shared public sets beside it."""

from __future__ import annotations

import os
import platform
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
DATA = PROJECT / "data"
# Public puzzle sets written by others sit beside the checkout (never copied into it).
SHARED_DATA = Path(os.environ.get("SUDOKU_SAT_SHARED_DATA", PROJECT.parent / "shared" / "data"))


def shared(name: str) -> Path:
    """Return the path of a shared puzzle set such as 'norvig_top95.txt'."""
    return SHARED_DATA / name


def machine() -> str:
    """Return a one-line description of this machine (CPU model, cores, Python)."""
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"
