"""Sudoku grids as propositional logic: grids, geometries, encodings and DIMACS.

The public vocabulary: `make_geometry` / `standard` describe a variant (`Variant`: the
same as options), `read_puzzles` reads puzzles (a grid, a file, '-' or a catalogue
name) as `Puzzle` records, `parse_grid` parses one grid, `rule_formula` /
`puzzle_formula` build the CNF (the Centrale 2014 exam's formula by default),
`encode_dimacs` writes it, `grid_from_model` reads a solution back and `is_solution`
checks it independently; `grid_svg` and `GridPicture` draw a grid.
"""

import importlib

from encoder.version import __version__ as __version__

# Each public name from its module, imported when first asked for, so that a command
# needing a few of the package's modules (`solvers rate` of one grid) loads only those.
_HOMES = {
    **dict.fromkeys(("is_solution", "satisfies", "solution_problems"), "check"),
    **dict.fromkeys(("ModelError", "grid_from_model"), "decode"),
    **dict.fromkeys(
        ("Cnf", "Model", "parse_cnf", "parse_model", "read_cnf", "read_model"), "dimacs"
    ),
    "encode_dimacs": "emit",
    **dict.fromkeys(
        (
            "ENCODINGS",
            "GIVEN_STYLES",
            "Formula",
            "given_literals",
            "grid_groups",
            "puzzle_formula",
            "rule_formula",
        ),
        "encodings",
    ),
    **dict.fromkeys(("DimacsError", "GridError", "InputError"), "errors"),
    **dict.fromkeys(("Geometry", "Region", "make_geometry", "standard"), "geometry"),
    **dict.fromkeys(("find_clashes", "format_line", "format_pretty", "parse_grid"), "grids"),
    **dict.fromkeys(("num_cell_vars", "unvar", "var"), "numbering"),
    **dict.fromkeys(("GridPicture", "grid_svg"), "picture"),
    **dict.fromkeys(("Puzzle", "read_puzzles"), "puzzle_files"),
    "Variant": "variant",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'encoder' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"encoder.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "ENCODINGS",
    "GIVEN_STYLES",
    "Cnf",
    "DimacsError",
    "Formula",
    "Geometry",
    "GridError",
    "GridPicture",
    "InputError",
    "Model",
    "ModelError",
    "Puzzle",
    "Region",
    "Variant",
    "encode_dimacs",
    "find_clashes",
    "format_line",
    "format_pretty",
    "given_literals",
    "grid_from_model",
    "grid_groups",
    "grid_svg",
    "is_solution",
    "make_geometry",
    "num_cell_vars",
    "parse_cnf",
    "parse_grid",
    "parse_model",
    "puzzle_formula",
    "read_cnf",
    "read_model",
    "read_puzzles",
    "rule_formula",
    "satisfies",
    "solution_problems",
    "standard",
    "unvar",
    "var",
]
