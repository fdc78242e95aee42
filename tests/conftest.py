"""What every test package shares: public puzzle sets by catalogue name, or a skip.

Public sets (`top95`, `royle17`, ...) are not part of the project; a test asks for one
with `public_set(name)` (a path) or `public_puzzles(name, limit)` (its puzzle lines),
called inside the test, never at import time.  When the set is neither cached nor in a
local mirror (`puzzlesets.locate`), the test is skipped with a reason starting with
`MISSING`, and the run ends with one line counting those skips, so a suite run on a
fresh clone says plainly how much it could not check.

Which tests depend on the public sets is recorded: every look at the cache or the mirror
(puzzlesets.store, in this process or a command a test runs) appends a line to
$SUDOKU_SAT_LOOKUP_LOG, and a test during which that file grew (its fixtures included)
is listed in pytest's cache under PUBLIC_SET_TESTS (with pytest-xdist, each worker keeps
a log of its own and hands its list to the controller, which writes the cache).
.ci/run reruns exactly those with the sets hidden: a test that quietly needs them fails
there, and the others, which never looked, cannot behave differently.  A module- or
session-scoped fixture that looks is listed with the first test that set it up: rerun
alone, that test sets it up again, and the fixture's look is checked there.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from puzzle_lines import puzzle_lines

from puzzlesets import PuzzleSetError, locate
from solvers.ratings.per_geometry import forget_kept

MISSING = "public puzzle set not available:"
PUBLIC_SET_TESTS = "sudoku-sat/public-set-tests"  # pytest cache key: the tests that looked
_LOOKED = pytest.StashKey[set]()  # this session's tests that looked
_OWN_LOG = pytest.StashKey[str]()  # the lookup log this session made (and removes)


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


def _xdist_worker(config) -> bool:
    """Whether this session is one of pytest-xdist's workers (`-n`)."""
    return hasattr(config, "workerinput")


def pytest_configure(config):
    if not _xdist_worker(config):
        # Nearly every test imports the native core: unbuilt (a clone before `pip install
        # -e .`), the run is one line saying how to build it, not an error per module.
        try:
            import solvers.core  # noqa: F401
        except ImportError as error:
            pytest.exit(f"sudoku-sat: {error}", returncode=pytest.ExitCode.USAGE_ERROR)
    config.stash[_LOOKED] = set()
    # A worker keeps a log of its own: growth of a log two workers share could be the
    # other's test.  What it saw goes to the controller as the worker ends.
    if _xdist_worker(config) or not os.environ.get("SUDOKU_SAT_LOOKUP_LOG"):
        handle, path = tempfile.mkstemp(prefix="sudoku-sat-lookups-", suffix=".log")
        os.close(handle)
        os.environ["SUDOKU_SAT_LOOKUP_LOG"] = path
        config.stash[_OWN_LOG] = path


def _log_size() -> int:
    try:
        return os.path.getsize(os.environ["SUDOKU_SAT_LOOKUP_LOG"])
    except (KeyError, OSError):
        return 0


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _log_size()
    yield
    if _log_size() != before:
        item.config.stash[_LOOKED].add(item.nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: a worker has ended; keep the tests it saw look."""
    looked = getattr(node, "workeroutput", {}).get(PUBLIC_SET_TESTS, [])
    node.config.stash[_LOOKED].update(looked)


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if _xdist_worker(config):
        config.workeroutput[PUBLIC_SET_TESTS] = sorted(config.stash[_LOOKED])
    else:
        cache = getattr(config, "cache", None)
        if cache is not None:
            cache.set(PUBLIC_SET_TESTS, sorted(config.stash[_LOOKED]))
    own = config.stash.get(_OWN_LOG, None)
    if own:
        os.environ.pop("SUDOKU_SAT_LOOKUP_LOG", None)
        os.unlink(own)
