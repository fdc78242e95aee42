"""The pieces of `python -m benchmarks encodings` (docs/encodings.md): the size table is
the encoder's exact count, and a child process's time and peak memory are its own."""

from __future__ import annotations

import pytest

from benchmarks.encodings import ChildFailed, _child, sizes_table
from encoder import make_geometry, rule_formula


def test_size_table_counts_what_the_encoder_writes():
    lines, sizes = sizes_table([9])
    assert lines[2].startswith("| 9 | 11,988 (729) | 7,776 (3,321) |")
    for (n, amo), (num_vars, clauses) in sizes.items():
        formula = rule_formula(make_geometry(n), "centrale", amo)
        assert (num_vars, clauses) == (formula.num_vars, formula.num_clauses)


def test_child_measures_its_own_peak_memory():
    seconds, small, out, finished = _child(["-c", "print('ok')"], 60)
    assert finished and out == "ok\n" and seconds > 0
    _, big, _, _ = _child(["-c", "import time; b = bytearray(200_000_000); time.sleep(0.3)"], 60)
    assert small < 100 < big
    _, _, _, finished = _child(["-c", "import time; time.sleep(30)"], 0.5)
    assert not finished


def test_a_failed_child_is_one_line_naming_it():
    script = "import sys; print('first', file=sys.stderr); sys.exit('it broke')"
    with pytest.raises(ChildFailed) as failed:
        _child(["-c", script], 60)
    assert str(failed.value) == f"python -c {script}: failed with exit status 1: it broke"
    _, _, out, finished = _child(["-c", "import sys; print('sat'); sys.exit(10)"], 60, (10,))
    assert finished and out == "sat\n"
