"""The markup of the live examples, written at build time.

Every live example is an element of class `live-example` that holds a `Run` button and an
element of class `live-output`; `docs/javascripts/live.js` wires them to Python in the browser
(see `tools/mkdocs_live.py`). The controls start `hidden`: a reader without JavaScript sees the
static code, output and pictures, which are produced here by running the same code at build
time with `tools/cucumber_live.py`.

- `scenario_markup`: a worked example of a rule page (a Gherkin scenario, each row of an
  outline) as a program, its picture and output, with Run, Edit and a stepper;
- `wrap_live_fences`: a page's ```` ```python ... live="on" ```` code block, made runnable
  (the block still runs at build time through markdown-exec);
- `readme_example`: the README's example, for the `try/` page.

Example:
    >>> html_ = controls(edit=False)
    >>> html_.startswith('<div class="live-controls" hidden>') and ">Run</button>" in html_
    True
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cucumber_live
import docs_scenarios
from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import PythonLexer  # type: ignore[import-untyped]

import cucumber_rules as cr

__all__ = [
    "controls",
    "highlighted",
    "outline_rows",
    "play_markup",
    "readme_example",
    "scenario_markup",
    "sources",
    "try_markup",
    "wrap_live_fences",
]

ROOT = Path(__file__).resolve().parents[1]


class LiveExampleError(ValueError):
    """A worked example that does not run, or does not end where the scenario does."""


def highlighted(code: str) -> str:
    """Python code as the highlighted block the site's theme styles.

    Example:
        >>> highlighted("x = 1").startswith('<div class="language-python highlight"><pre><span></span><code>')
        True
    """
    body = highlight(code, PythonLexer(), HtmlFormatter(nowrap=True))
    return f'<div class="language-python highlight"><pre><span></span><code>{body}</code></pre></div>'


def controls(*, edit: bool = True, rows: Sequence[str] = ()) -> str:
    """The buttons of a live example, hidden until the page's script shows them."""
    parts = []
    if rows:
        options = "".join(f'<option value="{i}">{html.escape(r)}</option>' for i, r in enumerate(rows))
        parts.append(
            f'<label class="live-row-label">Example <select class="live-row">{options}</select></label>'
        )
    parts.append('<button type="button" class="md-button md-button--primary live-run">Run</button>')
    if edit:
        parts.append('<button type="button" class="md-button live-edit">Edit</button>')
    parts.append('<span class="live-status" role="status"></span>')
    return f'<div class="live-controls" hidden>{" ".join(parts)}</div>'


def sources(codes: Sequence[str], *, in_markdown: bool = False) -> str:
    """The code an example runs (one per outline row), in inert `<template>` elements.

    `in_markdown`: the element sits in a Markdown-parsed block (`md_in_html`), which must leave it alone.
    """
    templates = "".join(f'<template class="live-source">{html.escape(code)}</template>' for code in codes)
    raw = ' markdown="0"' if in_markdown else ""
    return f'<div class="live-sources"{raw} hidden>{templates}</div>'


# --- worked examples -------------------------------------------------------------------------------------


def _row_label(row: dict[str, str]) -> str:
    text = ", ".join(f"{key} {value}" for key, value in row.items())
    return text if len(text) <= 70 else text[:69] + "…"


def outline_rows(scenario: dict[str, Any]) -> list[dict[str, str]]:
    """The rows of a scenario outline's Examples tables, as dicts (none for a plain scenario)."""
    rows = []
    for examples in scenario.get("examples", []):
        header = [cell["value"] for cell in examples["tableHeader"]["cells"]]
        rows += [
            dict(zip(header, (c["value"] for c in r["cells"]), strict=True)) for r in examples["tableBody"]
        ]
    return rows


