"""The board's depth loop under the opt-in time limit (issue 42, item 17): a grid still
working past it is DEPTH_TIMEOUT at the depth it was working on, as on the clause
engine; a limit no grid reaches changes no answer; and `rate --timeout` keeps the
board where the board applies instead of building the clause engine (seconds of
set-up on a 36x36 grid, outside the limit).  The limit is read at each grid's first
hypothesis boundary and then at the poll's cadence, so a limit of a few nanoseconds
stops every grid that enters a closure, on any machine.  Wall-time bounds are wide:
CI is a loaded 2-core machine."""

from __future__ import annotations

import numpy as np
import pytest
from golden import EASTER_MONSTER, SETS, grid_of, project_set

import solvers.core as core
from benchmarks.paths import PROJECT
from encoder.geometry import Geometry, standard
from encoder.puzzle_files import read_puzzles
from solvers.__main__ import main
from solvers.ratings.depth import Rater

GRID_36 = PROJECT / "tests" / "corpus" / "files" / "grid-36x36-numbers-700-givens.txt"


def grids_of(name: str, count: int) -> tuple[Geometry, np.ndarray]:
    """The geometry of a set of data/sets and its first grids of that geometry."""
    path = next(p for p in SETS if p.name == name)
    geometry, grids = next(iter(project_set(path, count)))
    return geometry, np.array(grids, np.int8)


def two_36x36_grids() -> list[str]:
    """A 36x36 grid of 700 givens (minutes at depth 1) and the empty 36x36 grid, as
    lines of a file."""
    text = GRID_36.read_text(encoding="utf-8").splitlines()
    given = [line for line in text if line.strip() and not line.startswith("#")]
    return [*given, ",".join(["0"] * 36 * 36)]


def test_the_board_gives_a_grid_up_at_its_time_limit(variant):
    """The empty grid's depth-3 closure runs for a minute: past 0.1 s it is DEPTH_TIMEOUT
    and the next grid is rated afresh, as without a limit."""
    board = core.Board(standard(9))
    easy = np.array(grid_of(EASTER_MONSTER), np.int8)
    out = board.depths(np.stack([np.zeros(81, np.int8), easy]), 3, time_limit=0.1)
    assert out.status[0] == core.DEPTH_TIMEOUT and out.depth[0] >= 2
    assert 0.1 <= out.seconds[0] < 10
    alone = board.depths(easy[None], 3)
    assert (out.status[1], out.depth[1]) == (alone.status[0], alone.depth[0]) == (core.DEPTH_SAT, 2)
    assert out.work[1] == alone.work[0]
    with pytest.raises(ValueError, match="time limit"):
        board.depths(easy[None], 1, time_limit=0)
    with pytest.raises(ValueError, match="limit_ns"):
        board._native.depths(easy[None], 1, False, -1, *core.boundary.depth_arrays(easy[None]), -1)


def test_a_tiny_limit_stops_every_grid_that_enters_a_closure(variant):
    """A limit of 1 ns has passed by a grid's first hypothesis boundary: grids filled by
    propagation are rated as without a limit, every other one is DEPTH_TIMEOUT at
    depth 1, having tested at most the poll's few dozen hypotheses."""
    grids = np.concatenate(
        [grids_of(name, 20)[1] for name in ("sudoku9_minimal.txt", "sudoku9_depth1.txt")]
    )
    board = core.Board(standard(9))
    free = board.depths(grids, 2)
    cut = board.depths(grids, 2, time_limit=1e-9)
    settled = free.depth == 0
    assert settled.any() and not settled.all()
    assert (cut.status[settled] == free.status[settled]).all()
    assert (cut.status[~settled] == core.DEPTH_TIMEOUT).all()
    assert (cut.depth[~settled] == 1).all()
    assert (cut.work <= free.work).all()


@pytest.mark.parametrize(
    ("name", "max_depth"),
    [("sudoku9_depth1.txt", 2), ("sudoku9_x_depth2.txt", 2), ("sudoku16_minimal.txt", 1)],
)
def test_a_limit_no_grid_reaches_changes_no_answer(variant, name, max_depth):
    """Statuses, depths, solutions and work units alike, with a limit of 1000 s."""
    geometry, grids = grids_of(name, 15)
    board = core.Board(geometry)
    free = board.depths(grids, max_depth)
    timed = board.depths(grids, max_depth, time_limit=1000.0)
    for field in ("status", "depth", "solutions", "work"):
        assert np.array_equal(getattr(timed, field), getattr(free, field)), field


def test_a_time_limit_keeps_the_board_on_36x36_grids():
    """The rater under a time limit rates on the board (no clause engine is built) and a
    tiny limit gives both grids up at depth 1."""
    rater = Rater(standard(36), time_limit=1e-6)
    assert isinstance(rater.engine, core.Board)
    grids = [p.grid for line in two_36x36_grids() for p in read_puzzles(line, standard(36))]
    ratings = rater.rate_many(grids, 2)
    assert [r.depth_label() for r in ratings] == ["timeout@1", "timeout@1"]
    assert all(r.seconds < 10 for r in ratings)


def test_rate_timeout_on_36x36_grids_builds_no_clause_engine(tmp_path, capsys, monkeypatch):
    """`rate --timeout 1e-6` on two 36x36 grids (issue 42, item 17): the grids are
    'timeout@1' and the only engine the rating asks for is the board."""
    engines = []
    chooser = core.board_or_clauses

    def recorded(*args, **kwargs):
        engines.append(chooser(*args, **kwargs))
        return engines[-1]

    monkeypatch.setattr(core, "board_or_clauses", recorded)
    path = tmp_path / "two36.txt"
    path.write_text("".join(g + "\n" for g in two_36x36_grids()))
    argv = ["rate", str(path), "--size", "36", "--timeout", "1e-6", "--no-length", "--quiet"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert [line.split("\t")[2] for line in out.splitlines()] == ["timeout@1", "timeout@1"]
    assert engines and all(isinstance(engine, core.Board) for engine in engines)
