"""The native core never trusts its caller: bad input raises a Python exception with a
clear message (one case each), Ctrl-C ends a long kernel within 0.5 s, and, in a slow
test, the core built with -fsanitize=address,undefined passes its tests."""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from interrupted_child import seconds_to_stop

import solvers.core as core
from encoder.geometry import standard
from solvers.core.native import build

PROJECT = Path(__file__).resolve().parents[2]
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


@pytest.fixture(scope="module")
def board():
    return core.Board(standard(9))


def raw_tables(n: int = 4):
    """The tables solvers.core.Board hands the extension for the n x n Sudoku."""
    geometry = standard(n)
    houses = np.array([r.cells for r in geometry.regions], np.int32)
    peers = np.full((n * n, max(map(len, geometry.peers))), -1, np.int32)
    for c, row in enumerate(geometry.peers):
        peers[c, : len(row)] = row
    return houses, peers


@pytest.mark.parametrize("size", [0, -3, 65, 1000])
def test_sizes_out_of_range(size):
    houses, peers = raw_tables()
    with pytest.raises(ValueError, match=r"size must be in 1\.\.64"):
        core._core.Board(size, houses, peers)


def test_every_bound_is_the_extensions_and_enforced(board):
    from solvers.core import extension

    bounds = {"MAX_DEPTH": 100, "MAX_SIDE": 64, "MAX_COUNT": 2**62, "MAX_SECONDS": 10**6}
    for name, value in bounds.items():
        assert getattr(core._core, name) == getattr(extension, name) == value
        assert getattr(core, name) == value
    houses, peers = raw_tables()
    with pytest.raises(ValueError, match=rf"size must be in 1\.\.{core.MAX_SIDE}"):
        core._core.Board(core.MAX_SIDE + 1, houses, peers)
    with pytest.raises(ValueError, match=rf"depth must be in 0\.\.{core.MAX_DEPTH}"):
        board.probe([1], core.MAX_DEPTH + 1)
    formula = core.Clauses([[1, 2], [-1, -2]], 2)
    with pytest.raises(ValueError, match=rf"depth must be in 0\.\.{core.MAX_DEPTH}"):
        formula.probe([1], core.MAX_DEPTH + 1)
    assert formula.probe([1], core.MAX_DEPTH) == (True, [1, -2])


def test_tables_out_of_range():
    houses, peers = raw_tables()
    bad = houses.copy()
    bad[2, 1] = 16
    with pytest.raises(ValueError, match="houses: cell 16"):
        core._core.Board(4, bad, peers)
    bad = peers.copy()
    bad[3, 0] = 3
    with pytest.raises(ValueError, match="peers of cell 3"):
        core._core.Board(4, houses, bad)
    with pytest.raises(ValueError, match="peers has the wrong shape"):
        core._core.Board(4, houses, peers[:5])
    with pytest.raises(ValueError, match="houses must hold int32"):
        core._core.Board(4, houses.astype(np.int64), peers)


def test_grids_of_the_wrong_type_or_shape(board):
    with pytest.raises(TypeError, match="integers"):
        board.depths(np.zeros((2, 81)), 1)
    with pytest.raises(ValueError, match="rows of 81 values"):
        board.depths(np.zeros((2, 80), np.int8), 1)
    with pytest.raises(ValueError, match="rows of 81 values"):
        board.propagate_batch(np.zeros(81, np.int8))
    with pytest.raises(ValueError, match=r"0\.\.N"):
        board.propagate_batch(np.full((1, 81), 300))


def test_values_out_of_range_are_bad_grids(board):
    grids = np.zeros((3, 81), np.int8)
    grids[1, 5] = 10
    grids[2, 7] = -1
    ok, _ = board.propagate_batch(grids)
    assert ok.tolist() == [1, -1, -1]
    assert board.depths(grids, 1).status.tolist() == [0, core.DEPTH_BAD, core.DEPTH_BAD]


def test_the_extension_checks_every_array(board):
    raw = board._board
    grids = np.zeros((2, 81), np.int8)
    ok, values = np.zeros(2, np.int8), np.zeros((2, 81), np.int8)
    with pytest.raises(ValueError, match="grids must hold int8"):
        raw.batch(grids.astype(np.int64), ok, values)
    with pytest.raises(ValueError, match="C-contiguous"):
        raw.batch(np.zeros((2, 162), np.int8)[:, ::2], ok, values)
    with pytest.raises(ValueError, match="values has the wrong shape"):
        raw.batch(grids, ok, values[:1])
    readonly = values.copy()
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        raw.batch(grids, ok, readonly)
    with pytest.raises(ValueError, match="must be a C-contiguous"):
        raw.batch([[0] * 81], ok, values)


