"""`benchmarks speed`'s question 14 on tiny inputs: counting to 2 on the board against
Minisat22.solve on each list, enumeration, and the commands that count (unique,
generate, stats --exact) as whole processes, each a figure and a checked target."""

from __future__ import annotations

import math
import re

from benchmarks.paths import PROJECT
from benchmarks.speed import board_search as question
from benchmarks.speed.record import Record
from encoder.encodings import given_literals
from encoder.geometry import standard
from encoder.grids import parse_grid

NINE = PROJECT / "data" / "sets" / "sudoku9_depth1.txt"


def test_search_on_the_board_is_timed_against_minisat_and_its_commands(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(question, "GENERATED", 5)
    monkeypatch.setattr(question, "GENERATE_25_LIMIT", 0.5)  # stopped: a lower bound
    monkeypatch.setattr(question, "ENUMERATED", 4)
    small = ("--givens", "50-51", "--samples", "3", "--exact", "--workers", "1")
    monkeypatch.setattr(question, "EXACT_STUDY", small)
    lines = [line for line in NINE.read_text().splitlines() if line and not line.startswith("#")]
    grids = [given_literals(parse_grid(line, standard(9)), standard(9)) for line in lines[:6]]
    record = Record()
    question.board_search([("nine", grids), ("again", grids[:3])], "nine",
                          [line + "\n" for line in lines[:6]], tmp_path, True, True,
                          record)  # fmt: skip
    out = capsys.readouterr().out
    assert out.startswith("\n14. search on the board")
    assert re.search(r"^ {3}nine, 6 grids: counting to 2 [\d.]+ us a grid", out, re.M)
    checks = {(c["id"], c["where"]): c for c in record.checks}
    assert set(checks) == {
        ("count2-vs-solve", "nine"), ("count2-vs-solve", "again"), ("enumerate-rate", "4 grids"),
        ("unique-list", "nine"), ("generate-minimal-9x9", "5 puzzles"),
        ("generate-minimal-25x25", "one puzzle"), ("stats-exact", "givens 21-60, 300 samples"),
    }  # fmt: skip
    figures = record.figures
    ratio = figures["14.count2.nine.median"][0] / figures["14.minisat22_solve.nine.median"][0]
    assert math.isclose(checks[("count2-vs-solve", "nine")]["value"], ratio)
    assert figures["14.enumerate.solutions"][0] > 4  # 24 givens: many solutions each
    assert checks[("generate-minimal-25x25", "one puzzle")]["value"] is None  # stopped
    assert not checks[("generate-minimal-25x25", "one puzzle")]["met"]
    assert "(stopped at 0.5 s: a lower bound)" in out
    assert figures["14.stats_exact.wall"][0] > 0
    assert not list(tmp_path.glob("unique_*"))
