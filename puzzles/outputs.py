"""A command's results written so that no fault loses them: standard output that may
close early, and what was finished before Ctrl-C.  Files are written through
`encoder.output_files` (a temporary file renamed into place), imported from there.

The commands print their tables before they write their files, and a reader closing
standard output early (`| head`) stops the printing, never the files (`print_out`).
`Interrupted` is the KeyboardInterrupt that carries what was finished before it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from encoder.output_files import reader_left, write_file


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with the work finished before it (`kept`)."""

    def __init__(self, kept: Any):
        super().__init__()
        self.kept = kept


def write_png(figure, path: str | os.PathLike, dpi: int) -> None:
    """Write a matplotlib figure as a PNG, as `write_file` does, and close the figure."""
    try:
        write_file(path, lambda handle: figure.savefig(handle, format="png", dpi=dpi), True)
    finally:
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None:  # pyplot keeps the figures it made until they are closed
            pyplot.close(figure)


def print_out(text: str) -> bool:
    """Print `text` on standard output; return False when its reader has gone (`| head`):
    standard output then goes to /dev/null and the command carries on with its files."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left()
        return False
    return True
