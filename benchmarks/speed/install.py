"""Question 11: the project as installed (issue 35).

a. The dependencies: the installed size of every distribution the project's installed
   distribution requires, directly or not (its metadata's requirements, extras followed,
   markers evaluated), from the files each one's metadata lists (RECORD), against the
   issue's bound of 273 MB.  Read in this interpreter, and with `--install` in the
   fresh environment of part b too (whose project metadata is the code's own,
   not that of an older editable install).
b. With `--install` (off by default: a build takes a minute or more): the project's
   files copied to a temporary folder, `pip install .` there into a fresh virtual
   environment (`--system-site-packages`, `--no-index`, `--no-build-isolation`: the
   dependencies and the build's tools come from this interpreter, no network), timed
   with its build; then `python -m solvers rate EASTER_MONSTER` from another folder,
   the first run as a whole process (start-up and any compiling included), and a second
   run beside it.  The copy imported is checked to be the installed one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from benchmarks.paths import PROJECT
from benchmarks.speed.bxb import EASTER_MONSTER
from benchmarks.speed.common import PROG
from benchmarks.speed.record import Record

PROJECT_NAME = "sudoku-sat"
MB = 1e6
STEP_TIMEOUT = 1800  # seconds for one step of the install (a build under heavy load)
# What a copy of the checkout leaves out: what a fresh clone has not (builds, caches,
# compiled extensions).
LEFT_OUT = shutil.ignore_patterns(
    ".git", "__pycache__", "build", "*.egg-info", "*.so", ".hypothesis", ".ruff_cache",
    ".benchmarks", ".pytest_cache",
)  # fmt: skip
# Run by the fresh environment's interpreter: its own view of the dependencies.
SIZES_THERE = (
    "import json; from benchmarks.speed.install import dependency_sizes; "
    "print(json.dumps(dependency_sizes()))"
)


def _key(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def dependency_sizes(project: str = PROJECT_NAME) -> dict:
    """Return the installed dependencies of `project` as its metadata says:
    {"version": the project's, "sizes": {name: bytes}, "missing": [required, not
    installed]}, the project itself left out."""
    from packaging.requirements import Requirement

    sizes: dict[str, int] = {}
    missing: list[str] = []
    seen: set[tuple[str, frozenset]] = set()
    todo: list[tuple[str, frozenset]] = [(project, frozenset())]
    while todo:
        name, extras = todo.pop()
        if (_key(name), extras) in seen:
            continue
        seen.add((_key(name), extras))
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        if _key(name) != _key(project) and _key(name) not in sizes:
            sizes[_key(name)] = _installed_bytes(dist)
        for line in dist.requires or ():
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras or {""}):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return {"version": metadata.version(project), "sizes": sizes, "missing": sorted(missing)}


def _installed_bytes(dist: metadata.Distribution) -> int:
    """Return the size of the files a distribution's RECORD lists (0 without one)."""
    total = 0
    for file in dist.files or ():
        path = Path(str(file.locate()))
        if path.is_file():
            total += path.stat().st_size
    return total


def report_sizes(found: dict, where: str, record: Record) -> None:
    """Print and record the dependencies' installed size."""
    sizes = found["sizes"]
    total = sum(sizes.values()) / MB
    key = "11.deps." + where.split()[0]
    record.figure(f"{key}.total", total, "MB")
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:5]
    print(f"   dependencies of {PROJECT_NAME} {found['version']} ({where}): {len(sizes)} "
          f"distributions, {total:.1f} MB installed; largest "
          f"{', '.join(f'{n} {b / MB:.1f}' for n, b in largest)} MB"
          + (f"; required, not installed: {', '.join(found['missing'])}"
             if found["missing"] else ""))  # fmt: skip
    print(record.target("deps-size", total, where))


def installed(install: bool, record: Record) -> None:
    """Question 11 (see the module docstring): part a here, and with `install` part b and
    part a in its fresh environment."""
    print("\n11. the project as installed")
    try:
        report_sizes(dependency_sizes(), "this interpreter", record)
    except metadata.PackageNotFoundError:  # run from a checkout that pip never installed
        record.skipped(f"deps-size: {PROJECT_NAME} is not installed in this interpreter")
        print(f"   dependencies: not measured ({PROJECT_NAME} is not installed here)")
    if not install:
        record.skipped("install-first-rate: --install not given")
        print("   pip install . into a fresh environment: not measured (--install)")
        return
    with tempfile.TemporaryDirectory(prefix="sudoku-install-") as tmp:
        fresh_install(Path(tmp), record)


def _run(command: list[str], cwd: Path) -> tuple[float, str]:
    """Run a command with this interpreter's environment less PYTHONPATH and PYTHONHOME;
    return (wall seconds, its stdout); stop the benchmark when it fails."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=STEP_TIMEOUT, check=False)  # fmt: skip
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{PROG}: {' '.join(command)} failed ({done.returncode}): "
                         f"{(done.stderr or done.stdout)[-1500:]}")  # fmt: skip
    return wall, done.stdout


def fresh_install(folder: Path, record: Record) -> None:
    """Part b in `folder`: copy, venv, pip install ., the first and second rate."""
    source, venv, elsewhere = folder / "source", folder / "venv", folder / "elsewhere"
    shutil.copytree(PROJECT, source, ignore=LEFT_OUT)
    elsewhere.mkdir()
    venv_s, _ = _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], folder)
    python = str(venv / "bin" / "python")
    pip_s, _ = _run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                     "--disable-pip-version-check", "--no-input", "-q", "."], source)  # fmt: skip
    rate = [python, "-m", "solvers", "rate", EASTER_MONSTER]
    first, answer = _run(rate, elsewhere)
    second, _ = _run(rate, elsewhere)
    _, where = _run([python, "-c", "import solvers; print(solvers.__file__)"], elsewhere)
    if not Path(where.strip()).is_relative_to(venv):
        raise SystemExit(f"{PROG}: the fresh environment imported another copy: {where}")
    record.figure("11.install.venv", venv_s, "s")
    record.figure("11.install.pip_install", pip_s, "s")
    record.figure("11.install.first_rate", first, "s")
    record.figure("11.install.second_rate", second, "s")
    print(
        f"   a fresh environment: venv {venv_s:.1f} s, pip install . (build included) "
        f"{pip_s:.1f} s; python -m solvers rate EASTER_MONSTER from another folder: "
        f"first run {first:.2f} s, second {second:.2f} s (its line after the grid: "
        f"{' '.join(answer.split()[2:])})"
    )
    print(record.target("install-first-rate", first))
    _, sizes = _run([python, "-c", SIZES_THERE], elsewhere)
    report_sizes(json.loads(sizes), "the fresh environment", record)
