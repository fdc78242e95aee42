"""The public API of each package: the names of `__all__` import, their docstring
examples run (doctest), and importing the packages loads no engine."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
# Modules whose docstrings carry the API's examples.
DOCUMENTED = [
    "encoder.picture",
    "solvers",
    "solvers.backends.solve",
    "benchmarks",
    "benchmarks.harness",
    "encoder.puzzle_files",
]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_docstring_examples_run(name, monkeypatch):
    monkeypatch.chdir(PROJECT)  # examples name files of data/ relative to the project
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0


@pytest.mark.parametrize("package", ["encoder", "solvers", "benchmarks"])
def test_every_public_name_imports(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_the_api_of_the_issue():
    from benchmarks import benchmark
    from solvers import SOLVERS, Engine, Rater, Status, solve

    assert callable(benchmark) and callable(solve) and callable(Engine) and callable(Rater)
    assert {"up", "fl", "dpll", "minisat22"} <= set(SOLVERS)
    assert Status.SAT.value == 10


def test_importing_the_packages_is_cheap():
    """`import solvers, benchmarks` loads neither the engine nor PySAT nor matplotlib:
    they come with the first name that needs them."""
    code = (
        "import sys, solvers, benchmarks, encoder\n"
        "print(sorted(m for m in ('pysat', 'solvers.core.engine', 'matplotlib') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_grids_and_results_show_as_pictures():
    from encoder import read_puzzles
    from solvers import solve

    four = "1...........4..."  # 4x4, many solutions: dpll finds one
    result = solve(four, solver="dpll")
    svg = result._repr_svg_()
    assert svg.startswith("<svg") and svg.count('class="sg-v"') == 14  # 14 values found
    assert str(result).startswith("dpll SAT: 1")
    [puzzle] = read_puzzles(four)
    assert puzzle._repr_svg_().count('class="sg-g"') == 2


def test_the_readme_example_runs(monkeypatch):
    """The README's "Python API" example is a doctest too: it stays true."""
    monkeypatch.chdir(PROJECT)
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(section, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert len(test.examples) >= 8


SOLVED_EASTER_MONSTER = (
    "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
)


@pytest.mark.parametrize(
    "first, words",
    [(10, "value 10 outside 0..9"), (-1, "value -1 outside 0..9"), (1.0, "1.0 is not an integer"),
     (True, "True is not an integer")],
)  # fmt: skip
def test_solve_refuses_a_value_outside_the_grid(first, words):
    """A cell value beyond the symbols (10, -1) or not an integer (1.0, True) is named,
    not solved as another grid (10 answered UNSAT, -1 a RuntimeError)."""
    from encoder.errors import GridError
    from solvers import solve

    values = [int(c) for c in SOLVED_EASTER_MONSTER]
    with pytest.raises(GridError, match=words):
        solve([first, *values[1:]])


def test_solve_takes_numpy_values():
    import numpy as np

    from solvers import solve

    assert solve(np.array([int(c) for c in SOLVED_EASTER_MONSTER])).status.name == "SAT"


@pytest.mark.parametrize(
    "bounds, error, words",
    [({"timeout": -1}, ValueError, "timeout must be in"), ({"timeout": 0}, ValueError, "timeout"),
     ({"timeout": float("nan")}, ValueError, "timeout"),
     ({"timeout": "1"}, TypeError, "number of seconds"),
     ({"budget": "conflicts=1"}, TypeError, "Budget\\(conflicts=1\\)")],
)  # fmt: skip
def test_solve_refuses_bounds_the_commands_refuse(bounds, error, words):
    """solve(timeout=-1 or 0) answered UNKNOWN 'time limit of -1 s reached', and a budget
    written as the command line's text raised AttributeError deep inside."""
    from solvers import solve

    with pytest.raises(error, match=words):
        solve(SOLVED_EASTER_MONSTER, **bounds)
