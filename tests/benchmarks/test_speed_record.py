"""`benchmarks speed` as data: the targets table is complete and well formed, a quick run
on tiny inputs writes a record that `--compare` reads back, a record compared with
itself gives ratios of 1.00, and a checked figure becomes a line and a record entry.
Bad records (one line, exit 1) are corpus cases (tests/corpus/cases_benchmarks.toml)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

from benchmarks.paths import PROJECT
from benchmarks.speed import record as records
from benchmarks.speed.targets import BY_ID, TARGETS, UNITS

PACKAGE = PROJECT / "benchmarks" / "speed"
TINY = PROJECT / "tests" / "corpus" / "files" / "grid-9x9-depth1.txt"
SETS = ["--seventeen", str(TINY), "--hardest", str(TINY), "--deeper", str(TINY)]
TINY_RUN = [*SETS, "--limit", "1", "--skip-commands", "--skip-proofs", "--skip-bxb",
            "--skip-main-job", "--skip-harness", "--quiet"]  # fmt: skip
# Issue 34's targets, each measured on the native core (question 9) or by the commands.
ISSUE_34 = {"core-up-batch", "core-up-call", "core-fl-batch",
            "core-d2-closure", "core-d2-vs-solve", "core-d3-loop", "rate-royle17",
            "rate-one-grid", "core-clauses-up"}  # fmt: skip
# The questions of benchmarks/speed/__init__.py (there is no 8: numbers are never reused).
QUESTIONS = {"1", "2", "3a", "3b", "4", "5", "6", "7", "9", "10", "11", "12", "13", "14"}
# Issue 35's, each with the question that measures it.
ISSUE_35 = {"rate-length-royle17": "4", "bxb-median-cpu": "7", "bxb-easter-cpu": "7",
            "count-vs-solve": "10", "install-first-rate": "11", "deps-size": "11"}  # fmt: skip
# Issue 32's, the README's main job (question 12).
ISSUE_32 = {"main-job-wall": "12"}
# Issue 43's, the harness at its kernels' speed (question 13) and the main job's workers.
ISSUE_43 = {"main-job-cpu": "12", "run-vs-rate": "13", "harness-million": "13",
            "harness-memory-200k": "13", "harness-memory-million": "13"}  # fmt: skip
# Issue 44's, search on the board (question 14).
ISSUE_44 = dict.fromkeys(("count2-vs-solve", "enumerate-rate", "unique-list",
                          "generate-minimal-9x9", "generate-minimal-25x25", "stats-exact"),
                         "14")  # fmt: skip


def test_the_targets_table_is_well_formed():
    assert len(BY_ID) == len(TARGETS), "target ids are unique"
    for target in TARGETS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", target.id), target
        assert target.question in QUESTIONS, target
        assert target.unit in UNITS, target
        assert isinstance(target.bound, int | float) and target.bound >= 0, target
        assert isinstance(target.issue, int) and target.issue > 0, target
        assert target.label and target.measures and target.baseline, target
        assert isinstance(target.at_most, bool)
    assert {t.id for t in TARGETS if t.issue == 34} == ISSUE_34
    assert {t.id: t.question for t in TARGETS if t.issue == 35} == ISSUE_35
    assert {t.id: t.question for t in TARGETS if t.issue == 32} == ISSUE_32
    assert {t.id: t.question for t in TARGETS if t.issue == 43} == ISSUE_43
    assert {t.id: t.question for t in TARGETS if t.issue == 44} == ISSUE_44


def test_every_checked_target_is_in_the_table_and_every_target_is_checked():
    """The questions name targets by id: each id they check is in the table, each of the
    table's ids is checked by some question (by its literal id in the source)."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    checked = set(re.findall(r"""record\.target\(\s*["']([a-z0-9-]+)["']""", source))
    checked |= set(re.findall(r"""["']([a-z0-9]+(?:-[a-z0-9]+)+)["']""", source)) & set(BY_ID)
    assert checked - set(BY_ID) == set()
    assert set(BY_ID) - checked == set(), "targets no question checks"


def test_no_bound_is_written_inside_a_print():
    """The bounds live in the table: no question prints a literal 'target <= 0.5x'."""
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"target [<>]= ?[\d.]", text), path.name


