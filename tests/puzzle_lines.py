"""Reading the first puzzle lines of a file, for tests: one helper shared by the public
sets' fixture (tests/conftest.py) and the encoder's oracle.  A plain module that tests
import by name (pytest puts tests/ on the import path for tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path


def puzzle_lines(path: Path, count: int | None = None) -> list[str]:
    """Return the first `count` puzzle lines of a file (comments and blanks skipped)."""
    lines = []
    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            content = raw.split("#", 1)[0].strip()
            if content:
                lines.append(content)
            if count is not None and len(lines) == count:
                break
    return lines
