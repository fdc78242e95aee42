"""An explanation as one HTML page: the grid before and after each step, its sentence
beside it, and a control to move through the steps.

The page is self-contained (no network, no external script or font): every picture is
an inline SVG drawn by `encoder.picture`, the steps sit in the page as a JSON array, and
a few lines of inline JavaScript show one step at a time (buttons, a slider, the arrow
keys, a click in the list of steps, or `page.html#12` for step 12).  The pictures come
from the `Step` records of `solvers.explain.steps`, so the page says what the text says, in
the same order and words.  A "note" step (a remark such as "unit propagation stalls")
changes nothing on the board: it is shown above the next step instead of taking a
click of its own.  A nested refutation's "before" picture strikes the values ruled out
under its hypothesis (the hypothesis marked), so the page draws the refutation too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from encoder.geometry import Geometry
from encoder.grids import format_line
from encoder.numbering import Grid
from encoder.picture import svg_parts
from solvers.explain.steps import Board, Step

KIND_WORDS = {
    "grid": "the givens",
    "placement": "placement",
    "refutation": "shortest refutation",
    "hypothesis": "failed hypothesis",
    "contradiction": "contradiction",
    "stuck": "stuck",
    "solved": "solved",
}


class _Pictures:
    """The pictures of one grid, kept as parts: each distinct cell piece once."""

    def __init__(self, geometry: Geometry, grid: Grid):
        self.geometry = geometry
        self.grid = grid
        self.pieces: dict[str, int] = {}
        self.start = self.lines = ""

    def picture(self, board: Board, step: Step, after: bool) -> dict:
        """Return `board` with what `step` is about highlighted, as {highlight, cells}:
        the page puts the SVG back together from the pieces' numbers."""
        focus = step.cell if step.cell >= 0 else None
        marked = step.cell >= 0 and (not after or step.kind == "placement")
        gone = after and step.kind in ("refutation", "hypothesis") and board.values[step.cell] == 0
        struck = {step.cell: {step.value}} if gone else None
        if step.inner and not after:  # a nested refutation: what falls under the hypothesis
            struck = {}
            for c, k in step.inner:
                struck.setdefault(c, set()).add(k)
        parts = svg_parts(
            self.geometry,
            self.grid,
            board.values,
            board.candidates,
            shade=step.region,
            focus=focus,
            marks={step.cell: {step.value}} if marked else None,
            struck=struck,
        )
        self.start, self.lines = parts.start, parts.lines
        cells = [self.pieces.setdefault(piece, len(self.pieces)) for piece in parts.cells]
        return {"h": parts.highlight, "c": cells}


def page_data(grid: Grid, geometry: Geometry, steps: Sequence[Step]) -> dict:
    """Return what the page shows: for each step its kind, sentence, the notes before it
    and the two pictures (notes are folded into the next step), and the SVG parts the
    pictures share."""
    pictures = _Pictures(geometry, grid)
    shown, notes = [], []
    for step in steps:
        if step.kind == "note":
            notes.append(step.sentence)
            continue
        shown.append(
            {
                "kind": KIND_WORDS[step.kind],
                "sentence": step.sentence,
                "notes": notes,
                "before": pictures.picture(step.before, step, after=False),
                "after": pictures.picture(step.after, step, after=True),
            }
        )
        notes = []
    if notes and shown:  # a trailing remark belongs to the last step
        shown[-1]["notes"] = shown[-1]["notes"] + notes
    return {
        "start": pictures.start,
        "lines": pictures.lines,
        "pieces": list(pictures.pieces),
        "frames": shown,
    }


PAGE_STYLE = """
body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:16px 24px;color:#1f2933;
  background:#fafbfc}
h1{font-size:20px;margin:0 0 4px}
.sub{color:#52606d;font-size:13px;margin-bottom:12px;font-family:monospace;
  word-break:break-all}
.controls{display:flex;align-items:center;gap:8px;margin:8px 0 12px;flex-wrap:wrap}
.controls button{font-size:15px;padding:4px 12px;cursor:pointer}
.controls input[type=range]{flex:1;min-width:160px;max-width:520px}
#counter{font-variant-numeric:tabular-nums;min-width:120px}
#kind{display:inline-block;font-size:12px;text-transform:uppercase;letter-spacing:.05em;
  color:#fff;background:#52606d;border-radius:3px;padding:2px 6px;margin-right:6px}
#kind.placement{background:#1d5fbf}#kind.refutation,#kind.hypothesis{background:#d0312d}
#kind.solved{background:#2f8132}#kind.contradiction,#kind.stuck{background:#8a4b08}
#notes{color:#52606d;font-size:14px;min-height:1em}
#sentence-line{font-size:17px;line-height:1.4;margin:4px 0 12px;max-width:1100px}
.boards{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}
figure{margin:0;width:min(var(--board),calc(50vw - 40px));min-width:280px}
figcaption{font-size:13px;color:#52606d;margin-bottom:4px}
figure svg{width:100%;height:auto;display:block}
#list{margin-top:16px;max-height:240px;overflow:auto;border:1px solid #d9dee3;
  background:#fff;font-size:13px;padding:0;list-style:none}
#list li{padding:2px 8px;cursor:pointer;white-space:nowrap}
#list li.now{background:#fff3b0}
"""

