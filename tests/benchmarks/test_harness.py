"""Tests of `python -m benchmarks run`: the real CLI on small sets, through subprocess.

Small sets are cut from the public puzzle sets (the `public` fixture) into the test's
temporary folder (the repository holds none of them); a test is skipped when its set is
not on this machine.  Tests that only need a few grids of a size or variant take them
from the project's own data/sets.
Whatever a test checks about solutions, the harness itself checks every model with
`encoder.check` in its warm-up pass.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_processes import started, wait_for_chunks

from benchmarks import chunks, harness
from benchmarks import run as run_command
from benchmarks.__main__ import main as benchmarks_main
from benchmarks.chunks import ChunkTask, run_chunk
from benchmarks.harness import RunOptions, make_tasks
from benchmarks.journal import FILE as JOURNAL
from benchmarks.paths import PROJECT
from benchmarks.sets import choose, read_dataset
from encoder.variant import Variant
from solvers.backends.base import Backend
from solvers.results import NOT_AVAILABLE, SolverResult, Status

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SUMMARY_KEYS = {
    "dataset",
    "encoding",
    "solver",
    "grids",
    "without_search",
    "without_search_pct",
    "solved",
    "solved_pct",
    "unsat",
    "unknown",
    "decisions_median",
    "decisions_mean",
    "conflicts_median",
    "conflicts_mean",
    "us_median",
    "grids_per_second",
}
METADATA_KEYS = {"python", "packages", "cpu", "cores", "git_commit", "seed", "command", "workers"}


def cut(source: Path, lines: int, folder: Path, header: str = "", rename: str = "") -> Path:
    """Write the first `lines` lines of a public set's file into `folder` (with a header)."""
    text = source.read_text(encoding="utf-8").splitlines()[:lines]
    path = folder / (rename or source.name)
    path.write_text(header + "\n".join(text) + "\n", encoding="utf-8")
    return path


