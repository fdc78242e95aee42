"""The project's version, in one place (pyproject.toml keeps the same number)."""

__version__ = "0.1.0"
