"""Question 8: the bit-parallel board in numba (`solvers.board_engine`; `Rater` rates on
it under a time limit, else on the native core) beside the trail engine and Minisat22,
on issue 23's targets of questions 1-3: unit propagation per call and in batch against
Minisat22, the depth-1 closure median on the 17-clue list, the depth-2 closure median on
the forum's hardest (also against Minisat22.solve) and the depth rating up to 3 on
mith's grids; answers checked equal on every grid.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from pysat.solvers import Minisat22

from benchmarks.paths import load
from benchmarks.speed.common import (
    BATCH,
    GEOMETRY,
    PROG,
    alternating,
    board_values,
    minisat_solves,
    rating_engine,
    timed,
)
from benchmarks.speed.record import Record
from benchmarks.timing import median
from solvers.depth_rating import ladder_labels
from solvers.grid_engine import GridEngine


def ladder_medians(rater, values: np.ndarray, depth: int) -> tuple[float, object]:
    """Return the median kernel time per grid (ms) of a depth rating and its ratings."""
    rater.ladder(values[:1], GEOMETRY.size, depth)  # compiled or loaded first
    ratings = rater.ladder(values, GEOMETRY.size, depth)
    return float(np.median(ratings.seconds)) * 1e3, ratings


def board_speed(seventeen, hardest, deepest, names: tuple[str, str, str], quiet: bool,
                record: Record) -> None:  # fmt: skip
    """Question 8: the numba bit-parallel board (`solvers.board_engine`) beside the trail
    engine (watched literals, no groups) and Minisat22 on the issue's targets, every
    answer checked equal across the sides."""
    from solvers.board_engine import BoardEngine

    seventeen_name, hardest_name, deeper_name = names
    board = BoardEngine(GEOMETRY)
    rules = GridEngine(GEOMETRY)
    engine = rules.engine
    print(f"\n8. the bit-parallel board (solvers.bitboard) beside the trail engine; load "
          f"average {load()}")  # fmt: skip
    with Minisat22(bootstrap_with=rules.formula.clauses) as minisat:
        calls = {
            "board": board.propagate,
            "engine": engine.propagate,
            "minisat": lambda g: minisat.propagate(assumptions=g),
        }
        up = alternating("UP board", seventeen, calls, quiet)
        values = board_values(seventeen)
        batch = 0.0
        for start in range(0, len(values), BATCH):  # best of three: a call is milliseconds
            part = values[start : start + BATCH]
            batch += min(timed(lambda v=part: board.propagate_batch(v))[0] for _ in range(3))
        minisat_mean = sum(up["minisat"]) / len(up["minisat"])
        for name in ("board", "engine", "minisat"):
            record.figure(f"8.up.{name}.call.median", median(up[name]) * 1e6, "us")
        record.figure("8.up.board.batch.mean", batch / len(values) * 1e6, "us")
        print(f"   a. unit propagation of the givens, {len(seventeen)} grids of {seventeen_name}")
        print(f"      medians per call: board {median(up['board']) * 1e6:.1f} us, engine "
              f"{median(up['engine']) * 1e6:.1f} us, Minisat22 {median(up['minisat']) * 1e6:.1f}"
              f" us; board in batch {batch / len(values) * 1e6:.2f} us per grid ({BATCH} a "
              f"call, candidate words as arrays)")  # fmt: skip
        ratio = median(up["board"]) / median(up["minisat"])
        print(record.target("board-up-call", ratio, indent=6))
        print(record.target("board-up-batch", batch / len(values) / minisat_mean, indent=6))
        one = alternating(
            "depth 1 board",
            seventeen,
            {"board": lambda g: board.probe(g, 1), "engine": lambda g: engine.probe(g, 1)},
            quiet,
        )
        rating_ms, _ = ladder_medians(board, values, 1)
        record.figure("8.depth_1.board.median", median(one["board"]) * 1e6, "us")
        record.figure("8.depth_1.engine.median", median(one["engine"]) * 1e6, "us")
        record.figure("8.depth_1.board.rating.median", rating_ms * 1e3, "us")
        print(f"   b. depth-1 closure, {len(seventeen)} grids of {seventeen_name}: medians board "
              f"{median(one['board']) * 1e6:.1f} us, engine {median(one['engine']) * 1e6:.1f} us"
              f" (board / engine {median(one['board']) / median(one['engine']):.2f}x); the "
              f"board's depth rating up to 1, kernel time {rating_ms * 1e3:.1f} us")  # fmt: skip
        print(record.target("board-fl-median", median(one["board"]) * 1e6, indent=6))
        two = alternating(
            "depth 2 board",
            hardest,
            {"board": lambda g: board.probe(g, 2), "engine": lambda g: engine.probe(g, 2)},
            quiet,
        )
        solve_times = minisat_solves(minisat, hardest, quiet)  # as in 3a
    board_ms, engine_ms = median(two["board"]) * 1e3, median(two["engine"]) * 1e3
    solve_ms = median(solve_times) * 1e3
    record.figure("8.depth_2.board.median", board_ms, "ms")
    record.figure("8.depth_2.engine.median", engine_ms, "ms")
    record.figure("8.depth_2.minisat22_solve.median", solve_ms, "ms")
    print(f"   c. depth-2 closure, {len(hardest)} grids of {hardest_name}: medians board "
          f"{board_ms:.3f} ms, engine {engine_ms:.3f} ms (board / engine "
          f"{board_ms / engine_ms:.2f}x), Minisat22.solve {solve_ms:.3f} ms")  # fmt: skip
    print(record.target("board-d2-closure", board_ms, indent=6))
    ratio = median(two["board"]) / median(solve_times)
    print(record.target("board-d2-vs-solve", ratio, indent=6))
    if not deepest:
        record.skipped("board-d3-rating: no depth-3 set")
        print("   d. depth rating up to 3: not measured (no depth-3 set; --deeper FILE)")
        return
    values = board_values(deepest)
    board_ms, board_ratings = ladder_medians(board, values, 3)
    engine_ms, engine_ratings = ladder_medians(engine, values, 3)
    if board_ratings.depth.tolist() != engine_ratings.depth.tolist():
        raise SystemExit(f"{PROG}: board and engine ratings differ on {deeper_name}")
    record.figure("8.depth_3.board.rating.median", board_ms, "ms")
    record.figure("8.depth_3.engine.rating.median", engine_ms, "ms")
    print(f"   d. depth rating up to 3, {len(deepest)} grids of {deeper_name}: kernel-time "
          f"medians board {board_ms:.3f} ms, engine {engine_ms:.3f} ms (board / engine "
          f"{board_ms / engine_ms:.2f}x); depths "
          f"{dict(sorted(Counter(ladder_labels(board_ratings, 3)).items()))}")  # fmt: skip
    print(record.target("board-d3-rating", board_ms, indent=6))
    print(f"   (Rater, so question 4's `solvers rate`, rates on {rating_engine()} here)")
