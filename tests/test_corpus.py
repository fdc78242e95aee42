"""The bad-input corpus (tests/corpus): every case's exit code and stderr message.

Cases run in-process through the front end's `main(argv)` (fast: no interpreter
start-up per case), except those marked `subprocess = true`, which need a process
of their own: a signal sent after some seconds, a peak-memory limit, or a time limit.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
FILES = CORPUS / "files"
PROJECT = Path(__file__).parent.parent
FRONT_ENDS = {"encoder", "solvers", "benchmarks"}
ALLOWED_KEYS = {
    "name",
    "command",
    "exit",
    "stderr",
    "stdout",
    "stdin",
    "subprocess",
    "timeout",
    "interrupt_after",
    "max_rss_mb",
    "why",
}


def load_cases() -> list[dict]:
    cases = []
    for table in sorted(CORPUS.glob("cases_*.toml")):
        with table.open("rb") as handle:
            for case in tomllib.load(handle).get("case", []):
                case["table"] = table.name
                cases.append(case)
    return cases


CASES = load_cases()


def test_corpus_is_well_formed():
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    for case in CASES:
        unknown = set(case) - ALLOWED_KEYS - {"table"}
        assert not unknown, f"{case['name']}: unknown keys {unknown}"
        assert case["command"][0] in FRONT_ENDS, case["name"]
        assert isinstance(case["exit"], int), case["name"]
        for argument in case["command"]:
            for name in re.findall(r"\{files\}/([^\s=]+)", argument):
                assert (FILES / name).exists(), f"{case['name']}: missing corpus file {name}"


def _arguments(case: dict, tmp_path: Path) -> list[str]:
    return [
        arg.replace("{files}", str(FILES)).replace("{tmp}", str(tmp_path))
        for arg in case["command"]
    ]


def _in_process(case: dict, argv: list[str]) -> tuple[int, str, str]:
    module = importlib.import_module(f"{argv[0]}.__main__")
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO(case.get("stdin", ""))
    old_stdin = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = module.main(argv[1:])
            except SystemExit as leaving:  # argparse usage errors
                code = leaving.code if isinstance(leaving.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


# Runs a front end as `python -m` would and writes its peak resident memory (KiB) to a
# file at exit, so that a case can bound the memory of the command alone.  Linux's
# VmHWM belongs to the process's own address space; ru_maxrss would also count the
# parent's resident memory at the fork (pytest's, hundreds of MB late in a run).
_MEASURED = (
    "import atexit, resource, runpy, sys\n"
    "path = sys.argv[1]  # before sys.argv becomes the module's\n"
    "def peak():\n"
    "    try:\n"
    "        with open('/proc/self/status') as f:\n"
    "            return next(l.split()[1] for l in f if l.startswith('VmHWM:'))\n"
    "    except (OSError, StopIteration):\n"
    "        return str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    "def report():\n"
    "    with open(path, 'w') as f:\n"
    "        f.write(peak())\n"
    "atexit.register(report)\n"
    "module = sys.argv[2]\n"
    "sys.argv = [module, *sys.argv[3:]]\n"
    "runpy.run_module(module, run_name='__main__', alter_sys=True)\n"
)


def _as_subprocess(case: dict, argv: list[str], tmp_path: Path) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    process = subprocess.Popen(
        [sys.executable, "-c", _MEASURED, str(tmp_path / "peak-rss-kib"), *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
        # a suite started in the background (`pytest &`) has SIGINT ignored, and a child
        # inherits that: the Ctrl-C cases need the default disposition whoever starts them
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    limit = case.get("timeout", 120)
    started = time.monotonic()
    if "interrupt_after" in case:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=case["interrupt_after"])
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(case.get("stdin", ""), timeout=limit)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"{case['name']}: still running after {limit} s\n{err[-2000:]}")
    if "interrupt_after" in case:
        # honoured within about a second, then the outputs kept so far are written (a
        # plot imports matplotlib): a wide margin, since CI shares a loaded machine
        waited = time.monotonic() - started - case["interrupt_after"]
        assert waited < 15.0, f"{case['name']}: took {waited:.1f} s to stop after SIGINT"
    if "max_rss_mb" in case:
        peak = int((tmp_path / "peak-rss-kib").read_text()) / 1024
        assert peak <= case["max_rss_mb"], f"{case['name']}: peak memory {peak:.0f} MB"
    return process.returncode, out, err


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case, tmp_path):
    argv = _arguments(case, tmp_path)
    if case.get("subprocess"):
        code, out, err = _as_subprocess(case, argv, tmp_path)
    else:
        code, out, err = _in_process(case, argv)
    shown = f"exit {code}\n--- stdout\n{out[-1500:]}\n--- stderr\n{err[-1500:]}"
    assert "Traceback" not in err, shown
    assert code == case["exit"], shown
    if "stderr" in case:
        assert re.search(case["stderr"], err), shown
    if "stdout" in case:
        assert re.search(case["stdout"], out), shown
    if code in (1, 130):
        last = err.rstrip("\n").rsplit("\n", 1)[-1]
        problem = f"the last stderr line is not '{argv[0]}: ...'"
        assert re.match(rf"{argv[0]}: \S", last), f"{problem}\n{shown}"
    said = case.get("stderr", "")
    if code == 2 and said.startswith("argument --") and "not allowed with" not in said:
        # a value an option refused (not options that exclude each other, a command line
        # of the wrong shape, which keeps its usage): one line, not a screen of usage
        assert len(err.strip("\n").splitlines()) == 1, f"not one line\n{shown}"
