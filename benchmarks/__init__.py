"""Benchmarks: how much reasoning grids need, and how fast each part of the project is."""
