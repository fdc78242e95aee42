"""Where and with what a run was made: the machine, Python and the packages' versions,
the git commit (and whether the work tree was modified), the date, and the run's own
options.  Every record a benchmark writes carries it, so that two runs can be compared
later (`benchmarks run`'s results.json, `benchmarks speed`'s record, docs/encodings.md).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import subprocess

from benchmarks.paths import PROJECT, cpu_model

PACKAGES = (
    "sudoku-sat",
    "python-sat",
    "numpy",
    "tabulate",
    "tqdm",
    "matplotlib",
    "dask",
    "distributed",
)


def _git(*args: str) -> str:
    try:
        run = subprocess.run(
            ["git", *args], cwd=PROJECT, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return run.stdout.strip() if run.returncode == 0 else ""


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def metadata(**run: object) -> dict:
    """Return the run's metadata: machine, software, commit, and the run's own options."""
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "packages": package_versions(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "git_commit": commit or "unknown",
        "git_dirty": dirty,
        **run,
    }
