"""A full disk while numba writes its cache for the first time: the command runs (the
kernels compiled in memory), says so in one line, and exits as it would have; no
traceback.  The full disk is a 64 KiB tmpfs, filled, as numba's cache folder: mounting
it needs root (CI runs as root); elsewhere the test skips, saying why."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from benchmarks.paths import PROJECT

MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


@pytest.fixture
def full_disk(tmp_path):
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, text=True, check=False)  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):  # unbuffered: nothing left to flush at close
                pass
        except OSError:
            pass  # full
        finally:
            os.close(fd)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.slow
def test_a_full_disk_under_the_kernel_cache_is_one_line_and_the_answer(full_disk):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(full_disk)}
    result = subprocess.run(
        [sys.executable, "-m", "solvers", "rate", MONSTER],  # the length rating: numba
        cwd=PROJECT, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.split("\t")[2:4] == ["2", "6"]  # depth and BxB, all the same
    said = [line for line in result.stderr.splitlines() if "cannot save the compiled" in line]
    assert len(said) == 1 and "No space left on device" in said[0]