PAGE_SCRIPT = """
const data = JSON.parse(document.getElementById('steps').textContent);
const frames = data.frames;
// A picture is the SVG cut in parts by encoder.picture.svg_parts: put it back together.
function svg(p) {
  return data.start + p.h + data.lines + p.c.map(i => data.pieces[i]).join('') + '</svg>';
}
const slider = document.getElementById('slider');
const list = document.getElementById('list');
let now = 0;
frames.forEach((f, i) => {
  const li = document.createElement('li');
  li.textContent = (i + 1) + '. ' + f.sentence;
  li.addEventListener('click', () => show(i));
  list.appendChild(li);
});
slider.max = frames.length - 1;
function show(i) {
  now = Math.max(0, Math.min(frames.length - 1, i));
  const f = frames[now];
  document.getElementById('before').innerHTML = svg(f.before);
  document.getElementById('after').innerHTML = svg(f.after);
  document.getElementById('sentence').textContent = f.sentence;
  document.getElementById('notes').textContent = f.notes.join(' ');
  const kind = document.getElementById('kind');
  kind.textContent = f.kind;
  kind.className = f.kind.split(' ').pop();
  document.getElementById('counter').textContent = 'step ' + (now + 1) + ' of ' + frames.length;
  slider.value = now;
  list.querySelectorAll('li.now').forEach(li => li.classList.remove('now'));
  const item = list.children[now];
  item.classList.add('now');
  item.scrollIntoView({block: 'nearest'});
  if (location.hash !== '#' + now) history.replaceState(null, '', '#' + now);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(now - 1);
document.getElementById('next').onclick = () => show(now + 1);
document.getElementById('last').onclick = () => show(frames.length - 1);
slider.oninput = () => show(Number(slider.value));
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(now + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(now - 1); e.preventDefault(); }
  if (e.key === 'Home') show(0);
  if (e.key === 'End') show(frames.length - 1);
});
show(Number(location.hash.slice(1)) || 0);
"""


def uniqueness_line(grid: Grid, geometry: Geometry) -> str:
    """The page's line on the grid's solutions, counted to 2 on the board (DPLL in the C
    core, within the default work budget); "" beyond the sides the board takes."""
    from solvers.backends.count import count
    from solvers.core.extension import MAX_SIDE
    from solvers.results import SolutionCount

    if geometry.size > MAX_SIDE:
        return ""
    answer: SolutionCount = count(grid, 2, geometry)
    if answer.over_budget:
        return "Solutions: not counted within the work budget."
    if answer.unique:
        return "This grid has exactly one solution (counted by search on the board)."
    if answer.count == 0:
        return f"This grid has no solution{': ' + answer.clash if answer.clash else ''}."
    return "This grid has two solutions or more: the steps follow the reasoning, not one of them."


def explain_page(
    grid: Grid, geometry: Geometry, steps: Sequence[Step], title: str = "", solutions: str = ""
) -> str:
    """Return the HTML page of an explanation (`steps` from `Explainer.steps`);
    `solutions`, the grid's uniqueness line (`uniqueness_line`), under the grid."""
    # "</" cannot end the script element early once written as "<\\/" (still valid JSON).
    data = json.dumps(
        page_data(grid, geometry, steps), ensure_ascii=False, separators=(",", ":")
    ).replace("</", "<\\/")
    board_px = {4: 420, 6: 480}.get(geometry.size, 560 if geometry.size <= 9 else 760)
    title = title or f"Step by step: a {geometry.describe()} grid"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{PAGE_STYLE}:root{{--board:{board_px}px}}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<div class="sub">{escape(format_line(grid, geometry))}</div>
{f'<div class="sub" id="solutions">{escape(solutions)}</div>' if solutions else ""}
<div class="controls">
<button id="first" title="first step (Home)">first</button>
<button id="prev" title="previous step (←)">◀ previous</button>
<button id="next" title="next step (→)">next ▶</button>
<button id="last" title="last step (End)">last</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<span id="counter"></span>
</div>
<div id="notes"></div>
<div id="sentence-line"><span id="kind"></span><span id="sentence"></span></div>
<div class="boards">
<figure><figcaption>before</figcaption><div id="before"></div></figure>
<figure><figcaption>after</figcaption><div id="after"></div></figure>
</div>
<ol id="list"></ol>
<script type="application/json" id="steps">{data}</script>
<script>{PAGE_SCRIPT}</script>
</body>
</html>
"""
