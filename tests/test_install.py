"""Installed, it works anywhere: a wheel of the project, installed (not editable) into a
fresh virtual environment, runs the README's main command from a folder outside the
checkout, on the project's own puzzle sets shipped inside the package, and from the
checkout itself (no build in place: the installed extensions, from the same sources).

No network: the wheel is built without build isolation and installed without
dependencies into a venv that sees this interpreter's packages (numpy, PySAT, ...)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
LEFT_OUT = shutil.ignore_patterns(
    ".git", "__pycache__", "build", "*.egg-info", ".hypothesis", ".ruff_cache", ".benchmarks"
)


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float):
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.mark.slow
def test_a_wheel_installed_in_a_fresh_venv_runs_the_main_command_anywhere(tmp_path):
    pytest.importorskip("wheel", reason="building a wheel without isolation needs `wheel`")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    source = tmp_path / "source"  # a copy: building writes build/ and *.egg-info
    shutil.copytree(PROJECT, source, ignore=LEFT_OUT)
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
          str(source)], tmp_path, env, 600)  # fmt: skip
    [wheel] = wheels.glob("sudoku_sat-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp_path, env, 300)
    python = str(venv / "bin" / "python")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-q", str(wheel)],
         tmp_path, env, 600)  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = _run(
        [python, "-c", "import benchmarks; print(benchmarks.__file__)"], elsewhere, env, 60
    )
    assert Path(found.stdout.strip()).is_relative_to(venv), "imported another copy"
    # The README's main command, on a few grids of each set.
    done = _run([python, "-m", "benchmarks", "run", "--out", "results", "--limit", "2",
                 "--workers", "1", "--quiet"], elsewhere, env, 900)  # fmt: skip
    shipped = sorted(p.stem for p in (PROJECT / "data" / "sets").glob("*.txt"))
    with open(elsewhere / "results" / "results.csv", encoding="utf-8") as handle:
        sets = sorted({row["dataset"] for row in csv.DictReader(handle)})
    assert sets == shipped
    assert "no dataset files here" not in done.stderr
    # From the checkout itself, whose own `solvers` comes first on the path and has no
    # build in place: the installed extensions, compiled from the same sources, load.
    for built in (source / "solvers" / "core").glob("_*.so"):
        built.unlink()
    here = [python, "-m", "benchmarks", "run", "data/sets/sudoku4_minimal.txt", "--limit", "1",
            "--workers", "1", "--quiet", "--out", str(tmp_path / "here")]  # fmt: skip
    _run(here, source, env, 300)
    # A checkout whose C sources changed since: no stale build is taken for its own.
    with open(source / "solvers" / "core" / "native" / "boundary" / "codes.c", "a") as handle:
        handle.write("/* changed */\n")
    stale = subprocess.run([python, "-c", "import solvers.core"], cwd=source, env=env,
                           capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert stale.returncode != 0
    assert "was built from other sources: run `pip install -e .`" in stale.stderr