def project_grids(name: str, count: int) -> list[str]:
    """Return the first `count` grids of data/sets/NAME, the project's own puzzles."""
    lines = (PROJECT / "data" / "sets" / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")][:count]


def write_grids(path: Path, grids: list[str]) -> Path:
    """Write one grid a line, no header (the size is read from the line length)."""
    path.write_text("\n".join(grids) + "\n", encoding="utf-8")
    return path


def run_cli(*args, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", "run", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=PROJECT,
        check=False,
    )


def table_rows(stdout: str, dataset: str) -> dict[str, list[str]]:
    """Return {solver: cells} of the Markdown table under the heading of `dataset`."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"### {dataset}:"))
    rows = {}
    for line in lines[start + 3 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[1]] = cells
    return rows


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, public):
    """One run over norvig_top95, 4 X grids (named _x), 4 jigsaw grids and 6 CSV rows."""
    folder = tmp_path_factory.mktemp("sets")
    top95 = public.set("top95")
    xset = cut(public.set("andoku-x"), 4, folder, rename="few_x.txt")
    jigsaw = cut(public.set("andoku-jigsaw"), 4, folder)
    table = cut(public.set("kaggle-3m-sample"), 7, folder, rename="kaggle.csv")
    out = folder / "out"
    result = run_cli(
        top95,
        xset,
        jigsaw,
        table,
        "--solvers",
        "up,fl,minisat22,cadical195",
        "--workers",
        "1",
        "--out",
        out,
    )
    return result, out, [top95, xset, jigsaw, table]


def test_run_succeeds_and_prints_one_table_per_set(small_run):
    result, _, _ = small_run
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for heading in (
        "### norvig_top95: 95 of 95 grids, 9x9",
        "### few_x: 4 of 4 grids, 9x9, 3x3 boxes, diagonals, flags `--diagonals` (file name)",
        "### andoku_jigsaw: 4 of 4 grids, 9x9, jigsaw",
        "### kaggle: 6 of 6 grids",
        "### Depth profile",
    ):
        assert heading in result.stdout
    header = result.stdout.splitlines()
    assert any("% no search" in line and "µs/grid med" in line for line in header)


def test_top95_up_solves_none_without_search_fl_all(small_run):
    result, _, _ = small_run
    rows = table_rows(result.stdout, "norvig_top95")
    # columns: encoding, solver, grids, % no search, % solved, ...
    assert rows["up"][2:5] == ["95", "0.00", "0.00"]
    assert rows["fl"][2:5] == ["95", "100.00", "100.00"]
    assert rows["minisat22"][3:5] == ["0.00", "100.00"]  # UP alone never suffices here


def test_json_schema_and_metadata(small_run):
    _, out, files = small_run
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert document["schema"] == "sudoku-sat/benchmark-results"
    assert document["version"] == 1
    assert set(document["metadata"]) >= METADATA_KEYS
    assert document["metadata"]["packages"]["python-sat"] != "not installed"
    assert document["metadata"]["workers"] == 1
    assert [d["name"] for d in document["datasets"]] == [
        "norvig_top95",
        "few_x",
        "andoku_jigsaw",
        "kaggle",
    ]
    for entry, path in zip(document["datasets"], files, strict=True):
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    summaries = document["summaries"]
    assert len(summaries) == 4 * 4
    for row in summaries:
        assert set(row) >= SUMMARY_KEYS
        assert row["grids"] == row["solved"] + row["unsat"] + row["unknown"]
    top95_fl = next(r for r in summaries if r["dataset"] == "norvig_top95" and r["solver"] == "fl")
    assert top95_fl["without_search"] == 95
    profiles = {p["dataset"]: p for p in document["depth_profiles"]}
    assert profiles["norvig_top95"]["counts"]["1"] == 95
    assert sum(profiles["kaggle"]["counts"].values()) == 6


def test_csv_has_one_row_per_grid_and_solver(small_run):
    _, out, _ = small_run
    with open(out / "results.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == (95 + 4 + 4 + 6) * 4
    assert set(rows[0]) >= {"dataset", "solver", "status", "decisions", "microseconds", "depth"}
    top95 = [r for r in rows if r["dataset"] == "norvig_top95" and r["solver"] == "up"]
    assert [int(r["position"]) for r in top95] == list(range(95))
    assert [int(r["line"]) for r in top95] == list(range(1, 96))
    assert {r["status"] for r in rows if r["solver"] == "minisat22"} == {"SAT"}
    assert {r["depth"] for r in top95} == {"1"}
    kaggle = [r for r in rows if r["dataset"] == "kaggle" and r["solver"] == "fl"]
    assert [int(r["line"]) for r in kaggle] == list(range(2, 8))  # after the CSV header


def test_plots_are_written(small_run):
    _, out, _ = small_run
    for name in ("no_search.png", "depth_profile.png"):
        assert (out / name).read_bytes()[:8] == PNG_MAGIC


def test_binary_solver_figures_come_from_its_output(tmp_path, public):
    grids = cut(public.set("top95"), 2, tmp_path)
    result = run_cli(grids, "--solvers", "minisat,minisat22", "--workers", "1", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    rows = table_rows(result.stdout, "norvig_top95")
    if rows["minisat"][4] != "100.00":
        pytest.skip("the minisat binary is not installed")
    assert rows["minisat"][3] == rows["minisat22"][3] == "0.00"  # % no search: same UP
    assert all(float(figure) >= 0 for figure in rows["minisat"][5:9])  # read, not n/a
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    binary = next(s for s in document["summaries"] if s["solver"] == "minisat")
    assert binary["decisions_mean"] > 0 and binary["without_search_pct"] == 0
    with open(tmp_path / "results.csv", encoding="utf-8", newline="") as handle:
        rows_csv = [r for r in csv.DictReader(handle) if r["solver"] == "minisat"]
    assert all(int(r["decisions"]) >= 0 and int(r["conflicts"]) >= 0 for r in rows_csv)
    assert "Depth profile" not in result.stdout  # no home-grown solver, no rating


@pytest.mark.parametrize(
    ("content", "suffix", "extra", "expected"),
    [
        ("." * 81 + "\n12345\n", ".txt", [], ":2: grid has 5 cells"),
        ("# header\n" + "1" * 2 + "." * 79 + "\n", ".txt", [], ":2: value 1 given twice in row 0"),
        ("id,grid\n1," + "." * 81 + "\n", ".csv", [], ":1: no column 'puzzle' (columns: id, grid)"),
        ("id,grid\n1," + "." * 80 + "x\n", ".csv", ["--column", "grid"], ":2: bad symbol 'x'"),
        ("# geometry: --bogus\n" + "." * 81 + "\n", ".txt", [], ":1: header:"),
        ("# geometry: --box 5x5\n" + "." * 81 + "\n", ".txt", [], ":2: boxes 5x5 do not tile"),
    ],
)
def test_bad_input_is_one_located_line(tmp_path, content, suffix, extra, expected):
    path = tmp_path / f"bad{suffix}"
    path.write_text(content, encoding="utf-8")
    result = run_cli(path, *extra, "--workers", "1")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"benchmarks: {path}")
    assert expected in result.stderr, result.stderr


def test_missing_file_and_bad_options(tmp_path):
    result = run_cli(tmp_path / "nope.txt")
    assert result.returncode == 1 and f"benchmarks: {tmp_path / 'nope.txt'}: no such file" in (
        result.stderr
    )
    result = run_cli(tmp_path / "nope.txt", "--solvers", "up,zchaff")
    assert result.returncode == 2 and "unknown solver 'zchaff'" in result.stderr


# ------------------------------------------------------------------ in-process pieces


def test_variant_from_header_generator_command_and_file_name(tmp_path):
    [line] = project_grids("sudoku9_hyper_minimal.txt", 1)  # a Hyper grid
    plain = Variant()
    explicit = tmp_path / "puzzles.txt"
    explicit.write_text(f"# geometry: --windows\n{line}\n")
    assert read_dataset(str(explicit), plain).flags == "--windows"
    generated = tmp_path / "made.txt"
    generated.write_text(
        "# sudoku-sat generated puzzles: 1, 9x9, 3x3 boxes, windows\n"
        "# command: python -m benchmarks generate --method minimal --windows -o made.txt\n"
        f"{line}\n"
    )
    made = read_dataset(str(generated), plain)
    assert (made.flags, made.flags_from) == ("--windows", "header")
    assert "windows" in made.puzzles[0].geometry.extras
    named = tmp_path / "sudoku9_hyper.txt"
    named.write_text(line + "\n")
    assert read_dataset(str(named), plain).flags_from == "file name"
    # flags on the command line win over both
    forced = read_dataset(str(named), Variant(size=9))
    assert (forced.flags, forced.flags_from) == ("--size 9", "command line")
    assert forced.puzzles[0].geometry.extras == ()


def test_size_is_guessed_from_line_length(tmp_path):
    for name, size in [("sudoku4_minimal.txt", 4), ("sudoku6_minimal.txt", 6)]:
        path = write_grids(tmp_path / f"grids{size}.txt", project_grids(name, 3))
        data = read_dataset(str(path), Variant(), limit=3)
        assert data.puzzles[0].geometry.size == size
    path = write_grids(tmp_path / "hex.txt", project_grids("sudoku16_minimal.txt", 1))
    hex16 = read_dataset(str(path), Variant(), limit=1)
    assert hex16.puzzles[0].geometry.size == 16


def test_shuffle_is_seeded_and_limit_cuts_after_it():
    assert choose(10, 3, False, 0) == [0, 1, 2]
    assert choose(10, None, True, 5) == choose(10, None, True, 5)
    assert choose(10, 4, True, 5) == choose(10, None, True, 5)[:4]
    assert choose(10, None, True, 5) != choose(10, None, True, 6)


class WrongBackend(Backend):
    """A solver that answers SAT with the all-ones grid."""

    def load(self, clauses, num_vars, cell_vars=None):
        self.num_vars, self.size = num_vars, round(num_vars ** (1 / 3))
        return self

    def solve(self, assumptions=()):
        n = self.size
        model = tuple(v if (v - 1) % n == 0 else -v for v in range(1, self.num_vars + 1))
        return SolverResult("wrong", Status.SAT, model, False, 0, 0, 0, 1e-6)

    def close(self):
        pass


def test_wrong_answer_stops_the_chunk_with_the_grid(monkeypatch, public):
    monkeypatch.setattr(chunks, "make_backend", lambda name, **_: WrongBackend())
    data = read_dataset(str(public.set("top95")), Variant(), limit=2)
    result = run_chunk(ChunkTask(data.name, "centrale", ("minisat22",), 0, data.puzzles))
    assert result.runs == ()
    assert result.error_source.endswith("norvig_top95.txt:1")
    assert "minisat22 (centrale) returned a wrong solution" in result.error
    assert "4 . . | . . . | 8 . 5" in result.error  # the grid is drawn


def test_wrong_answer_aborts_the_run(monkeypatch, capsys, public):
    monkeypatch.setattr(chunks, "make_backend", lambda name, **_: WrongBackend())
    top95 = str(public.set("top95"))
    argv = [top95, "--limit", "3", "--solvers", "minisat22", "--workers", "1", "--quiet"]
    code = run_command.main(argv)
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.startswith(f"benchmarks: {top95}:1: minisat22 (centrale) returned")
    assert "### norvig_top95" not in captured.out  # nothing reported


def test_unsat_contradicting_a_checked_solution_is_wrong(monkeypatch, public):
    class Unsat(WrongBackend):
        def solve(self, assumptions=()):
            return SolverResult("u", Status.UNSAT, (), NOT_AVAILABLE, 0, 0, 0, 1e-6)

    real = chunks.make_backend
    monkeypatch.setattr(
        chunks, "make_backend", lambda name, **kw: Unsat() if name == "up" else real(name, **kw)
    )
    data = read_dataset(str(public.set("top95")), Variant(), limit=1)
    result = run_chunk(ChunkTask(data.name, "centrale", ("minisat22", "up"), 0, data.puzzles))
    assert "up (centrale) answered UNSAT but the grid has a checked solution" in result.error


def test_default_datasets_are_the_files_of_data_sets(tmp_path, monkeypatch, capsys):
    write_grids(tmp_path / "a_4x4.txt", project_grids("sudoku4_minimal.txt", 3))
    write_grids(tmp_path / "b_6x6.txt", project_grids("sudoku6_minimal.txt", 2))
    (tmp_path / "notes.md").write_text("not a dataset")
    monkeypatch.setattr(harness, "SETS", tmp_path)
    assert run_command.main(["--solvers", "up,minisat22", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "### a_4x4: 3 of 3 grids, 4x4" in out
    assert "### b_6x6: 2 of 2 grids, 6x6" in out
    monkeypatch.setattr(harness, "SETS", tmp_path / "absent")
    assert benchmarks_main(["run", "--workers", "1"]) == 1  # the front end reports it
    assert "no dataset files here" in capsys.readouterr().err


def test_depths_settled_by_the_closures_match_the_rating(public):
    data = read_dataset(str(public.set("hardest")), Variant())
    by_closures = run_chunk(ChunkTask(data.name, "centrale", ("up", "fl", "fl2"), 0, data.puzzles))
    by_rater = run_chunk(ChunkTask(data.name, "centrale", ("dpll",), 0, data.puzzles))
    assert by_closures.depths == by_rater.depths
    assert sorted(by_rater.depths) == ["0"] + ["1"] * 8 + ["2"] * 2  # reference: 1, 9/11


def test_a_file_without_grids_is_skipped_with_a_note(tmp_path, capsys):
    empty = tmp_path / "sudoku9_depth2.txt"
    empty.write_text("# sudoku-sat generated puzzles: 0, 9x9, 3x3 boxes\n# geometry: --size 9\n")
    small = write_grids(tmp_path / "small_4x4.txt", project_grids("sudoku4_minimal.txt", 2))
    assert run_command.main([str(empty), str(small), "--solvers", "up", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert f"benchmarks: {empty}: no grids in this file, skipped" in captured.err
    assert "### small_4x4: 2 of 2 grids" in captured.out
    assert "### sudoku9_depth2" not in captured.out
    assert benchmarks_main(["run", str(empty), "--solvers", "up", "--quiet"]) == 1  # no grid
    assert "no grids in this file, skipped" in capsys.readouterr().err  # even with --quiet


def test_chunks_cut_at_fixed_positions(public):
    data = read_dataset(str(public.set("top95")), Variant())
    options = RunOptions(
        solvers=("up",), encodings=("centrale", "minimal"), chunk_size=40, timeout=1.0
    )
    tasks = make_tasks([data], options)
    assert [(t.encoding, t.first, len(t.puzzles)) for t in tasks] == [
        ("centrale", 0, 40),
        ("centrale", 40, 40),
        ("centrale", 80, 15),
        ("minimal", 0, 40),
        ("minimal", 40, 40),
        ("minimal", 80, 15),
    ]


# ------------------------------------------------------------------ slow: processes


def _without_times(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        del row["microseconds"]
    return rows


@pytest.mark.slow
def test_results_do_not_depend_on_workers(tmp_path, public):
    top95 = public.set("top95")
    hardest = public.set("hardest")
    common = ["--solvers", "up,fl,minisat22,glucose4", "--chunk-size", "20", "--quiet"]
    common += ["--timeout", "120"]  # a rating cut by a loaded machine's clock is no result
    for workers in (1, 2):
        result = run_cli(
            top95, hardest, *common, "--workers", workers, "--out", tmp_path / f"{workers}"
        )
        assert result.returncode == 0, result.stderr
    one, two = (_without_times(tmp_path / f"{w}" / "results.csv") for w in (1, 2))
    assert len(one) == (95 + 11) * 4
    assert one == two
    summaries = [
        [
            {k: v for k, v in s.items() if "us_" not in k and "second" not in k}
            for s in json.loads((tmp_path / f"{w}" / "results.json").read_text())["summaries"]
        ]
        for w in (1, 2)
    ]
    assert summaries[0] == summaries[1]


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_keeps_what_is_done(tmp_path, public):
    royle = public.set("royle17")
    argv = [royle, "--limit", "30000", "--chunk-size", "100", "--workers", "2"]
    with started([*argv, "--solvers", "up,fl,minisat22", "--out", tmp_path]) as process:
        assert wait_for_chunks(tmp_path / JOURNAL, process, 1)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "benchmarks: interrupted:" in stderr
    meta = json.loads((tmp_path / "results.json").read_text())["metadata"]
    assert meta["interrupted"] is True
    assert 0 < meta["grids_done"] < meta["grids_total"]
    assert "INTERRUPTED: partial results" in stdout
    rows = table_rows(stdout, "royle17_49158_tdoku")
    assert int(rows["up"][2].replace(",", "")) == meta["grids_done"]
    assert (tmp_path / JOURNAL).exists()  # kept for --resume


def test_at_most_one_encodings_in_the_harness_agree_on_propagation(tmp_path):
    """`--encodings centrale+AMO`: the same no-search figures as pairwise (every
    at-most-one encoding propagates completely), every answer checked by the harness,
    and the no-search heatmap written."""
    grids = write_grids(tmp_path / "nine.txt", project_grids("sudoku9_minimal.txt", 30))
    encodings = "centrale,centrale+sequential,centrale+product,centrale+bimander"
    result = run_cli(
        grids, "--solvers", "up,fl,cadical195", "--encodings", encodings, "--workers", "1",
        "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    figures = {}
    for s in document["summaries"]:
        figures.setdefault(s["encoding"], {})[s["solver"]] = s["without_search"]
    assert len(figures) == 4
    assert all(by_solver == figures["centrale"] for by_solver in figures.values())
    assert (tmp_path / "out" / "no_search.png").read_bytes()[:8] == PNG_MAGIC
    refused = run_cli(grids, "--encodings", "centrale+nothing")
    assert refused.returncode == 2 and "centrale+nothing" in refused.stderr


def table_rows_of(text: str) -> list[str]:
    """Return the cells of the one data row of a Markdown table."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert len(lines) == 3, text
    return [c.strip() for c in lines[2].strip("|").split("|")]


def test_length_adds_only_the_finer_ratings_each_on_its_own_scale(tmp_path):
    """--length adds the refutation length (grids of depth 0-1) and the BxB (depth 2),
    each in its own CSV column and table, and leaves every other figure as it was; by
    default neither is rated (both columns empty, no table)."""
    sets = [
        PROJECT / "data" / "sets" / f"{name}.txt" for name in ("sudoku9_depth1", "sudoku9_x_depth2")
    ]
    rows, outputs = {}, {}
    for flag in ("", "--length"):
        out = tmp_path / f"out{flag}"
        result = run_cli(*sets, "--limit", "4", "--solvers", "up,fl,fl2", "--workers", "1",
                         "--out", out, *([flag] if flag else []))  # fmt: skip
        assert result.returncode == 0, result.stderr
        outputs[flag] = result.stdout
        with open(out / "results.csv", encoding="utf-8", newline="") as handle:
            rows[flag] = [r for r in csv.DictReader(handle)]
    assert {(r["length"], r["bxb"]) for r in rows[""]} == {("", "")}
    assert "### Refutation length" not in outputs[""] and "### BxB" not in outputs[""]
    rated = rows["--length"]
    for row in rated:
        if row["depth"] == "2":
            assert row["length"] == "" and row["bxb"].isdigit(), row
        else:
            assert row["length"].isdigit() and row["bxb"] == "", row
    length_table = outputs["--length"].split("### Refutation length")[1].split("###")[0]
    bxb_table = outputs["--length"].split("### BxB")[1].split("###")[0]
    assert table_rows_of(length_table)[:3] == ["sudoku9_depth1", "centrale", "4"]
    assert table_rows_of(bxb_table)[:3] == ["sudoku9_x_depth2", "centrale", "4"]
    for plain, finer in zip(rows[""], rated, strict=True):
        for key in ("position", "solver", "status", "solved_without_search", "depth"):
            assert plain[key] == finer[key]


def test_a_budget_too_small_to_rate_anything_still_reports_every_grid(tmp_path):
    """Budgets of one unit: no rating, closure or CDCL search gets anywhere, and still
    every grid of every solver has its row, its depth label and its length label, the
    tables say how many grids reached their budget, and the run succeeds."""
    sets = [
        PROJECT / "data" / "sets" / f"{name}.txt" for name in ("sudoku9_depth1", "sudoku4_minimal")
    ]
    tiny = ["--budget", "work=1", "--budget", "searches=1", "--budget", "conflicts=1"]
    out = tmp_path / "out"
    result = run_cli(*sets, "--limit", "3", "--length", "--solvers", "up,fl,minisat22", *tiny,
                     "--out", out)  # fmt: skip
    assert result.returncode == 0, result.stderr
    with open(out / "results.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * 3 * 3  # two sets, three grids, three solvers
    nine = [r for r in rows if r["dataset"] == "sudoku9_depth1"]
    assert {r["depth"] for r in nine} == {">budget"}
    assert {r["length"] for r in nine} == {">budget"}
    assert {r["status"] for r in nine if r["solver"] == "fl"} == {"UNKNOWN"}
    assert all("work budget of 1 work units" in r["reason"] for r in nine if r["solver"] == "fl")
    # (the board reads its budget at hypothesis boundaries: a 4x4 grid that propagation
    # alone fills never meets one, so the count is of the grids that did)
    stopped = sum("work budget" in r["reason"] for r in rows if r["solver"] == "fl")
    assert stopped >= 3
    assert f"fl: {stopped} of 6 grids reached their work budget" in result.stderr
    assert "| >budget % |" in result.stdout.replace("   ", " ").replace("  ", " ")
    # the length table says the budget apart from what the rating left open
    lengths = result.stdout.split("### Refutation length", 1)[1].split("###", 1)[0]
    header, _, *body = (line for line in lengths.splitlines() if line.startswith("|"))
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in (header, *body)]
    nine_row = next(row for row in cells[1:] if row[0] == "sudoku9_depth1")
    shares = dict(zip(cells[0], nine_row, strict=True))
    assert shares[">budget %"] == "100.00" and shares["not rated %"] == "0.00"


@pytest.mark.parametrize("limit", [None, 7])
def test_a_plain_set_is_read_as_arrays_and_gives_the_grids_of_the_text_path(tmp_path, limit):
    """A file of grid lines only is read as arrays (`Dataset.plain`); the same grids with
    a comment line before them go through `read_puzzles`: the same grids, sources and
    counts, block by block; a clash among the grids that run is refused the same way,
    one past --limit is not read against the rules."""
    lines = [
        line
        for line in (PROJECT / "data" / "sets" / "sudoku9_minimal.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ][:20]
    plain, text = tmp_path / "plain.txt", tmp_path / "text.txt"
    plain.write_text("\n".join(lines) + "\n")
    text.write_text("\n".join(["# a comment", *lines]) + "\n")
    a, b = read_dataset(str(plain), limit=limit), read_dataset(str(text), limit=limit)
    assert a.plain is not None and b.plain is None
    assert (a.total, a.count, a.variant, a.size) == (b.total, b.count, b.variant, b.size)
    assert list(a.lines) == [line - 1 for line in b.lines]
    for (first_a, block_a), (first_b, block_b) in zip(a.blocks(6), b.blocks(6), strict=True):
        assert first_a == first_b
        assert [p.grid for p in block_a] == [p.grid for p in block_b]
        assert [p.geometry for p in block_a] == [p.geometry for p in block_b]
        assert [p.source.rsplit(":", 1)[1] for p in block_a] == [
            str(int(p.source.rsplit(":", 1)[1]) - 1) for p in block_b
        ]
    row = list(lines[12])
    first = next(c for c in range(9) if row[c] != ".")
    hole = next(c for c in range(9) if row[c] == ".")
    row[hole] = row[first]  # a value twice in row 0
    clash = "".join(row)
    for path, header in ((plain, []), (text, ["# a comment"])):
        path.write_text("\n".join([*header, *lines[:12], clash, *lines[13:]]) + "\n")
    if limit is None:
        with pytest.raises(Exception, match="given twice") as at_plain:
            read_dataset(str(plain))
        with pytest.raises(Exception, match="given twice") as at_text:
            read_dataset(str(text))
        assert (at_plain.value.line, at_text.value.line) == (13, 14)
        assert str(at_plain.value).split(":", 2)[-1] == str(at_text.value).split(":", 2)[-1]
    else:
        assert read_dataset(str(plain), limit=limit).count == limit