@pytest.mark.parametrize("literal", [0, 730, -730, 2**40])
def test_literals_beyond_the_cells(board, literal):
    with pytest.raises(ValueError, match=r"no cell literal|is not in 1\.\.729"):
        board.probe([1, literal], 1)


def test_assumptions_read_from_python_objects_are_checked(board):
    clauses = core.Clauses([[1, 2], [-1, 3]])
    for probe in (board.probe, clauses.probe, board.propagate, clauses.propagate):
        with pytest.raises(TypeError):
            probe([1.5])
        with pytest.raises(TypeError, match="sequence"):
            probe(5)
        with pytest.raises(ValueError, match=str(2**70)):
            probe([1, 2**70])
        with pytest.raises(ValueError, match=str(-(2**70))):
            probe([-(2**70)])
    with pytest.raises(TypeError, match="3 arguments"):
        board._board.probe_list([])
    with pytest.raises(ValueError, match=r"depth must be in 0\.\.100, not 1000"):
        clauses._cnf.probe_list([], 1000, False)


def test_answers_from_python_objects_equal_the_array_answers(board):
    """The one-call path (lists of ints in and out, ints shared by the answers) against
    the array path, on a list, a tuple, numpy ints and more assumptions than fit on the
    extension's stack; an answer changed by its caller changes no later answer."""
    grid = [0 if ch == "." else int(ch) for ch in EASTER_MONSTER]
    givens = [9 * c + v for c, v in enumerate(grid) if v]
    _, lits = board.probe(np.array(givens), 1, as_array=True)
    for same in (givens, tuple(givens), list(np.array(givens)), givens * 20):
        assert board.probe(same, 1) == (True, lits.tolist())
    first = board.propagate(givens)[1]
    first.append(0)
    first[0] = None
    assert board.propagate(givens) == (True, board.propagate(givens, as_array=True)[1].tolist())
    assert board.propagate([1, -1]) == (False, [])
    wide = core.Clauses([[1, -2], [2, -3], [3, 4, 5]], num_vars=(1 << 22) + 1)  # no int table
    assert wide.propagate([-1]) == (True, [-1, -2, -3])
    assert wide.propagate([3] * 300) == (True, [3, 2, 1])


@pytest.mark.parametrize(("depth", "polarity"), [(-1, "both"), (101, "both"), (1, "negative")])
def test_depths_and_polarities_out_of_range(board, depth, polarity):
    with pytest.raises(ValueError, match=r"(depth|polarity) must be"):
        board.probe([], depth, polarity)
    with pytest.raises(ValueError, match=r"(depth|polarity) must be"):
        board.depths(np.zeros((1, 81), np.int8), depth, polarity)


def test_negative_budget(board):
    with pytest.raises(ValueError, match="budget"):
        board.depths(np.zeros((1, 81), np.int8), 1, budget=-1)


def test_empty_input(board):
    out = board.depths(np.zeros((0, 81), np.int8), 2)
    assert out.status.shape == (0,)
    ok, values = board.propagate_batch([])
    assert ok.shape == (0,) and values.shape == (0, 81)
    assert board.probe([], 0)[0]


