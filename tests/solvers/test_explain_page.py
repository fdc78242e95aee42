"""Explanations as step records and as an HTML page, the page seen in a real browser.

The records are checked against the text (the printed lines are the steps' lines) and
against themselves (each board follows from the one before by the step's placement or
elimination; the last board is a solution, by the independent checker).  The page is
checked for self-containment, then opened in headless Chromium (skipped where it is
absent): no console error, a screenshot, and the step control changes what is drawn.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser import Browser, find_chromium

from encoder.check import is_solution
from encoder.geometry import Geometry, make_geometry, standard
from encoder.grids import parse_cells
from solvers.explain.page import explain_page, page_data
from solvers.explain.steps import Board, Explainer

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SETS = Path(__file__).resolve().parents[2] / "data" / "sets"
CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium here (Debian package chromium; .ci/run installs it)"
)


def first_puzzle(name: str, index: int = 0) -> str:
    lines = [
        line
        for line in (SETS / name).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return lines[index]


def jigsaw_case():
    puzzle, regions = first_puzzle("sudoku9_jigsaw_depth2.txt").split("|")
    geometry = make_geometry(9, jigsaw=tuple(int(x) for x in regions.strip()))
    return parse_cells(puzzle.strip(), geometry), geometry


CASES = {
    "easter-monster": lambda: (parse_cells(EASTER_MONSTER, standard(9)), standard(9)),
    "4x4": lambda: (
        parse_cells(first_puzzle("sudoku4_minimal.txt"), make_geometry(4)),
        make_geometry(4),
    ),
    "jigsaw": jigsaw_case,
}


def case_steps(name: str, easter_monster) -> tuple[tuple[int, ...], Geometry, list]:
    """The grid, geometry and explanation steps of a case, computed once (a depth-2
    explanation costs seconds; Easter Monster's is the session's)."""
    if name == "easter-monster":
        return (*CASES[name](), easter_monster[2])
    return _explained(name)


@functools.cache
def _explained(name: str) -> tuple[tuple[int, ...], Geometry, list]:
    grid, geometry = CASES[name]()
    return grid, geometry, list(Explainer(geometry).steps(grid))


@pytest.mark.parametrize("name", CASES)
def test_steps_replay_to_the_solution(name, easter_monster):
    grid, geometry, steps = case_steps(name, easter_monster)
    assert [line for step in steps for line in step.lines] == list(
        Explainer(geometry).explain(grid)
    )
    assert_replays(steps, grid, geometry)


def assert_replays(steps, grid, geometry) -> None:
    """Each step's board follows the one before, from the givens to a solution."""
    assert steps[0].kind == "grid" and steps[-1].kind == "solved"
    assert steps[0].after == Board.start(grid, geometry)
    for previous, step in itertools.pairwise(steps):
        assert step.before == previous.after  # one board follows the other
        if step.kind == "placement":
            assert step.value in step.before.candidates[step.cell]
            assert step.after == step.before.place(step.cell, step.value, geometry)
            assert step.sentence in step.lines[0]
        elif step.kind == "hypothesis":
            assert step.sentence.startswith("Suppose") and step.value
            assert step.value not in step.after.candidates[step.cell]
            # what falls under the hypothesis is on the board it starts from
            assert all(k in step.before.candidates[c] for c, k in step.inner)
        elif step.kind == "refutation":  # 'r4c7≠5  (length 3): if r4c7=5, then ...'
            assert step.value in step.before.candidates[step.cell]
            assert step.value not in step.after.candidates[step.cell]
            assert "(length " in step.sentence and step.lines == (f"  {step.sentence}",)
        else:
            assert step.after == step.before
    final = steps[-1].after
    assert is_solution(final.values, grid, geometry)
    assert not any(final.candidates)


def test_a_hidden_single_names_its_region():
    grid, geometry = CASES["4x4"]()
    hidden = [s for s in Explainer(geometry).steps(grid) if "hidden single" in s.sentence]
    assert hidden
    for step in hidden:
        assert step.cell in step.region and len(step.region) == 4


def test_the_page_is_self_contained(easter_monster):
    grid, geometry, steps = case_steps("easter-monster", easter_monster)
    page = explain_page(grid, geometry, steps)
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    addresses = set(re.findall(r"https?://[^\s\"'<>\\]+", page))
    assert addresses == {"http://www.w3.org/2000/svg"}  # the SVG namespace, never fetched
    data = json.loads(re.search(r'id="steps">(.*?)</script>', page, re.S)[1])
    assert data == json.loads(json.dumps(page_data(grid, geometry, steps)))
    shown = [s for s in steps if s.kind != "note"]
    assert [f["sentence"] for f in data["frames"]] == [s.sentence for s in shown]
    assert len(page) < 400_000  # the pictures share their pieces (7 MB if not)


