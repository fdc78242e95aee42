"""Explanations of a grid in Sudoku words: the steps (`steps`: placements, eliminations
and the refutation chains behind them, as `Step` records) and the HTML page that shows
them (`page`)."""
