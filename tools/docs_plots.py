"""Plots for the documentation, drawn at build time from the recorded runs in `docs/data/`.

The pages call these from `markdown-exec` blocks (`html="1"`), next to the tables made from
the same runs:

- `win_rates` and `score_distributions` (the Bots page) read `docs/data/bot_strength.json`,
  written by `python benchmarks/bot_strength.py --json docs/data/bot_strength.json`;
- `decisions_per_second` (the Performance page) reads `docs/data/performance.json`, written
  by `python benchmarks/run.py --json docs/data/performance.json`;
- `learning_curve` (the AI page's "Training a seat") reads `docs/data/training.json`, written by
  `python benchmarks/train_batch.py --seed 1 --json docs/data/training.json` (the site is built
  without PyTorch: only the recorded run is drawn).

Each plot is an inline `<svg>` (matplotlib's SVG backend, text kept as text) with `role="img"`
and an `aria-label` that gives its numbers in words. Axes, labels and text are drawn in
`currentColor`, so a plot follows the page's light or dark palette; the data colours read on
both. Nothing random: the same data gives the same picture.

Example:
    >>> plot = win_rates()
    >>> plot.startswith("<svg") and 'role="img"' in plot and "currentColor" in plot
    True
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

__all__ = ["decisions_per_second", "learning_curve", "score_distributions", "win_rates"]

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"
#: Drawn in this colour, replaced by `currentColor` in the SVG (so it follows the page's text colour).
_INK = "#0a0b0c"
#: The data colours (readable on a white and on a dark slate page).
HEURISTIC = "#43a047"
RANDOM = "#8d6e63"
LIBRARY = "#43a047"
BASELINE = "#78909c"
_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9,
    "text.color": _INK,
    "axes.edgecolor": _INK,
    "axes.labelcolor": _INK,
    "xtick.color": _INK,
    "ytick.color": _INK,
    "axes.facecolor": "none",
    "figure.facecolor": "none",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@contextmanager
def _style(name: str) -> Iterator[None]:
    style: Any = {**_STYLE, "svg.hashsalt": name}  # rc_context's keys are typed as literals
    with mpl.rc_context(style):
        yield


def _svg(figure: Figure, label: str, name: str) -> str:
    """The figure as an inline, accessible SVG element in the page's text colour.

    matplotlib names clip paths after object ids, which change from run to run; they are renamed
    `<name>-1`, `<name>-2`... so the picture is the same for the same data, and two plots on one
    page never share an id.
    """
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.DOTALL)
    text = text.replace(_INK, "currentColor")
    ids = {old: f"{name}-{i}" for i, old in enumerate(dict.fromkeys(re.findall(r'\bid="([^"]+)"', text)), 1)}
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{ids[m[1]]}"', text)
    text = re.sub(r"#([\w-]+)\)", lambda m: f"#{ids.get(m[1], m[1])})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{ids.get(m[1], m[1])}"', text)
    attributes = (
        f'role="img" aria-label="{html.escape(label)}" class="cr-plot" style="max-width: 100%; height: auto"'
    )
    text = text.replace("<svg ", f"<svg {attributes} ", 1)
    return text.replace(">", f"><title>{html.escape(label)}</title>", 1).strip()


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def win_rates(path: Path = DATA / "bot_strength.json") -> str:
    """Win rates of the heuristic bot and of the random bots, per preset, with 95% intervals."""
    data = _load(path)
    rows = data["presets"]
    made = data["made"]
    names = [r["preset"] for r in rows]
    chance = 1 / made["players"]
    with _style("win_rates"):
        figure = Figure(figsize=(6.4, 0.45 * len(rows) + 1.1))
        axes = figure.subplots()
        ys = list(range(len(rows)))
        for offset, bot, colour in ((-0.18, "heuristic", HEURISTIC), (0.18, "random", RANDOM)):
            rates = [r[bot]["rate"] for r in rows]
            low = [r[bot]["rate"] - r[bot]["low"] for r in rows]
            high = [r[bot]["high"] - r[bot]["rate"] for r in rows]
            label = "the heuristic bot" if bot == "heuristic" else "each random bot"
            whiskers = {"ecolor": _INK, "capsize": 2, "elinewidth": 0.8}
            axes.barh(
                [y + offset for y in ys], rates, height=0.34, color=colour, label=label, xerr=[low, high],
                error_kw=whiskers,
            )  # fmt: skip
        axes.axvline(chance, color=_INK, linestyle="--", linewidth=0.8)
        axes.text(chance, len(rows) - 0.45, f" by chance: {_percent(chance)}", va="bottom", fontsize=8)
        axes.set_yticks(ys, names)
        axes.invert_yaxis()
        axes.set_xlim(0, 1)
        axes.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f}%")
        axes.set_xlabel(f"matches won ({made['players']} players, {made['matches']} matches per preset)")
        axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8)
    words = "; ".join(
        f"{r['preset']}: heuristic bot {_percent(r['heuristic']['rate'])} "
        f"({_percent(r['heuristic']['low'])} to {_percent(r['heuristic']['high'])}), "
        f"each random bot {_percent(r['random']['rate'])}"
        for r in rows
    )
    return _svg(figure, f"Win rates with 95% intervals, by chance {_percent(chance)}. {words}.", "win-rates")


def _expand(counts: dict[str, int]) -> list[int]:
    return [int(value) for value, n in counts.items() for _ in range(n)]


def _quartiles(values: Sequence[int]) -> tuple[float, float, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        position = q * (len(ordered) - 1)
        below = int(position)
        above = min(below + 1, len(ordered) - 1)
        return ordered[below] + (ordered[above] - ordered[below]) * (position - below)

    return at(0.25), at(0.5), at(0.75)


def score_distributions(path: Path = DATA / "bot_strength.json") -> str:
    """How the final scores of the heuristic and the random bots are spread, per preset (box plots)."""
    data = _load(path)
    rows = data["presets"]
    with _style("score_distributions"):
        figure = Figure(figsize=(6.4, 2.6))
        axes_row = figure.subplots(1, len(rows), squeeze=False)[0]
        for axes, row in zip(axes_row, rows, strict=True):
            series = [_expand(row["totals"][bot]) for bot in ("heuristic", "random")]
            ink = {"color": _INK}
            boxes = axes.boxplot(
                series, widths=0.6, patch_artist=True, showfliers=False, medianprops=ink, whiskerprops=ink,
                capprops=ink,
            )  # fmt: skip
            for patch, colour in zip(boxes["boxes"], (HEURISTIC, RANDOM), strict=True):
                patch.set_facecolor(colour)
                patch.set_edgecolor(_INK)
            axes.set_xticks([1, 2], ["heur.", "rand."], fontsize=8)
            axes.set_title(row["preset"], fontsize=9)
            axes.tick_params(axis="y", labelsize=8)
        axes_row[0].set_ylabel("final score (points or cucumbers)")
        figure.tight_layout()
    words = []
    for row in rows:
        parts = []
        for bot in ("heuristic", "random"):
            q1, median, q3 = _quartiles(_expand(row["totals"][bot]))
            parts.append(f"{bot} median {median:g} (middle half {q1:g} to {q3:g})")
        words.append(f"{row['preset']}: " + ", ".join(parts))
    label = "Final scores per bot, by preset; lower is better. " + "; ".join(words) + "."
    return _svg(figure, label, "score-spread")


def _thousands(x: float) -> str:
    return f"{x / 1000:,.0f} k"


def decisions_per_second(path: Path = DATA / "performance.json") -> str:
    """Random playouts: decisions per second of the library and of the mutable baseline, per preset."""
    data = _load(path)
    rows = data["rates"]
    machine = data["machine"]
    with _style("decisions_per_second"):
        figure = Figure(figsize=(6.4, 0.5 * len(rows) + 1.2))
        axes = figure.subplots()
        ys = list(range(len(rows)))
        library = [r["decisions_per_s"] for r in rows]
        baseline = [r["baseline_per_s"] or 0 for r in rows]
        axes.barh([y - 0.18 for y in ys], library, height=0.34, color=LIBRARY, label="cucumber_rules")
        axes.barh([y + 0.18 for y in ys], baseline, height=0.34, color=BASELINE, label="mutable baseline")
        for y, row in zip(ys, rows, strict=True):
            if row["ratio"]:
                axes.text(row["decisions_per_s"], y - 0.18, f"  {row['ratio']:.3f}×", va="center", fontsize=8)
        axes.set_yticks(ys, [r["preset"] for r in rows])
        axes.invert_yaxis()
        axes.xaxis.set_major_formatter(lambda x, _: _thousands(x))
        load = machine.get("load_average") or [0.0]
        axes.set_xlabel(
            f"decisions per second, {rows[0]['players']} players\n{data['mode']} run of {machine['date']} "
            f"on {machine['cpu']} ({machine['cpu_count']} CPUs, load {load[0]:.1f} at the start), "
            f"{machine['python']}"
        )
        axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8)
    words = "; ".join(
        f"{r['preset']}: library {_thousands(r['decisions_per_s'])}, "
        f"baseline {_thousands(r['baseline_per_s'] or 0)}"
        + (f", ratio {r['ratio']:.3f}" if r["ratio"] else "")
        for r in rows
    )
    return _svg(figure, f"Decisions per second in random playouts. {words}.", "decisions")


def learning_curve(path: Path = DATA / "training.json") -> str:
    """Win rates of the trained seat (greedy) against random and heuristic bots, as training goes on.

    Example:
        >>> "against heuristic bots" in learning_curve()
        True
    """
    data = _load(path)
    made, curve = data["made"], data["curve"]
    share = 1 / made["players"]
    xs = [point["decisions"] / 1000 for point in curve]
    with _style("learning-curve"):
        figure = Figure(figsize=(6.4, 3.2))
        axes = figure.subplots()
        for opponent, colour in ("random", RANDOM), ("heuristic", HEURISTIC):
            rows = [point[opponent] for point in curve]
            low, high = [r["low"] for r in rows], [r["high"] for r in rows]
            axes.fill_between(xs, low, high, color=colour, alpha=0.25, linewidth=0)
            axes.plot(xs, [r["rate"] for r in rows], color=colour, marker="o", markersize=2.5,
                      label=f"against three {opponent} bots")  # fmt: skip
        axes.axhline(share, color=_INK, linestyle="--", linewidth=0.8)
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
        for opponent in ("random", "heuristic")
    )
    label = f"Learning curve of a seat of {made['players']}-player {made['preset']}, greedy play, " + (
        f"{first['random']['games']} matches per point. {words[0].upper()}{words[1:]}. "
        f"A seat's share: {_percent(share)}."
    )
    return _svg(figure, label, "learning-curve")