def scenario_markup(scenario: dict[str, Any], background: Sequence[dict[str, Any]], where: str) -> list[str]:
    """The live example of a scenario: its first program's picture and output, and all its programs.

    `background` holds the Background steps that apply (the feature's, then its rule's); `where`
    names the scenario in error messages. A scenario whose steps start no game gives no lines.

    Raises:
        LiveExampleError: A step cannot be translated, the program fails, or it ends elsewhere.
    """
    rows: list[dict[str, str] | None] = list(outline_rows(scenario)) or [None]
    programs = []
    for row in rows:
        try:
            program = docs_scenarios.translate(docs_scenarios.steps_of(scenario, background, row))
        except docs_scenarios.TranslationError as error:
            raise LiveExampleError(f"{where}: {error}") from error
        if not program.code:
            return []
        programs.append(program)
    first = programs[0]
    namespace: dict[str, Any] = {}
    result = cucumber_live.run(first.code, namespace)
    if result["error"]:
        raise LiveExampleError(f"{where}: the program of this example fails:\n{result['error']}")
    if first.state is not None and namespace.get("state") != first.state:
        raise LiveExampleError(f"{where}: the program does not end in the scenario's state")
    labels = [_row_label(r) for r in rows if r is not None]
    code_blocks = "".join(
        f'<div data-row="{i}"{" hidden" if i else ""}>{highlighted(p.code)}</div>'
        for i, p in enumerate(programs)
    )
    lines = ['<div class="live-example live-scenario">']
    frames = result["frames"]
    if frames:
        lines.append(
            '<figure class="live-static">'
            + frames[-1]["svg"]
            + "<figcaption>The table after these steps"
            + (f" ({html.escape(labels[0])})" if labels else "")
            + ". Run the example to step through it card by card.</figcaption></figure>"
        )
    summary = "The example in Python" + (f" ({len(programs)} rows of the table)" if len(programs) > 1 else "")
    lines.append(
        f'<details class="live-details"><summary>{summary}</summary>'
        f'<div class="live-code">{code_blocks}</div></details>'
    )
    if result["output"]:
        lines.append(f'<pre class="live-static-output"><code>{html.escape(result["output"])}</code></pre>')
    lines += [
        sources([p.code for p in programs]),
        controls(rows=labels),
        '<div class="live-output" hidden></div>',
    ]
    lines += ["</div>", ""]
    return lines


# --- live code blocks ------------------------------------------------------------------------------------

