"""Where the project's own data lives (`data/`), and a one-line description of the
machine for reports.  Public puzzle sets are found by name through `puzzlesets`.

The project's own puzzle sets (`data/sets/` in the checkout) are the harness's default
work, so they ship with the package: an installed copy (`pip install .`) holds them as
package data in `benchmarks/sets/` (pyproject.toml maps the folder there), and `SETS`
names that folder when it exists, the checkout's otherwise."""

from __future__ import annotations

import os
import platform
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
DATA = PROJECT / "data"
_PACKAGED = Path(__file__).resolve().parent / "sets"  # data/sets, installed as package data
SETS = _PACKAGED if _PACKAGED.is_dir() else DATA / "sets"


def cpu_model() -> str:
    """Return the CPU's model name (from /proc/cpuinfo on Linux)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """Return a one-line description of this machine (CPU model, cores, Python)."""
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def load() -> str:
    """Return the machine's 1, 5 and 15-minute load averages, as timings are read with."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