INTERRUPTED = """
import sys, time
import numpy as np
import solvers.core as core
from encoder.geometry import standard
from encoder.encodings import rule_formula
board = core.Board(standard(9))
formula = rule_formula(standard(9))
clauses = core.Clauses(formula.clauses, formula.num_vars)
grid = [0 if ch == "." else int(ch) for ch in sys.argv[2]]
grids = np.array([grid] * int(sys.argv[3]), np.int8)
print("ready", flush=True)
try:
    if sys.argv[1] == "depths":
        board.depths(grids, 2)
    elif sys.argv[1] == "clauses":
        clauses.depths(grids, 2)
    else:
        board.propagate_batch(grids)
except KeyboardInterrupt:
    print(time.monotonic(), flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize(
    ("kernel", "count"), [("depths", 100_000), ("batch", 4_000_000), ("clauses", 10_000)]
)
def test_ctrl_c_ends_a_kernel_within_half_a_second(kernel, count):
    assert seconds_to_stop(INTERRUPTED, kernel, EASTER_MONSTER, str(count)) < 0.5


def sanitized_build(folder: Path) -> Path:
    """Build every extension of the core (solvers/core/native/build.py's table) from the same
    sources with ASan and UBSan into `folder`: each source compiled on its own, as many at
    once as the machine has cores, the biggest first (length.c alone takes about 50 s
    with both sanitizers: the build is most of the test's time), then each extension
    linked."""
    include = sysconfig.get_paths()["include"]
    sanitize = ["-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
                "-fno-sanitize-recover=undefined", "-fPIC"]  # fmt: skip
    includes = [f"-I{include}", *(f"-I{PROJECT / headers}" for headers in build.include_dirs())]
    compiles, links = [], []
    for name in build.EXTENSIONS:
        objects = []
        for number, source in enumerate(build.sources(name)):
            target = folder / f"{name}-{number}.o"
            compiles.append(["gcc", *build.flags(name), "-O1", *sanitize, *includes, "-c",
                             str(PROJECT / source), "-o", str(target)])  # fmt: skip
            objects.append(str(target))
        extension = folder / (name + sysconfig.get_config_var("EXT_SUFFIX"))
        links.append(["gcc", *sanitize, "-shared", *objects, "-o", str(extension)])
    compiles.sort(key=lambda command: -os.path.getsize(command[-3]))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for done in pool.map(lambda command: subprocess.run(command, check=False), compiles):
            assert done.returncode == 0, done.args
    for command in links:
        subprocess.run(command, check=True)
    return folder


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_the_core_under_address_and_undefined_behaviour_sanitizers(tmp_path):
    library = sanitized_build(tmp_path)
    asan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True)
    env = dict(os.environ, SUDOKU_SAT_CORE=str(library), LD_PRELOAD=asan.stdout.strip(),
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")  # fmt: skip
    names = (
        "test_core_board.py",
        "test_board_search.py",
        "test_core_clauses.py",
        "test_core_safety.py",
        "test_core_search.py",
        "test_core_length.py",
        "test_core_length_golden.py",
        "test_length_formula.py",
        "test_length_guard.py",
        "test_half_built.py",
        "test_clause_check.py",
        "test_lrat.py",
        "test_engine.py",
    )  # fmt: skip  (test_engine: the traces of trace.c)
    tests = [str(PROJECT / "tests" / "solvers" / name) for name in names]
    # one process (-n 0): a sanitizer's abort in a worker of several left the run waiting
    # for ever; here it ends the run, which fails at once, the report on stderr (-s: not
    # into a test's capture, which the abort loses)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-x", "-n", "0", "-p", "no:cacheprovider",
         "-m", "not slow", "-k", "not ctrl_c", *tests],
        env=env, cwd=PROJECT, capture_output=True, text=True, timeout=3000,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert " passed" in run.stdout


def test_an_assumption_whose_index_changes_the_list_is_read_safely():
    """The list is copied before its items are read: an item's __index__ that empties
    the list while the core reads it changes nothing the core holds."""
    board = core.Board(standard(9))
    literals = [1, 2, 3]

    class Sly:
        def __index__(self):
            literals.clear()
            return 10

    literals.insert(0, Sly())
    assert board.propagate(literals) == board.propagate([10, 1, 2, 3])
    assert literals == []
    with pytest.raises(TypeError, match="sequence of ints"):
        board.propagate(1.5)


SLY_TRACE = """
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_cells
import solvers.core as core

formula = rule_formula(standard(9))
clauses = core.Clauses(formula.clauses, formula.num_vars)
givens = given_literals(parse_cells(sys.argv[1], standard(9)), standard(9))
literals = [int(str(lit)) for lit in givens]  # fresh ints, which the list alone holds

class Sly:
    def __index__(self):
        literals.clear()  # frees the list's array and the ints it alone held
        junk = [str(k) * 9 for k in range(len(givens) * 8)]  # ... and reuses the memory
        return givens[0]

literals.insert(0, Sly())
print(clauses.trace(literals) == clauses.trace([givens[0], *givens]), literals == [])
"""


def test_a_trace_whose_item_empties_the_list_answers():
    """`Clauses.trace(list)` (the explanations' entry) with an item whose __index__
    empties the list: the core reads the items of a copy, so it answers the trace of
    the items it was given, never reading the freed ones (issue 42, item 3).  Run in a
    child: a core reading borrowed items would die of a signal there."""
    child = subprocess.run(
        [sys.executable, "-c", "import sys\n" + SLY_TRACE, EASTER_MONSTER],
        capture_output=True, text=True, cwd=PROJECT, timeout=120,
    )  # fmt: skip
    assert child.returncode >= 0, f"killed by signal {-child.returncode}: {child.stderr[-2000:]}"
    assert (child.returncode, child.stdout) == (0, "True True\n"), child.stderr[-2000:]
