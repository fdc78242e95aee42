"""The harness and `rate` under a time limit: a grid past it is counted, not waited for.

The empty 9x9 grid is the slow case: unit propagation and the depth-1 and depth-2
closures leave it open within a second, the depth-3 closure takes minutes, and any
complete solver fills it at once.
"""

from __future__ import annotations

import time

from benchmarks.chunks import ChunkTask, run_chunk
from encoder.puzzle_files import read_puzzles
from solvers import __main__ as solvers_cli
from solvers.ratings.depth import Rater
from solvers.results import Status

EMPTY = "." * 81
# The first grid of data/sets/sudoku9_minimal.txt (depth 1): settled long before any limit.
EASY = ".56.........6.87....4..29..5....1.3.8...2......1..........3..6.9..4...5..2..9...8"


def _puzzles(*lines: str):
    return tuple(puzzle for line in lines for puzzle in read_puzzles(line))


def test_a_grid_past_the_limit_is_counted_and_the_chunk_goes_on():
    task = ChunkTask(
        "t", "centrale", ("fl3", "minisat22"), 0, _puzzles(EMPTY, EASY), timeout=0.3, max_depth=3
    )
    start = time.perf_counter()
    result = run_chunk(task)
    elapsed = time.perf_counter() - start
    assert not result.error
    assert result.depths == ("timeout", "1")
    by_solver = {}
    for run in result.runs:
        by_solver.setdefault(run.result.solver, []).append(run.result)
    empty_fl3, easy_fl3 = by_solver["fl3"]
    assert empty_fl3.status is Status.UNKNOWN and empty_fl3.timed_out
    assert empty_fl3.reason == "time limit of 0.3 s reached"
    assert easy_fl3.status is Status.SAT and not easy_fl3.timed_out
    assert [r.status for r in by_solver["minisat22"]] == [Status.SAT, Status.SAT]
    # fl3 runs once on the empty grid (the timed pass keeps the warm-up's answer) and the
    # rating once more: about 0.6 s, not minutes.
    assert elapsed < 5


def test_rater_stops_at_its_limit_with_the_depth_it_was_trying():
    rater = Rater(_puzzles(EMPTY)[0].geometry, time_limit=0.2)
    rating = rater.rate(_puzzles(EMPTY)[0].grid, max_depth=5)
    assert rating.timed_out and rating.status is Status.UNKNOWN
    # Depths 0 and 1 leave the empty grid open at once, depth 2 in about half a second.
    assert rating.depth in (2, 3)
    assert rating.depth_label() == f"timeout@{rating.depth}"
    assert rating.bucket() == "timeout"
    assert rating.seconds < 3


def test_rate_prints_timeout_and_counts_it(capsys, tmp_path):
    grids = tmp_path / "grids.txt"
    grids.write_text(f"{EMPTY}\n{EASY}\n")
    code = solvers_cli.main(["rate", str(grids), "--max-depth", "4", "--timeout", "0.2"])
    captured = capsys.readouterr()
    assert code == 0  # a limit is no error: the grids are counted
    labels = [line.split("\t")[2] for line in captured.out.splitlines()]
    assert labels[1] == "1" and labels[0] in ("timeout@2", "timeout@3")
    assert f"{grids}:1: time limit of 0.2 s reached at depth {labels[0][-1]}" in captured.err
    assert captured.err.splitlines()[-1] == "solvers: 1 of 2 grids reached the time limit"
