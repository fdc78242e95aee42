"""The architecture as a checked fact: data flows one way through the packages, and no
two modules import each other, even through a chain or an import inside a function.

Layers, lowest first (a module imports only its own package and the layers below):

    puzzlesets, executors   files and checksums; where chunks run (no project imports)
    encoder                 grid -> geometry -> formula, DIMACS, decoding, checking
    solvers                 engine, backends, rating, explanations -> result records
    cli                     the front ends' shared flags (their bounds are the C core's)
    puzzles                 full grids, generation, counting (and their commands)
    studies                 solutions versus givens, agreement with published ratings
    benchmarks              the harness, reports, plots, speed, commands

A package's `__main__` is its command line, the top of the package: it may use the
shared flags (`cli`), which rank above `solvers` because their bounds are the C core's.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
LAYERS = {"puzzlesets": 0, "executors": 0, "encoder": 1, "solvers": 2, "cli": 2.5, "puzzles": 3,
          "studies": 4, "benchmarks": 5}  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in LAYERS
        for path in sorted((PROJECT / package).rglob("*.py"))  # sub-packages too
    }


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Return the project modules `path` imports, anywhere in the file: `from a.b import
    c` counts as a.b.c when that is a module, else as a.b."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in known
                else node.module
                for alias in node.names
            ]
        else:
            continue
        found.update(name for name in names if name.split(".")[0] in LAYERS)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) - {name} for name, path in known.items()}


# Inside solvers, the sub-packages are layered the same way (README's Layout says why the
# cut falls there): a module imports its own group and the groups ranked below it.
SOLVERS_GROUPS = {
    "budgets": ("base", 0),  # work budgets, the clock and Ctrl-C, result records
    "limits": ("base", 0),
    "results": ("base", 0),
    "core": ("core", 1),  # the C core and its Python faces: Board, Clauses, Engine, GridRules
    "reference": ("reference", 1),  # the exam function by function, on its own
    "backends": ("backends", 2),  # solvers behind one interface
    "proofs": ("proofs", 3),  # DRUP proofs written and checked
    "ratings": ("ratings", 4),  # depth, length, BxB; rate's lines
    "explain": ("explain", 5),  # steps in Sudoku words, the HTML page
    "__init__": ("front", 6),  # the API and the command line
    "__main__": ("front", 6),
}


def solvers_group(module: str) -> tuple[str, int]:
    parts = module.split(".")
    return SOLVERS_GROUPS[parts[1] if len(parts) > 1 else "__init__"]


def solvers_downward(edges: dict[str, set[str]]) -> list[str]:
    """Return 'a imports b' for every import, inside solvers, of a group ranked above
    the importer's, or of another group of the same rank."""
    found = []
    for module, targets in edges.items():
        if not module.startswith("solvers"):
            continue
        group, rank = solvers_group(module)
        for target in sorted(targets):
            if target.startswith("solvers"):
                other, other_rank = solvers_group(target)
                if other_rank > rank or (other_rank == rank and other != group):
                    found.append(f"{module} imports {target}")
    return found


def test_solvers_sub_packages_are_layered():
    problems = solvers_downward(graph())
    assert not problems, "\n".join(problems)
    names = {
        name.split(".")[1]
        for name in modules()
        if name.count(".") >= 1 and name.startswith("solvers.")
    }
    assert names <= set(SOLVERS_GROUPS), "a new part of solvers needs its group here (and README)"
    edges = {
        "solvers.core.engine": {"solvers.ratings.depth"},
        "solvers.ratings.depth": {"solvers.core"},
    }
    assert solvers_downward(edges) == ["solvers.core.engine imports solvers.ratings.depth"]


def test_every_package_is_in_a_layer():
    packages = {p.parent.name for p in PROJECT.glob("*/__init__.py")} - {"tests"}
    assert packages == set(LAYERS), "a new package needs its place in LAYERS (and README)"


