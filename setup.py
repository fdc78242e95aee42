"""The build of the native core (solvers/core): its C extensions, listed in
solvers/core/build.py, compiled by `pip install .` and `pip install -e .`; the rest of
the project is declared in pyproject.toml."""

import runpy

from setuptools import Extension, setup

build = runpy.run_path("solvers/core/build.py")

setup(
    ext_modules=[
        Extension(
            "solvers.core." + name,
            sources=build["sources"](name),
            depends=[build["CORE"] + header for header in build["HEADERS"]],
            extra_compile_args=build["flags"](name),
        )
        for name in build["EXTENSIONS"]
    ]
)