def test_explain_html_option_writes_the_page(tmp_path):
    page = tmp_path / "page.html"
    grid = first_puzzle("sudoku9_minimal.txt")  # the option, not a long explanation
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "explain", grid, "--html", str(page)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Solved:" in done.stdout.splitlines()  # the text is printed as before
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "solvers",
            "explain",
            EASTER_MONSTER,
            "--max-depth",
            "0",
            "--html",
            str(tmp_path / "no-such-folder" / "page.html"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and "cannot write" in bad.stderr


@pytest.fixture(scope="module")
def browser():
    with Browser(CHROMIUM) as chromium:
        yield chromium


def drawn(browser) -> str:
    return browser.evaluate("document.querySelector('.boards').innerHTML")


@needs_chromium
@pytest.mark.parametrize("name", CASES)
def test_the_page_in_a_browser(name, browser, tmp_path, easter_monster):
    grid, geometry, steps = case_steps(name, easter_monster)
    page = tmp_path / f"{name}.html"
    page.write_text(explain_page(grid, geometry, steps), encoding="utf-8")
    frames = sum(1 for s in steps if s.kind != "note")
    browser.errors.clear()
    browser.open(page)
    assert browser.evaluate("document.getElementById('counter').textContent") == (
        f"step 1 of {frames}"
    )
    assert browser.evaluate("document.querySelectorAll('.boards svg').length") == 2
    first = browser.screenshot(tmp_path / f"{name}-1.png")
    first_drawing = drawn(browser)
    browser.evaluate("document.getElementById('next').click()")
    assert browser.evaluate("document.getElementById('counter').textContent") == (
        f"step 2 of {frames}"
    )
    assert drawn(browser) != first_drawing
    second = browser.screenshot(tmp_path / f"{name}-2.png")
    assert second != first and second.startswith(b"\x89PNG")
    shown = [s for s in steps if s.kind != "note"]
    assert browser.evaluate("document.getElementById('sentence').textContent") == (
        shown[1].sentence
    )
    browser.evaluate("document.getElementById('last').click()")
    assert browser.evaluate("location.hash") == f"#{frames - 1}"
    # the last picture shows every value: one text per cell, no candidate left
    assert browser.evaluate(
        "document.querySelector('#after svg').querySelectorAll('text').length"
    ) == len(grid)
    browser.evaluate("document.getElementById('prev').click()")
    assert browser.evaluate("document.getElementById('slider').value") == str(frames - 2)
    assert browser.errors == []


@needs_chromium
def test_the_browser_reports_console_errors(browser, tmp_path):
    """The error check can fail: a page that logs an error and throws is caught."""
    page = tmp_path / "broken.html"
    page.write_text(
        "<!DOCTYPE html><html><body><script>console.error('boom');"
        "undefined_function();</script></body></html>",
        encoding="utf-8",
    )
    browser.errors.clear()
    browser.open(page)
    browser.evaluate("1")  # let the events of the load arrive
    assert any("boom" in e for e in browser.errors)
    assert any("undefined_function" in e for e in browser.errors)


def test_explainer_is_reusable():
    """One Explainer serves several grids: no state leaks from one to the next."""
    grid, geometry = CASES["4x4"]()
    explainer = Explainer(geometry)
    once = list(explainer.steps(grid))
    assert list(explainer.steps(grid)) == once


def test_interleaved_explanations_do_not_mix():
    """Two steps() of one Explainer advanced in turn: each replays its own grid to its
    solution (the board lives in the generator, not in the Explainer)."""
    geometry = make_geometry(4)
    grids = [parse_cells(first_puzzle("sudoku4_minimal.txt", i), geometry) for i in (0, 1)]
    explainer = Explainer(geometry)
    walks = [explainer.steps(grid) for grid in grids]
    mixed: list[list] = [[], []]
    going = [True, True]
    while any(going):  # one step of each explanation in turn
        for i, walk in enumerate(walks):
            step = next(walk, None) if going[i] else None
            going[i] = step is not None
            if step is not None:
                mixed[i].append(step)
    assert mixed[0] != mixed[1]
    for steps, grid in zip(mixed, grids, strict=True):
        assert_replays(steps, grid, geometry)


def test_the_page_says_how_many_solutions_the_grid_has():
    from solvers.explain.page import uniqueness_line

    nine = standard(9)
    monster = parse_cells(
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1", nine
    )
    assert "exactly one solution" in uniqueness_line(monster, nine)
    several = (0, *monster[1:])
    assert "two solutions or more" in uniqueness_line(several, nine)
    clash = (1, 1, *monster[2:])
    assert uniqueness_line(clash, nine).startswith("This grid has no solution: value 1 given")
    page = explain_page(monster, nine, [], solutions=uniqueness_line(monster, nine))
    assert '<div class="sub" id="solutions">This grid has exactly one solution' in page
