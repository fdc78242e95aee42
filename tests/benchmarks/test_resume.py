"""`benchmarks run --out DIR --resume`: a run killed at a random moment (SIGKILL of the
command alone, or a terminal's Ctrl-C), then resumed, perhaps killed again, ends with
the results.json and results.csv of a run never interrupted (times and metadata apart);
a journal of another run is refused in one line."""

from __future__ import annotations

import os
import random
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from benchmark_processes import csv_rows, figures, group_left, started, wait_for

from benchmarks import run as run_command
from benchmarks.journal import FILE
from benchmarks.paths import DATA, PROJECT

# Two variants, 7 of the 250 grids of depth 2: the BxB rating of a depth-2 grid costs about a
# second, and what is tested here is the journal, not the rating (the X set of depth 2 made
# one run cost over a minute of processor time).
SETS = [DATA / "sets" / "sudoku9_depth1.txt", DATA / "sets" / "sudoku9_x_minimal.txt"]
OPTIONS = ["--limit", "150", "--chunk-size", "15", "--solvers", "up,fl,minisat22", "--quiet"]
OPTIONS += ["--length"]  # the finer ratings: a run long enough to be cut short (over 6 s)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The outputs of the run never interrupted (one worker, in this process)."""
    out = tmp_path_factory.mktemp("reference")
    assert run_command.main([*map(str, SETS), *OPTIONS, "--workers", "1", "--out", str(out)]) == 0
    assert not (out / FILE).exists()  # deleted once the run is complete
    return figures(out), csv_rows(out)


def _kill_and_resume(out, seed: int, how: signal.Signals, workers: str) -> int:
    """Run, kill at random moments, resume until complete; return the kills that landed."""
    moments = random.Random(seed)
    kills = 0
    for attempt in range(8):
        argv = [*SETS, *OPTIONS, "--workers", workers, "--out", out]
        with started([*argv, "--resume"] if attempt else argv) as process:
            if wait_for(out / FILE, process) and attempt < 6:
                time.sleep(moments.uniform(0.0, 6.0))
                if process.poll() is None:
                    if how is signal.SIGKILL:
                        process.kill()  # the command alone: its workers must follow
                    else:
                        os.killpg(process.pid, how)  # a terminal's Ctrl-C
                    kills += 1
            stdout, stderr = process.communicate(timeout=300)
            assert "Traceback" not in stderr, stderr
            assert group_left(process.pid) == []
        if process.returncode == 0:
            return kills
        if not (out / FILE).exists():  # the kill landed after the run's last step, the
            return kills  # journal's removal: complete, and nothing left to resume
        expected = -signal.SIGKILL if how is signal.SIGKILL else 130
        assert process.returncode == expected, stderr
        if how is signal.SIGINT:
            # Stopped while chunks ran, the report says its results are partial.  A
            # Ctrl-C after the last chunk (the whole report printed, the files being
            # written) ends the command with 130 too, and the resume writes the files.
            partial = "INTERRUPTED: partial results" in stdout
            assert partial or ("wall time" in stdout and "INTERRUPTED" not in stdout), stdout
    raise AssertionError("the run never completed")


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed, how, workers",
    [(1, signal.SIGKILL, "2"), (2, signal.SIGKILL, "1"), (3, signal.SIGINT, "2")],
)
def test_a_run_killed_at_random_moments_resumes_to_the_same_results(
    reference, tmp_path, seed, how, workers
):
    out = tmp_path / "out"
    kills = _kill_and_resume(out, seed, how, workers)
    assert kills >= 1  # at least the first try is cut short (a run lasts longer than 6 s)
    assert figures(out) == reference[0]
    assert csv_rows(out) == reference[1]
    assert not (out / FILE).exists()


