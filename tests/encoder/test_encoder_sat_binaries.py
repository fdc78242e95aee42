"""Real SAT solver binaries (Debian's minisat, and picosat / cadical when installed) fed
the encoder's DIMACS: their answers are parsed, decoded and checked independently."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from encoder_oracle import (
    Layout,
    assert_input_error,
    golden_puzzles,
    grid_by_hand,
    run_cli,
    solution_errors,
    values_of,
)

from encoder import grid_from_model, is_solution, make_geometry, parse_model, read_model
from encoder.grids import region_ids
from encoder.status import Status

MINISAT = shutil.which("minisat")
needs_minisat = pytest.mark.skipif(
    MINISAT is None, reason="the `minisat` binary is not on PATH (Debian package: minisat)"
)

# The first line of norvig_top95, andoku_standard_x, sudoku6x6_2x3boxes, hex16_vu_kr_1G
# and andoku_jigsaw, as golden.txt holds them.
PUZZLES = {
    "norvig": (golden_puzzles()[0], [], Layout(9, (3, 3))),
    "x": (golden_puzzles("--diagonals")[0], ["--diagonals"], Layout(9, (3, 3), diagonals=True)),
    "6x6": (golden_puzzles("--size 6")[0], [], Layout(6, (2, 3))),
    "16x16": (golden_puzzles("--size 16")[0], [], Layout(16, (4, 4))),
}
JIGSAW = golden_puzzles(jigsaw=True)[0]


def encode(tmp_path, line: str, flags: list[str], *extra: str):
    path = tmp_path / "puzzle.cnf"
    result = run_cli(line, *flags, *extra, "-o", path)
    assert result.returncode == 0, result.stderr
    return path


def check(model_literals, line: str, flags: list[str], layout: Layout) -> None:
    geometry = make_geometry(
        layout.size, diagonals="--diagonals" in flags, windows="--windows" in flags
    )
    solution = grid_from_model(model_literals, geometry)
    assert solution == grid_by_hand(list(model_literals), layout.size)
    assert is_solution(solution, values_of(line), geometry)
    assert solution_errors(solution, values_of(line), layout) == []


@needs_minisat
@pytest.mark.parametrize("name", list(PUZZLES))
def test_minisat_result_file(name, tmp_path):
    line, flags, layout = PUZZLES[name]
    cnf = encode(tmp_path, line, flags)
    result = tmp_path / "result.txt"
    run = subprocess.run(
        [MINISAT, "-verb=0", cnf, result], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 10, run.stdout + run.stderr  # 10 = SATISFIABLE
    assert result.read_text().startswith("SAT\n")
    model = read_model(str(result))
    assert model.status is Status.SAT
    check(model.literals, line, flags, layout)
    decoded = run_cli("decode", result, "--grid", line, *flags)
    assert decoded.returncode == 0, decoded.stderr
    assert values_of(decoded.stdout.strip()) == grid_by_hand(list(model.literals), layout.size)


@needs_minisat
def test_minisat_jigsaw_and_augmented(tmp_path):
    puzzle_file = tmp_path / "jigsaw.txt"
    puzzle_file.write_text(JIGSAW + "\n")
    cnf = encode(tmp_path, puzzle_file, [], "--encoding", "augmented")
    result = tmp_path / "result.txt"
    run = subprocess.run([MINISAT, "-verb=0", cnf, result], capture_output=True, check=False)
    assert run.returncode == 10
    model = read_model(str(result))
    cells, regions = JIGSAW.split("|")
    geometry = make_geometry(9, jigsaw=region_ids(regions, 9))
    solution = grid_from_model(model.literals, geometry)
    assert is_solution(solution, values_of(cells), geometry)
    assert solution_errors(solution, values_of(cells), Layout(9, jigsaw=regions)) == []


@needs_minisat
def test_minisat_unsat_on_clashing_givens(tmp_path):
    clash = "77" + "." * 79
    cnf = encode(tmp_path, clash, [], "--allow-conflicts")
    result = tmp_path / "result.txt"
    run = subprocess.run([MINISAT, "-verb=0", cnf, result], capture_output=True, check=False)
    assert run.returncode == 20  # 20 = UNSATISFIABLE
    assert read_model(str(result)).status is Status.UNSAT
    assert_input_error(run_cli("decode", result), str(result), "UNSAT")


@pytest.mark.parametrize(
    ("solver", "args"), [("picosat", []), ("cadical", ["-q"])], ids=["picosat", "cadical"]
)
@pytest.mark.parametrize("name", ["norvig", pytest.param("16x16", marks=pytest.mark.slow)])
def test_competition_output_solvers(solver, args, name, tmp_path):
    binary = shutil.which(solver)
    if binary is None:
        pytest.skip(f"the `{solver}` binary is not on PATH (Debian package: {solver})")
    line, flags, layout = PUZZLES[name]
    cnf = encode(tmp_path, line, flags)
    run = subprocess.run(
        [binary, *args, cnf], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 10, run.stderr
    assert "s SATISFIABLE" in run.stdout
    model = parse_model(run.stdout, solver)
    check(model.literals, line, flags, layout)
    decoded = run_cli("decode", "-", "--grid", line, *flags, stdin=run.stdout)
    assert decoded.returncode == 0, decoded.stderr
    assert values_of(decoded.stdout.strip()) == grid_by_hand(list(model.literals), layout.size)