@pytest.mark.parametrize(
    ("target", "value", "line", "met"),
    [
        ("up-call", 0.25, "   per call, engine / Minisat22 (medians): 0.25x "
         "(target <= 0.5x, issue 14: met)", True),
        ("rate-length-speed", 764.5, "   rate (default) grids/s: 764.500 grids/s "
         "(target >= 5000 grids/s, issue 23: not met)", False),
        ("core-d2-closure", float("nan"), "   depth-2 closure median, core: n/a "
         "(target <= 0.8 ms, issue 34: not met)", False),
    ],
)  # fmt: skip
def test_a_checked_target_is_a_line_and_an_entry(target, value, line, met):
    record = records.Record()
    assert record.target(target, value) == line
    (entry,) = record.checks
    assert entry["id"] == target and entry["met"] is met and entry["where"] == ""
    assert entry["value"] is None if math.isnan(value) else entry["value"] == value
    records.check(json.loads(records.dumps(record.document({}))))


def speed(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks", "speed", *argv],
                          capture_output=True, text=True, cwd=PROJECT, check=False)  # fmt: skip


def test_a_tiny_run_writes_a_record_that_compare_reads_back(tmp_path, capsys):
    out = tmp_path / "speed.json"
    done = speed(*TINY_RUN, "--out", str(out))
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    records.check(document)
    meta = document["metadata"]
    for key in ("date", "python", "packages", "cpu", "cores", "git_commit", "argv"):
        assert key in meta, key
    assert meta["argv"][:2] == ["benchmarks", "speed"]
    figures = {f["id"]: f for f in document["figures"]}
    assert figures["1.minisat22.call.median"]["unit"] == "us"
    assert figures["9.up.core.call.median"]["value"] > 0
    checked = {t["id"] for t in document["targets"]}
    assert ISSUE_34 - {"rate-royle17", "rate-one-grid"} <= checked  # the commands skipped
    assert any("rate-royle17" in why for why in document["not_measured"])
    # Counting (question 10) and the dependencies (11) are measured; the install is not.
    assert {"count-vs-solve", "deps-size"} <= checked
    assert any("install-first-rate" in why for why in document["not_measured"])
    assert any("main-job-wall" in why for why in document["not_measured"])
    # Every target line printed is an entry of the record, and the other way round.
    lines = re.findall(r"\(target [<>]= .*, issue \d+: (met|not met)\)$", done.stdout, re.M)
    assert len(lines) == len(document["targets"])
    assert [t["met"] for t in document["targets"]] == [m == "met" for m in lines]

    # A record compared with itself: every ratio 1.00 (n/a for a figure of 0).
    same = speed("--compare", str(out), str(out))
    assert same.returncode == 0, same.stderr
    assert "### Metadata\n\n- the same" in same.stdout
    ratios = re.findall(r"\|\s+([\d.]+|n/a)\s+\|(?:\s+(?:met|not met)\s+\|){0,2}$",
                        same.stdout, re.M)  # fmt: skip
    # Figure ids start with their question's number, target ids are words and dashes.
    rows = [line for line in same.stdout.splitlines() if re.match(r"\| (\d|[a-z0-9]+-)", line)]
    assert len(ratios) == len(rows) == len(document["figures"]) + len(document["targets"])
    zero = {f["id"] for f in document["figures"] if not f["value"]}
    assert ratios.count("n/a") == len(zero)
    assert set(ratios) <= {"1.00", "n/a"}

    # One record against a fresh run, in-process.
    from benchmarks.speed.command import main

    assert main([*TINY_RUN, "--skip-core", "--compare", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"A = {out}\nB = this run" in printed
    assert "figure only in A: 9.up.core.call.median" in printed  # --skip-core
    assert re.search(r"^\| up-call +\| +\| 0.5 x ", printed, re.M)


def test_the_dependencies_are_read_from_the_installed_metadata():
    """Question 11's sizes: every distribution the project requires, directly or not, with
    the size of its files; the project itself left out."""
    from benchmarks.speed.install import PROJECT_NAME, dependency_sizes

    found = dependency_sizes()
    assert found["sizes"]["numpy"] > 0 and found["sizes"]["python-sat"] > 0
    assert "contourpy" in found["sizes"]  # matplotlib's own: followed
    assert PROJECT_NAME not in found["sizes"] and found["version"]