def test_a_journal_of_another_run_is_refused_in_one_line(tmp_path, capsys):
    out = str(tmp_path / "out")
    first = [str(SETS[0]), "--limit", "30", "--chunk-size", "10", "--workers", "1", "--quiet"]
    (tmp_path / "out").mkdir()
    journal = run_command.Journal(tmp_path / "out", {"solvers": ["up"], "code": "x"}, resume=False)
    journal.close()
    from benchmarks.__main__ import main

    assert main(["run", *first, "--solvers", "up,fl", "--out", out]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"benchmarks: {out}/{FILE}: the journal of an unfinished run: add --resume to finish "
        "it, or delete it to start afresh\n"
    )
    assert main(["run", *first, "--solvers", "up,fl", "--out", out, "--resume"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{out}/{FILE}: written for other solvers (" in err
    with pytest.raises(SystemExit):
        run_command.main([*first, "--resume"])  # --resume without --out: a usage error
    assert "--resume needs --out DIR" in capsys.readouterr().err


def test_a_full_disk_is_one_line_and_resume_finishes(tmp_path, monkeypatch, capsys):
    """SQLite's page limit stands for a full disk: the commit that does not fit fails
    whole, the run stops with one line, and --resume (with room again) finishes with the
    outputs of a run that had room throughout (a run without the finer ratings: what is
    tested is the journal, not the ratings)."""
    from benchmarks import journal as journal_module
    from benchmarks.__main__ import main

    options = [opt for opt in OPTIONS if opt != "--length"]
    roomy = tmp_path / "roomy"
    assert main(["run", *map(str, SETS), *options, "--workers", "1", "--out", str(roomy)]) == 0

    real_connect = sqlite3.connect

    def small_disk(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        db.execute("PRAGMA max_page_count = 6")  # 24 KiB at most
        return db

    out = tmp_path / "out"
    argv = ["run", *map(str, SETS), *options, "--workers", "1", "--out", str(out)]
    capsys.readouterr()
    monkeypatch.setattr(journal_module.sqlite3, "connect", small_disk)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err == f"benchmarks: {out}/{FILE}: cannot commit a chunk (database or disk is full)\n"
    monkeypatch.setattr(journal_module.sqlite3, "connect", real_connect)
    assert main([*argv, "--resume"]) == 0
    assert figures(out) == figures(roomy)
    assert csv_rows(out) == csv_rows(roomy)


def test_resume_without_a_journal_is_refused_naming_the_folder(tmp_path, capsys):
    """A run that does not exist was most likely mistyped: everything ran again, without
    a word."""
    out = tmp_path / "ouy"  # the run's folder is "out"
    argv = [str(SETS[0]), "--limit", "3", "--solvers", "up", "--out", str(out), "--resume"]
    assert run_command.main(argv) == 2
    err = capsys.readouterr().err
    assert err == (
        f"benchmarks: {out}: no run journal ({FILE}) to resume: is it the run's folder? (a "
        "run that finished leaves none; without --resume a new run starts there)\n"
    )
    assert not out.exists()


def test_a_chunk_that_does_not_fit_on_a_full_disk_says_so(tmp_path, monkeypatch):
    from benchmarks import journal as journal_module

    journal = journal_module.Journal(tmp_path, {"solvers": ["up"]}, resume=False)
    journal.commit(0, b"fits")
    journal.db.execute("PRAGMA max_page_count = 6")  # SQLITE_FULL, as on a full disk
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(journal_module.shutil, "disk_usage", lambda _: usage._replace(free=12_288))
    with pytest.raises(journal_module.JournalError) as caught:
        journal.commit(1, os.urandom(100_000))
    assert caught.value.message == (
        "cannot commit a chunk: the disk is full (No space left on device, 12,288 bytes "
        "free; SQLite: database or disk is full); --resume finishes the run once there is room"
    )
    assert journal.done() == {0}  # the journal as it was before the chunk
    journal.close()


def _private_mount_namespace() -> list[str] | None:
    """Return the command that runs a shell in a mount namespace of its own (where a
    tmpfs may be mounted without touching the machine's mounts), or None."""
    if shutil.which("unshare") is None:
        return None
    for unshare in (["unshare", "--mount"], ["unshare", "--user", "--map-root-user", "--mount"]):
        probe = [*unshare, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]
        if subprocess.run(probe, capture_output=True, timeout=60).returncode == 0:
            return unshare
    return None


@pytest.mark.parametrize("free_kib", [0, 24])  # SQLite: "disk is full", "disk I/O error"
def test_a_full_disk_under_out_says_so_and_leaves_no_journal(tmp_path, free_kib):
    """A real full disk: a 64 KiB tmpfs (in a mount namespace of the test's own), filled
    but for `free_kib`.  It was `journal.sqlite: not a run journal (disk I/O error)`,
    and the half-made journal stayed behind (the next run took it for an unfinished
    one)."""
    unshare = _private_mount_namespace()
    if unshare is None:
        pytest.skip("cannot mount a small tmpfs here (needs root, or user namespaces)")
    disk = tmp_path / "disk"
    disk.mkdir()
    grids = tmp_path / "grids.txt"
    grids.write_text("..12....4.3.....\n")
    run = [sys.executable, "-m", "benchmarks", "run", str(grids), "--solvers", "up"]
    run += ["--workers", "1", "--quiet", "--out", f"{disk}/out"]
    script = (
        f"mount -t tmpfs -o size=64k tmpfs {disk} && mkdir {disk}/out && "
        f"(dd if=/dev/zero of={disk}/fill bs=1k count={64 - free_kib} 2>/dev/null; true) && "
        f"{shlex.join(run)}; code=$?; ls -A {disk}/out; exit $code"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [*unshare, "sh", "-c", script], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"benchmarks: {disk}/out/{FILE}: cannot write the run journal: the disk is full (No "
        "space left on device"
    ), done.stderr
    assert done.stdout == "", "left behind: " + done.stdout
