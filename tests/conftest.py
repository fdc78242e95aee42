"""What every test package shares: public puzzle sets by catalogue name, or a skip.

Public sets (`top95`, `royle17`, ...) are not part of the project; a test asks for one
with `public_set(name)` (a path) or `public_puzzles(name, limit)` (its puzzle lines),
called inside the test, never at import time.  When the set is neither cached nor in a
local mirror (`puzzlesets.locate`), the test is skipped with a reason starting with
`MISSING`, and the run ends with one line counting those skips, so a suite run on a
fresh clone says plainly how much it could not check.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from puzzle_lines import puzzle_lines

from puzzlesets import PuzzleSetError, locate
from solvers.per_geometry import forget_kept

MISSING = "public puzzle set not available:"


def public_set(name: str) -> Path:
    """Return the path of the public set `name`, or skip the calling test."""
    try:
        return locate(name)
    except PuzzleSetError as error:
        pytest.skip(f"{MISSING} {error}")


def public_puzzles(name: str, limit: int | None = None) -> list[str]:
    """Return the first `limit` puzzle lines of a public set of one grid a line (comments
    and blank lines skipped), or skip the calling test."""
    return puzzle_lines(public_set(name), limit)


@pytest.fixture(scope="session")
def public():
    """The helpers as a fixture: `public.set(name)`, `public.puzzles(name, limit)`."""

    class Public:
        set = staticmethod(public_set)
        puzzles = staticmethod(public_puzzles)

    return Public


@pytest.fixture(autouse=True)
def _nothing_kept_between_tests():
    """Each test starts with no backend kept by its thread (`kept_by_worker`): a test
    that replaced `make_backend` must not serve its fake to the next."""
    yield
    forget_kept()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = terminalreporter.stats.get("skipped", [])
    names = set()
    count = 0
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if MISSING in reason:
            count += 1
            names.add(reason.split(MISSING, 1)[1].split(":", 1)[0].strip())
    if count:
        terminalreporter.write_line(
            f"{count} tests skipped for missing public puzzle sets ({', '.join(sorted(names))}); "
            "fetch them with `python -m benchmarks datasets fetch NAME`",
            yellow=True,
        )