_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,})python(?P<options>[^\n]*?)\s+live=\"on\"(?P<rest>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_SESSION = re.compile(r'session="(?P<name>[^"]+)"')
#: markdown-exec's option to write the code above its output: the live block writes it itself.
_SOURCE_ABOVE = re.compile(r'\s+source="above"')


def wrap_live_fences(markdown: str) -> str:
    """Make each ```` ```python ... live="on" ```` block of a page a live example.

    The block still runs at build time (markdown-exec), but its output is wrapped in an element
    of class `live-static-output`, which the page's script hides once the reader's own run has
    replaced it; with `source="above"` the code is written as a plain block above it. The whole
    is a `live-example` element with the code, a Run button and an output, and its session (if
    any) is shared with the page's other live blocks of that session.

    Example:
        >>> page = '```python exec="on" source="above" live="on"\\nprint(1)\\n```\\n'
        >>> wrapped = wrap_live_fences(page)
        >>> 'class="live-example live-block"' in wrapped
        True
        >>> wrapped.count("```python"), 'source="above"' in wrapped
        (2, False)
        >>> '<div class="live-static-output" markdown>' in wrapped
        True
    """

    def wrap(match: re.Match[str]) -> str:
        indent, fence, body = match["indent"], match["fence"], match["body"]
        options = match["options"] + match["rest"]
        shown = _SOURCE_ABOVE.search(options) is not None
        opening = f"{indent}{fence}python{_SOURCE_ABOVE.sub('', options)}"
        session = _SESSION.search(options)
        data = f' data-session="{html.escape(session["name"])}"' if session else ""
        code = "\n".join(line.removeprefix(indent) for line in body.splitlines())
        source = [f"{indent}{fence}python\n{body}{indent}{fence}", ""] if shown else []
        return "\n".join(
            [
                f'{indent}<div class="live-example live-block" markdown{data}>',
                "",
                *source,
                f'{indent}<div class="live-static-output" markdown>',
                "",
                f"{opening}\n{body}{indent}{fence}",
                "",
                f"{indent}</div>",
                "",
                indent + sources([code + "\n"], in_markdown=True),
                indent + controls(),
                f'{indent}<div class="live-output" hidden></div>',
                "",
                f"{indent}</div>",
            ]
        )

    return _FENCE.sub(wrap, markdown)


def readme_example(root: Path = ROOT) -> str:
    """The first Python block of the README ("Use it"), for the `try/` page.

    Example:
        >>> "import cucumber_rules as cr" in readme_example()
        True
    """
    text = (root / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^```python\n(?P<code>.*?)^```$", text, re.MULTILINE | re.DOTALL)
    if found is None:
        raise LiveExampleError("README.md has no ```python block for the try/ page")
    return found["code"]


# --- the play/ and try/ pages ----------------------------------------------------------------------------


def play_markup() -> str:
    """The `play/` page's match: setup form, table, moves and log (filled by the page's script).

    A static picture of a match in progress (seat 0's view, from a seeded match between bots)
    stands in for the table until a match starts, and for readers without JavaScript.
    """
    options = []
    for name, rules in cr.RULESETS.items():
        selected = " selected" if name == "agurk" else ""
        options.append(
            f'<option value="{name}" data-min="{rules.min_players}" data-max="{rules.max_players}"{selected}>'
            f"{html.escape(name)}</option>"
        )
    sample = cucumber_live.Match("agurk", players=4, bots="heuristic", seed=7)
    for _ in range(3):
        sample.act(0)
    picture = sample.snapshot()["svg"]
    return "\n".join(
        [
            '<div id="live-play" class="live-play">',
            '<figure class="live-static">',
            picture,
            "<figcaption><strong>A sample picture, not a match in play:</strong> Agurk as the player in "
            "seat 0 sees it, their own hand face up, the cards they may play lifted, the other hands face "
            "down. Start a match below to play; your table then takes its place.</figcaption></figure>",
            '<div class="live-controls" hidden><form class="live-play-setup" novalidate>',
            f'<label>Game <select name="preset">{"".join(options)}</select></label>',
            '<label>Players <input name="players" type="number" value="4" min="2" max="7" required></label>',
            '<label>Bots <select name="bots"><option value="heuristic" selected>heuristic</option>'
            '<option value="random">random</option></select></label>',
            '<label>Seed <input name="seed" type="number" min="0" step="1" placeholder="random"></label>',
            '<label class="live-play-autoplay"><input name="autoplay" type="checkbox" checked> '
            "after a trick, move on by itself</label>",
            '<button type="submit" class="md-button md-button--primary">New match</button>',
            '<span class="live-status" role="status"></span>',
            "</form>",
            '<p class="live-play-error" role="alert" hidden></p>',
            "</div>",
            '<div class="live-play-board" hidden>',
            '<p class="live-play-intro" hidden></p>',
            '<div class="live-play-main">',
            '<div class="live-play-table" role="img"></div>',
            '<section class="live-play-trick" aria-live="polite" hidden>',
            '<div class="live-play-trick-body"></div>',
            '<button type="button" class="md-button md-button--primary live-play-continue">Continue</button>',
            "</section>",
            '<div class="live-play-moves"></div>',
            "</div>",
            '<div class="live-play-side">',
            '<section class="live-play-last" hidden><h2 class="live-play-side-title">Last trick</h2>',
            '<div class="live-play-last-body"></div></section>',
            '<details class="live-play-log-box" open>',
            '<summary class="live-play-side-title">What happened (newest first)</summary>',
            '<ol class="live-play-log" reversed aria-live="polite"></ol>',
            "</details>",
            "</div>",
            "</div>",
            "</div>",
        ]
    )


def try_markup(root: Path = ROOT) -> str:
    """The `try/` page's editor, preloaded with the README's example, with Run and Reset."""
    code = readme_example(root)
    rows = code.count("\n") + 2
    return "\n".join(
        [
            '<div class="live-example live-try">',
            f'<textarea class="live-editor" rows="{rows}" spellcheck="false" aria-label="Python code to run">'
            f"{html.escape(code)}</textarea>",
            sources([code]),
            '<div class="live-controls" hidden><button type="button" class="md-button md-button--primary '
            'live-run">Run</button> <button type="button" class="md-button live-reset">Reset</button> '
            '<span class="live-status" role="status"></span></div>',
            '<div class="live-output" hidden></div>',
            "</div>",
        ]
    )
