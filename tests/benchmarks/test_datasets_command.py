"""`python -m benchmarks datasets ...` and catalogue names in every command, run as a
user runs them (subprocesses), with the machine's public sets hidden or given."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from puzzlesets import catalogue

FETCH_TOP95 = (
    "top95: not on this machine; fetch it with `python -m benchmarks datasets fetch top95`"
)


def run(args, env_extra=None):
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.fixture
def hidden(tmp_path):
    """Environment with no mirror and an empty cache: a fresh clone on a new machine."""
    return {"SUDOKU_SAT_MIRROR": "", "SUDOKU_SAT_DATA": str(tmp_path / "cache")}


def test_list_names_every_set():
    done = run(["benchmarks", "datasets", "list"])
    assert done.returncode == 0, done.stderr
    for name in catalogue():
        assert f"\n{name} " in done.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["benchmarks", "datasets", "path", "top95"],
        ["solvers", "rate", "top95"],
        ["benchmarks", "run", "top95", "--solvers", "up"],
        ["benchmarks", "unique", "top95"],
        ["encoder", "top95", "--index", "0"],
    ],
    ids=["path", "rate", "run", "unique", "encoder"],
)
def test_an_absent_set_is_one_line_naming_the_fetch_command(command, hidden):
    done = run(command, hidden)
    assert done.returncode == 1
    assert done.stderr.strip().endswith(FETCH_TOP95), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not os.path.exists(hidden["SUDOKU_SAT_DATA"])  # nothing fetched behind our back


def test_unknown_name_and_missing_arguments(hidden):
    done = run(["benchmarks", "datasets", "show", "top96"], hidden)
    assert done.returncode == 1 and "top96: no such puzzle set in the catalogue" in done.stderr
    done = run(["benchmarks", "datasets", "fetch"], hidden)
    assert done.returncode == 2 and "name at least one set" in done.stderr


def test_fetch_reports_a_refused_download_in_one_line(hidden):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**hidden, "SUDOKU_SAT_DOWNLOAD_BASE": f"http://127.0.0.1:{port}/"}
    done = run(["benchmarks", "datasets", "fetch", "top95", "--quiet"], env)
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("benchmarks: top95: http://127.0.0.1:")
    assert line.endswith(f"cannot download from 127.0.0.1:{port} (connection refused)")


def test_fetch_copies_a_mirror_file_and_verify_checks_it(public, tmp_path):
    source = public.set("hardest")
    mirror, cache = tmp_path / "mirror", tmp_path / "cache"
    mirror.mkdir()
    shutil.copy(source, mirror / source.name)
    env = {"SUDOKU_SAT_MIRROR": str(mirror), "SUDOKU_SAT_DATA": str(cache)}
    done = run(["benchmarks", "datasets", "fetch", "hardest"], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"hardest\t{cache / source.name}\n"
    assert (cache / source.name).read_bytes() == source.read_bytes()
    done = run(["benchmarks", "datasets", "verify"], env)
    assert done.returncode == 0
    assert done.stdout.count("OK    hardest") == 2  # the cache and the mirror
    (mirror / source.name).write_text("1" * 81 + "\n")  # a copy gone wrong
    done = run(["benchmarks", "datasets", "verify", "hardest"], env)
    assert done.returncode == 1 and "FAIL  hardest" in done.stdout and "checksum" in done.stdout


def test_names_work_in_the_commands(public):
    public.set("hardest"), public.set("andoku-x")
    done = run(["solvers", "rate", "hardest", "--max-depth", "1"])
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 11
    done = run(["benchmarks", "run", "andoku-x", "--limit", "3", "--solvers", "up", "--quiet"])
    assert done.returncode == 0, done.stderr
    assert "### andoku-x: 3 of 500 grids" in done.stdout
    assert "flags `--diagonals` (catalogue)" in done.stdout
    done = run(["encoder", "andoku-x", "--index", "0"])
    assert done.returncode == 0 and "c geometry: 9x9, 3x3 boxes, diagonals" in done.stdout


def test_a_set_of_mixed_layouts_is_refused_by_name(public):
    public.set("sudoku6x6-all")
    done = run(["solvers", "rate", "sudoku6x6-all"])
    assert done.returncode == 1 and "several layouts" in done.stderr
