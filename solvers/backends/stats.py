"""Search statistics read off a DIMACS solver binary's output.

Each solver prints its counters its own way; three layouts are recognised, whatever the
command (a `--solver-cmd` running one of these solvers is read the same way):

- MiniSat (`minisat`, default verbosity): `decisions             : 25   (0.00 % ...`;
- CaDiCaL (`cadical`, not `-q`): `c decisions:   16   55363.32 per second`; CaDiCaL
  leaves zero counters out, so once its `[ statistics ]` section is there, a counter
  it did not print is 0;
- PicoSAT (`picosat -v`): `c 14 conflicts`;
- CryptoMiniSat (`cryptominisat5 --verb 1`): `c decisions                : 18   (0.00 ...`
  (printed twice; the last block counts).

A figure found nowhere is None (the caller reports "not available", never 0).  The
counts are raw: the decision baseline of each solver (MiniSat counts its final "no
variable left" pick) is removed by the backend, which knows what the answer was.
"""

from __future__ import annotations

import re

COUNTERS = ("decisions", "conflicts", "propagations")

_MINISAT = re.compile(r"^(decisions|conflicts|propagations)\s+:\s+(\d+)\b", re.MULTILINE)
_CADICAL = re.compile(r"^c (decisions|conflicts|propagations):\s+(\d+)\b", re.MULTILINE)
_PICOSAT = re.compile(r"^c (\d+) (decisions|conflicts|propagations)\s*$", re.MULTILINE)
_CRYPTOMINISAT = re.compile(r"^c (decisions|conflicts|propagations)\s+:\s+(\d+)\b", re.MULTILINE)
_CADICAL_SECTION = re.compile(r"^c -+ \[ statistics \] -+", re.MULTILINE)


def read_statistics(text: str) -> tuple[str, dict[str, int | None]]:
    """Return (layout found: "minisat", "cadical", "cryptominisat", "picosat" or "", the decisions,
    conflicts and propagations the output reports)."""
    found: dict[str, int | None] = dict.fromkeys(COUNTERS)
    layout = ""
    patterns = (("minisat", _MINISAT), ("cadical", _CADICAL), ("cryptominisat", _CRYPTOMINISAT))
    for name, pattern in patterns:
        for counter, value in pattern.findall(text):
            found[counter], layout = int(value), name
    for value, counter in _PICOSAT.findall(text):
        found[counter], layout = int(value), "picosat"
    if _CADICAL_SECTION.search(text):
        layout = "cadical"
        found = {name: 0 if value is None else value for name, value in found.items()}
    return layout, found
