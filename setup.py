"""The build of the native core (solvers/core): one C extension, compiled by
`pip install .` and `pip install -e .`; the rest of the project is declared in
pyproject.toml.  The board's kernels are compiled once per instruction set (baseline
x86-64, SSE4.1, AVX2: board_*.c) and chosen at load time, never with -march=native."""

from setuptools import Extension, setup

CORE = "solvers/core/"
SOURCES = ("module.c", "clauses.c", "board_base.c", "board_sse41.c", "board_avx2.c")

setup(
    ext_modules=[
        Extension(
            "solvers.core._core",
            sources=[
                CORE + name
                for name in (
                    "module.c",
                    "clauses.c",
                    "board_base.c",
                    "board_sse41.c",
                    "board_avx2.c",
                )
            ],
            depends=[CORE + "core.h", CORE + "board_impl.h", CORE + "clauses.h"],
            extra_compile_args=["-std=c11", "-O2", "-fno-strict-aliasing"],
        )
    ]
)
