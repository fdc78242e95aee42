"""The build of the native core (solvers/core/native): its C extensions, listed in
solvers/core/native/build.py, compiled by `pip install .` and `pip install -e .`; the
rest of the project is declared in pyproject.toml."""

import runpy

from setuptools import Extension, setup

build = runpy.run_path("solvers/core/native/build.py")
digest = build["digest"]()  # the sources' digest, compiled in (solvers.core.extension)

setup(
    ext_modules=[
        Extension(
            "solvers.core." + name,
            sources=build["sources"](name),
            include_dirs=build["include_dirs"](),
            depends=build["headers"](),
            extra_compile_args=build["flags"](name),
            define_macros=[("SOURCES_DIGEST", f'"{digest}"')],
        )
        for name in build["EXTENSIONS"]
    ]
)
