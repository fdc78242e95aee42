"""Reading the search statistics a solver binary prints (solvers.backends.stats)."""

from __future__ import annotations

from solvers.backends.stats import read_statistics

MINISAT = """\
============================[ Search Statistics ]==============================
restarts              : 1
conflicts             : 6              (inf /sec)
decisions             : 25             (0.00 % random) (inf /sec)
propagations          : 1222           (inf /sec)
conflict literals     : 41             (8.89 % deleted)
SATISFIABLE
"""

CADICAL_ZERO_COUNTERS_LEFT_OUT = """\
c --- [ statistics ] ---------------------------------------------------------
c
c fixed:                       729       100.00 %  of all variables
c lucky:                         1       100.00 %  of tried
c propagations:                729         4.42 M  per second
s SATISFIABLE
"""

PICOSAT = """\
c 14 failed literals
c 14 conflicts
c 0 decisions
c 1982 propagations
s SATISFIABLE
"""


def test_minisat_layout():
    layout, figures = read_statistics(MINISAT)
    assert layout == "minisat"
    assert figures == {"decisions": 25, "conflicts": 6, "propagations": 1222}


def test_cadical_leaves_zero_counters_out():
    layout, figures = read_statistics(CADICAL_ZERO_COUNTERS_LEFT_OUT)
    assert layout == "cadical"
    assert figures == {"decisions": 0, "conflicts": 0, "propagations": 729}


def test_picosat_layout():
    layout, figures = read_statistics(PICOSAT)
    assert layout == "picosat"
    assert figures == {"decisions": 0, "conflicts": 14, "propagations": 1982}


def test_nothing_known_is_none_never_zero():
    layout, figures = read_statistics("s SATISFIABLE\nv 1 -2 0\nc decisions made: many\n")
    assert layout == ""
    assert figures == {"decisions": None, "conflicts": None, "propagations": None}


CRYPTOMINISAT_TWICE = """\
c decisions                : 3           (0.00      % random)
c propagations             : 100         (0         props/s)
c conflicts                : 1
c decisions                : 18          (0.00      % random)
c propagations             : 615         (0         props/s)
c decisions/conflicts      : 6.00
c conflicts                : 3
s SATISFIABLE
"""


def test_cryptominisat_layout_last_block_counts():
    layout, figures = read_statistics(CRYPTOMINISAT_TWICE)
    assert layout == "cryptominisat"
    assert figures == {"decisions": 18, "conflicts": 3, "propagations": 615}
