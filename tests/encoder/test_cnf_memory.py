"""A CNF this process has not the memory to read is one line naming the file, exit 1:
the reader's MemoryError (a 1 GB CNF under `ulimit -v 1.2GB`) never reaches the user as
a traceback."""

from __future__ import annotations

import contextlib
import io

import encoder.dimacs as dimacs
from solvers.__main__ import main


def test_a_cnf_beyond_memory_is_one_line(monkeypatch, tmp_path):
    path = tmp_path / "big.cnf"
    path.write_text("p cnf 2 1\n1 -2 0\n", encoding="utf-8")

    def short_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(dimacs, "_tokens", short_of_memory)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["solve", str(path)])
    assert code == 1
    assert err.getvalue() == f"solvers: {path}: not enough memory to read this CNF (17 bytes)\n"
