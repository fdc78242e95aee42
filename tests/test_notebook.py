"""docs/centrale2014.ipynb runs: the exam worked through with the project, executed by
nbclient in a fresh kernel from the docs folder, as a reader would run it.  The cells that
need public puzzle sets say so and fall back to the project's own grids when the sets are
absent, so the notebook runs on a clone alone too."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is a test dependency")
nbclient = pytest.importorskip("nbclient", reason="nbclient is a test dependency")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "centrale2014.ipynb"


def outputs_text(notebook) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                parts.append(output.text)
            elif output.output_type in ("execute_result", "display_data"):
                parts.append(output.data.get("text/plain", ""))
            elif output.output_type == "error":
                parts.append(f"ERROR {output.ename}: {output.evalue}")
    return "\n".join(parts)


def test_the_notebook_runs_and_says_what_the_exam_says():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    stored = outputs_text(notebook)
    assert stored, "the notebook is stored with its outputs"
    client = nbclient.NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": NOTEBOOK.parent}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    text = outputs_text(notebook)
    assert "ERROR" not in text
    assert "F_règle      11988 clauses" in text
    assert "same clauses as the reference: True" in text
    assert "same grid deduced: True" in text
    assert "the engine's depth-1 closure gives the same grid: True" in text
    assert "propagation2 (the exam's rule, depth 1) leaves 60 of 60 open cells open" in text
    assert "rating: 2" in text and "solutions: 1" in text
    svg = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "image/svg+xml" in output.get("data", {})
    ]
    assert len(svg) >= 5  # the grids are drawn
