"""The learning curve of docs/ai.md ("Training a seat"), drawn at build time from a recorded run.

`learning_curve` reads `docs/data/training.json`, written by
`python benchmarks/train_batch.py --seed 1 --json docs/data/training.json`, and needs only matplotlib
(the docs extra): the site is built without PyTorch. The page calls it from a `markdown-exec` block
(`html="1"`). As the plots of `docs_plots`, it is an inline `<svg>` with `role="img"` and an
`aria-label` giving its numbers in words, drawn in `currentColor` so that it follows the page's light
or dark palette, and the same data gives the same picture.

Example:
    >>> plot = learning_curve()
    >>> plot.startswith("<svg") and 'role="img"' in plot and "currentColor" in plot
    True
"""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

__all__ = ["learning_curve", "load"]

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"
#: Drawn in this colour, replaced by `currentColor` in the SVG (so it follows the page's text colour).
INK = "#0a0b0c"
#: The curves' colours (as the bots' plots: readable on a white and on a dark slate page).
COLOURS = {"random": "#8d6e63", "heuristic": "#43a047"}
STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "learning-curve",
    "font.family": "sans-serif",
    "font.size": 9,
    "text.color": INK,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.facecolor": "none",
    "figure.facecolor": "none",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}


def load(path: Path = DATA / "training.json") -> dict[str, Any]:
    """The recorded run.

    Example:
        >>> load()["curve"][0]["update"]
        0
    """
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _svg(figure: Figure, label: str, name: str) -> str:
    """The figure as an inline, accessible SVG in the page's text colour, with ids stable from run to run."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.DOTALL)
    text = text.replace(INK, "currentColor")
    ids = {old: f"{name}-{i}" for i, old in enumerate(dict.fromkeys(re.findall(r'\bid="([^"]+)"', text)), 1)}
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{ids[m[1]]}"', text)
    text = re.sub(r"#([\w-]+)\)", lambda m: f"#{ids.get(m[1], m[1])})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{ids.get(m[1], m[1])}"', text)
    attributes = (
        f'role="img" aria-label="{html.escape(label)}" class="cr-plot" style="max-width: 100%; height: auto"'
    )
    text = text.replace("<svg ", f"<svg {attributes} ", 1)
    return text.replace(">", f"><title>{html.escape(label)}</title>", 1).strip()


def learning_curve(path: Path = DATA / "training.json") -> str:
    """Win rates of the trained seat (greedy) against random and heuristic bots, as training goes on.

    Example:
        >>> "against heuristic bots" in learning_curve()
        True
    """
    data = load(path)
    made, curve = data["made"], data["curve"]
    share = 1 / made["players"]
    xs = [point["decisions"] / 1000 for point in curve]
    style: Any = STYLE  # rc_context's keys are typed as literals
    with mpl.rc_context(style):
        figure = Figure(figsize=(6.4, 3.2))
        axes = figure.subplots()
        for opponent, colour in COLOURS.items():
            rows = [point[opponent] for point in curve]
            low, high = [r["low"] for r in rows], [r["high"] for r in rows]
            axes.fill_between(xs, low, high, color=colour, alpha=0.25, linewidth=0)
            axes.plot(xs, [r["rate"] for r in rows], color=colour, marker="o", markersize=2.5,
                      label=f"against three {opponent} bots")  # fmt: skip
        axes.axhline(share, color=INK, linestyle="--", linewidth=0.8)
        axes.text(xs[-1], share, f"a seat's share: {_percent(share)}", ha="right", va="bottom", fontsize=8)
        axes.set_ylim(0, 1)
        axes.set_xlim(0, xs[-1])
        axes.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f}%")
        axes.set_ylabel("matches won (95% interval)")
        machine = made["machine"]
        axes.set_xlabel(
            f"the learner's decisions (thousands); {made['training_seconds'] / 60:.1f} minutes of training "
            f"on {machine['cpu_count']} shared CPUs (load {machine['load_average'][0]:.1f})"
        )
        axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8)
    first, last = curve[0], curve[-1]
    words = "; ".join(
        f"against {opponent} bots: untrained {_percent(first[opponent]['rate'])}, after "
        f"{last['decisions']:,} decisions {_percent(last[opponent]['rate'])} "
        f"({_percent(last[opponent]['low'])} to {_percent(last[opponent]['high'])})"
        for opponent in COLOURS
    )
    label = f"Learning curve of a seat of {made['players']}-player {made['preset']}, greedy play, " + (
        f"{first['random']['games']} matches per point. {words[0].upper()}{words[1:]}. "
        f"A seat's share: {_percent(share)}."
    )
    return _svg(figure, label, "learning-curve")