def layer(module: str) -> float:
    """Return the rank of `module`'s package; a `__main__` ranks above the shared flags."""
    rank = LAYERS[module.split(".")[0]]
    if module.endswith("__main__"):
        return max(rank, LAYERS["cli"] + 0.5)
    return rank


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Return 'a imports b' for every import of a higher layer, or of another package of
    the same layer."""
    return [
        f"{module} imports {target}"
        for module, targets in edges.items()
        for target in sorted(targets)
        if layer(target) > layer(module)
        or (layer(target) == layer(module) and target.split(".")[0] != module.split(".")[0])
    ]


def cycles(edges: dict[str, set[str]]) -> list[str]:
    """Return one 'a -> b -> a' line per import cycle found by depth-first search."""
    found = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                found.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    return found


def test_no_import_runs_up_the_layers():
    problems = upward_imports(graph())
    assert not problems, "\n".join(problems)


def test_no_import_cycle():
    problems = cycles(graph())
    assert not problems, "\n".join(problems)


def test_the_checks_can_fail(tmp_path):
    """An upward import and a cycle through a function-level import are both caught."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from benchmarks.run import main\nfrom encoder import b\n")
    b.write_text("def f():\n    from encoder.a import x\n")
    known = {"encoder.a": a, "encoder.b": b, "benchmarks.run": a}
    edges = {"encoder.a": imports(a, known), "encoder.b": imports(b, known)}
    assert edges == {"encoder.a": {"benchmarks.run", "encoder.b"}, "encoder.b": {"encoder.a"}}
    assert upward_imports(edges) == ["encoder.a imports benchmarks.run"]
    assert cycles(edges) == ["encoder.a -> encoder.b -> encoder.a"]
    flags = {"solvers.__main__": {"cli.flags"}, "solvers.engine": {"cli.flags"}}
    assert upward_imports(flags) == ["solvers.engine imports cli.flags"]


# The command line stays in the front ends: each package's __main__.py, the modules of the
# commands `python -m benchmarks` dispatches to, and the one module of shared flags.  The
# library beneath them (what the Python API reaches) takes typed values and never sees
# argparse or a Namespace, nor imports a front end.  A command keeps its name and its
# library gets one of its own: generate / generation, stats / studies.solutions_vs_givens,
# agreement / studies.rating_agreement, run / harness.
FRONT_ENDS = {
    "encoder.cli_common",  # the geometry flags and the error handler of every front end
    "cli.flags",  # the executor, budget and numeric flags of the commands that run chunks
    "benchmarks.run",
    "benchmarks.speed.command",
    "benchmarks.stats",
    "benchmarks.agreement",
    "benchmarks.encodings",
    "benchmarks.encoder_speed",
    "benchmarks.compare",
    "benchmarks.datasets",
    "puzzles.generate",
    "puzzles.unique",
}


def command_line_uses(path: Path) -> list[str]:
    """Return 'line N: what' for every import of argparse and every name of it or of a
    Namespace in `path` (string annotations included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.arg | ast.FunctionDef | ast.AnnAssign):
            note = node.annotation if not isinstance(node, ast.FunctionDef) else node.returns
            if isinstance(note, ast.Constant) and isinstance(note.value, str):
                names = [word for word in re.split(r"\W+", note.value) if word]
        for name in names:
            if name.split(".")[0] == "argparse" or name == "Namespace":
                found.append(f"line {node.lineno}: {name}")
    return found


def test_only_front_ends_see_the_command_line():
    problems = [
        f"{module} ({path.relative_to(PROJECT)}) {use}"
        for module, path in modules().items()
        if module not in FRONT_ENDS and not module.endswith("__main__")
        for use in command_line_uses(path)
    ]
    assert not problems, "argparse in the library:\n" + "\n".join(problems)
    assert set(modules()) >= FRONT_ENDS, "a front end listed here no longer exists"


def front_end_imports(edges: dict[str, set[str]]) -> list[str]:
    """Return 'a imports b' for every library module importing a front end: a command's
    library lives in a module of its own (puzzles.generation beside puzzles.generate)."""
    return [
        f"{module} imports {target}"
        for module, targets in edges.items()
        if module not in FRONT_ENDS and not module.endswith("__main__")
        for target in sorted(targets & FRONT_ENDS)
    ]


def test_the_library_never_imports_a_front_end():
    problems = front_end_imports(graph())
    assert not problems, "\n".join(problems)
    edges = {"puzzles.study": {"puzzles.generate"}, "puzzles.generate": {"puzzles.generation"}}
    assert front_end_imports(edges) == ["puzzles.study imports puzzles.generate"]


def test_the_command_line_check_can_fail(tmp_path):
    """An argparse import, a Namespace parameter, and one in a string annotation are each
    caught; a module without them passes."""
    cases = {
        "import argparse\n": ["line 1: argparse"],
        "from argparse import Namespace\n": ["line 1: argparse", "line 1: Namespace"],
        "def f(args: 'argparse.Namespace') -> int:\n    return 0\n": [
            "line 1: argparse",
            "line 1: Namespace",
        ],
        "def f(args):\n    return args.Namespace\n": ["line 2: Namespace"],
        "import os\n\ndef f(parser):\n    return os.sep\n": [],
    }
    for number, (source, expected) in enumerate(cases.items()):
        path = tmp_path / f"m{number}.py"
        path.write_text(source)
        assert sorted(command_line_uses(path)) == sorted(expected), source
