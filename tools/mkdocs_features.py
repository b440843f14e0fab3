"""MkDocs hook: render the Gherkin files in `features/` as pages of worked examples.

The examples a reader sees are the examples the test suite runs: every
`features/**/*.feature` file becomes a generated page `examples/<name>.md`,
listed under the "Worked examples" section of the navigation (the section is
written as `- Worked examples: []` in `mkdocs.yml` and filled here), so a new
feature file appears on the site without editing anything. An overview page
`examples/index.md` lists them all.

A hand-written page can also embed a feature file's scenarios with a line of
its own reading `[[examples: agurk.feature]]` (the rule-system pages do). A
marker naming a missing file fails the build.

Registered in `mkdocs.yml` under `hooks:`; kept out of `docs/` so it is not
copied into the site.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from gherkin.errors import CompositeParserException
from gherkin.parser import Parser
from gherkin.parser_types import (
    Background,
    DataTable,
    Examples,
    Feature,
    Rule,
    Scenario,
    Step,
    TableRow,
    Tag,
)
from markdown.extensions.toc import slugify  # type: ignore[import-untyped]
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

#: The navigation section that lists the generated pages.
NAV_SECTION = "Worked examples"
#: Where generated pages live inside the site.
PAGE_DIR = "examples"
#: Where the feature files live, relative to `mkdocs.yml`.
FEATURE_DIR = "features"

_MARKER = re.compile(r"^\[\[examples:\s*(?P<name>[^\]\s]+)\s*\]\]\s*$", re.MULTILINE)
_PLACEHOLDER = re.compile(r"(<[^<>\s][^<>]*>)")
_ESCAPE = re.compile(r"([\\`*_\[\]])")


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _feature_files(config: MkDocsConfig) -> list[Path]:
    base = _root(config) / FEATURE_DIR
    return sorted(base.rglob("*.feature")) if base.is_dir() else []


def _page_uri(config: MkDocsConfig, path: Path) -> str:
    rel = path.relative_to(_root(config) / FEATURE_DIR).with_suffix(".md")
    return f"{PAGE_DIR}/{rel.as_posix()}"


def _parse(path: Path, config: MkDocsConfig) -> Feature | None:
    try:
        document = Parser().parse(path.read_text(encoding="utf-8"))
    except CompositeParserException as error:
        raise PluginError(f"{path.relative_to(_root(config))}: not valid Gherkin: {error}") from error
    return cast("dict[str, Any]", document).get("feature")


# --- Markdown rendering -------------------------------------------------------------------------------


def _text(text: str) -> str:
    """Escape step text for Markdown; show `<placeholders>` as code."""
    parts = []
    for i, part in enumerate(_PLACEHOLDER.split(text)):
        if i % 2:
            parts.append(f"`{part}`")
        else:
            parts.append(_ESCAPE.sub(r"\\\1", part).replace("<", "&lt;"))
    return "".join(parts)


def _cell(text: str) -> str:
    return _text(text).replace("|", r"\|") or " "


def _table(header: TableRow, body: Sequence[TableRow], indent: str = "") -> list[str]:
    width = len(header["cells"])
    lines = [
        "| " + " | ".join(_cell(c["value"]) for c in header["cells"]) + " |",
        "|" + "---|" * width,
    ]
    lines += ["| " + " | ".join(_cell(c["value"]) for c in row["cells"]) + " |" for row in body]
    return [indent + line for line in lines]


def _data_table(table: DataTable, indent: str) -> list[str]:
    header, *body = table["rows"]
    return _table(header, body, indent)


def _description(text: str) -> list[str]:
    """A feature's or scenario's free text, as Markdown (only `<` is escaped)."""
    lines = [line.strip().replace("<", "&lt;") for line in text.strip().splitlines()]
    return [*lines, ""] if any(lines) else []


def _summary(description: str) -> str:
    """The first sentence of a description, for a table cell."""
    paragraph = " ".join(_description(description.strip().split("\n\n")[0]))
    return re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0].strip().replace("|", r"\|")


def _heading(level: int, text: str) -> str:
    return "#" * min(level, 6) + " " + _text(text)


def _tags(tags: Sequence[Tag]) -> str:
    return " ".join(f"`{t['name']}`" for t in tags)


def _steps(steps: Sequence[Step]) -> list[str]:
    lines: list[str] = []
    for step in steps:
        lines.append(f"- **{step['keyword'].strip()}** {_text(step['text'])}")
        table = step.get("dataTable")
        if table is not None:
            lines += ["", *_data_table(table, "    "), ""]
        doc = step.get("docString")
        if doc is not None:
            fence = "````" if "```" in doc["content"] else "```"
            lang = doc.get("mediaType") or "text"
            lines += ["", f"    {fence}{lang}"]
            lines += [f"    {line}" if line else "" for line in doc["content"].splitlines()]
            lines += [f"    {fence}", ""]
    return [*lines, ""]


def _source(source: str, line: int, tags: Sequence[Tag]) -> list[str]:
    tail = f" · tags: {_tags(tags)}" if tags else ""
    return [f'<p class="feature-source">Source: <code>{source}:{line}</code>{tail}</p>', ""]


def _background(bg: Background, level: int, scope: str) -> list[str]:
    title = f"{bg['keyword']}: {bg['name']}" if bg["name"] else bg["keyword"]
    return [
        _heading(level, title),
        "",
        f"Every scenario {scope} starts with these steps.",
        "",
        *_description(bg["description"]),
        *_steps(bg["steps"]),
    ]


def _examples(examples: Examples) -> list[str]:
    title = f"{examples['keyword']}: {examples['name']}" if examples["name"] else examples["keyword"]
    lines = [f"**{_text(title)}**" + (f" {_tags(examples['tags'])}" if examples["tags"] else ""), ""]
    lines += _description(examples["description"])
    lines += [*_table(examples["tableHeader"], examples["tableBody"]), ""]
    return lines


#: Extra lines after a scenario (a live example): called with the scenario, the background steps
#: that apply to it, and where it is (`file:line`).
Decorate = Callable[[Scenario, Sequence[Step], str], list[str]]


def _scenario(
    sc: Scenario, level: int, source: str, decorate: Decorate | None, background: Sequence[Step]
) -> list[str]:
    lines = [_heading(level, sc["name"] or sc["keyword"]), ""]
    lines += _source(source, sc["location"]["line"], sc["tags"])
    lines += _description(sc["description"])
    lines += _steps(sc["steps"])
    for examples in sc["examples"]:
        lines += _examples(examples)
    if decorate is not None:
        lines += decorate(sc, background, f"{source}:{sc['location']['line']}")
    return lines


def _children(
    children: Sequence[Any],
    level: int,
    source: str,
    scope: str,
    decorate: Decorate | None = None,
    background: Sequence[Step] = (),
) -> Iterator[str]:
    steps = list(background)
    for child in children:
        if "background" in child:
            bg = cast("Background", child["background"])
            steps += bg["steps"]
            yield from _background(bg, level, scope)
        elif "scenario" in child:
            yield from _scenario(cast("Scenario", child["scenario"]), level, source, decorate, steps)
        elif "rule" in child:
            rule = cast("Rule", child["rule"])
            yield _heading(level, rule["name"] or rule["keyword"])
            yield ""
            yield from _source(source, rule["location"]["line"], rule["tags"])
            yield from _description(rule["description"])
            yield from _children(rule["children"], level + 1, source, "under this rule", decorate, steps)


def render_feature(
    feature: Feature, source: str, level: int = 1, *, whole: bool = True, decorate: Decorate | None = None
) -> str:
    """Render a parsed feature as Markdown: the feature's title at `level`, its scenarios one below.

    With `whole=False` (a feature embedded in a page that explains the rules itself), the title,
    tags and description are left out and only the scenarios are rendered. `decorate` adds
    lines after each scenario (the rule pages' live examples).
    """
    lines: list[str] = []
    if whole:
        lines += [_heading(level, feature["name"] or source), ""]
        if feature["tags"]:
            lines += [f"Tags: {_tags(feature['tags'])}", ""]
        lines += _description(feature["description"])
    lines += list(_children(feature["children"], level + 1, source, "of this feature", decorate))
    return "\n".join(lines).rstrip() + "\n"


def _scenario_names(feature: Feature) -> list[str]:
    names = []
    for child in cast("list[dict[str, Any]]", feature["children"]):
        if "scenario" in child:
            names.append(child["scenario"]["name"])
        elif "rule" in child:
            names += [c["scenario"]["name"] for c in child["rule"]["children"] if "scenario" in c]
    return names


def _readme(root: Path, scenarios: dict[str, list[str]]) -> list[str]:
    """`features/README.md` for the overview page, its file and scenario names linked to the pages.

    Its title is dropped and its headings demoted under a heading of ours. A table cell naming a
    feature file links to that file's page; a scenario name in the cell after it links to the
    scenario on that page.
    """
    path = root / FEATURE_DIR / "README.md"
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    out = ["## About the feature files", "", f"From `{FEATURE_DIR}/README.md`.", ""]
    for line in lines:
        if line.startswith("#"):
            line = "#" + line
        elif line.startswith("|"):
            line = _link_cells(line, scenarios)
        out.append(line)
    return [*out, ""]


def _link_cells(row: str, scenarios: dict[str, list[str]]) -> str:
    cells = row.split("|")
    for i, cell in enumerate(cells):
        name = cell.strip().strip("`")
        if name not in scenarios:
            continue
        page = name.removesuffix(".feature") + ".md"
        cells[i] = f" [`{name}`]({page}) "
        if i + 1 < len(cells) and cells[i + 1].strip() in scenarios[name] and "<" not in cells[i + 1]:
            title = cells[i + 1].strip()
            cells[i + 1] = f" [{title}]({page}#{slugify(title, '-')}) "
    return "|".join(cells)


# --- MkDocs events --------------------------------------------------------------------------------------


def _fill_nav(nav: Any, entries: list[Any]) -> bool:
    """Replace the empty `NAV_SECTION: []` entry of `nav` by `entries`; True if found."""
    if isinstance(nav, list):
        return any(_fill_nav(item, entries) for item in nav)
    if isinstance(nav, dict):
        for key, value in nav.items():
            if key == NAV_SECTION and isinstance(value, list) and not value:
                value.extend(entries)
                return True
            if _fill_nav(value, entries):
                return True
    return False


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Fill the "Worked examples" navigation section with one page per feature file.

    Also puts `tools/` on `sys.path`, so `markdown-exec` blocks can import `docs_tables`.
    """
    tools = str(Path(__file__).resolve().parent)
    if tools not in sys.path:
        sys.path.insert(0, tools)
    if config.nav is None:
        return config
    entries: list[Any] = [{"Overview": f"{PAGE_DIR}/index.md"}]
    for path in _feature_files(config):
        feature = _parse(path, config)
        name = feature["name"] if feature and feature["name"] else path.stem
        entries.append({name: _page_uri(config, path)})
    if not _fill_nav(config.nav, entries):
        raise PluginError(f"mkdocs.yml: the nav needs an empty section '- {NAV_SECTION}: []'")
    return config


_H1 = re.compile(r"^# (.+)$", re.MULTILINE)


def _embedders(files: Files) -> dict[str, list[tuple[str, str]]]:
    """Which hand-written pages embed which feature file (by marker): name -> [(src_uri, title)]."""
    found: dict[str, list[tuple[str, str]]] = {}
    for f in files.documentation_pages():
        if f.abs_src_path is None:
            continue
        text = Path(f.abs_src_path).read_text(encoding="utf-8")
        heading = _H1.search(text)
        title = heading[1].strip() if heading else f.name
        for match in _MARKER.finditer(text):
            found.setdefault(match["name"], []).append((f.src_uri, title))
    return found


def _link(from_uri: str, to_uri: str) -> str:
    depth = from_uri.count("/")
    return "../" * depth + to_uri


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Generate `examples/<name>.md` for every feature file, and the overview page."""
    root = _root(config)
    embedders = _embedders(files)
    index_uri = f"{PAGE_DIR}/index.md"
    rows = []
    scenarios: dict[str, list[str]] = {}
    for path in _feature_files(config):
        feature = _parse(path, config)
        source = path.relative_to(root).as_posix()
        uri = _page_uri(config, path)
        rel = path.relative_to(root / FEATURE_DIR).as_posix()
        shown = embedders.get(rel, [])
        if feature is None:
            content = f"# {path.stem}\n\n`{source}` holds no feature yet.\n"
            name, count, summary = path.stem, 0, ""
        else:
            content = render_feature(feature, source)
            scenarios[rel] = _scenario_names(feature)
            name, count = feature["name"] or path.stem, len(scenarios[rel])
            summary = _summary(feature["description"])
        if shown:
            links = ", ".join(f"[{title}]({_link(uri, src)})" for src, title in shown)
            content = content.replace("\n", f"\n\nThese examples also appear on {links}.\n", 1)
        files.append(File.generated(config, uri, content=content))
        link = f"{rel.removesuffix('.feature')}.md"
        also = ", ".join(f"[{title}]({_link(index_uri, src)})" for src, title in shown)
        rows.append(f"| [{_text(name)}]({link}) | `{source}` | {count} | {summary} | {also} |")
    index = [
        "# Worked examples",
        "",
        "Every example on these pages is a scenario of a Gherkin file in `features/`, and the test suite",
        "runs every one of them (`pytest` binds the whole folder). The pages are generated from those files",
        "when the site is built, so what you read here is exactly what is tested; a new feature file appears",
        "here by itself.",
        "",
        "Each scenario names its source line. Cards are written as in [`card`][cucumber_rules.card]:",
        "`QS`, `10H`, `A♠` for the 52-card deck, plain numbers for the numbered decks.",
        "",
        "| feature | file | scenarios | about | also on |",
        "|---|---|---|---|---|",
        *rows,
        "",
    ]
    if not rows:
        index.append("No feature files yet.\n")
    index += _readme(root, scenarios)
    files.append(File.generated(config, index_uri, content="\n".join(index)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace `[[examples: name.feature]]` lines by that feature's scenarios."""

    def embed(match: re.Match[str]) -> str:
        name = match["name"]
        path = _root(config) / FEATURE_DIR / name
        if not path.is_file():
            raise PluginError(f"{page.file.src_uri}: [[examples: {name}]] names no file in {FEATURE_DIR}/")
        feature = _parse(path, config)
        source = path.relative_to(_root(config)).as_posix()
        if feature is None:
            return f"`{source}` holds no feature yet.\n"
        # The marker sits under a level-2 heading: the scenarios become level 3.
        link = _link(page.file.src_uri, _page_uri(config, path))
        count = len(_scenario_names(feature))
        head = (
            f"From [`{source}`]({link}) ({count} scenarios, all run by the tests). Each example that "
            "deals cards ends with a picture of the table; **Run** plays it again in your browser, card by "
            "card, and **Edit** lets you change it.\n\n"
        )
        # Each scenario of a rule page is also a live example (tools/docs_live.py).
        import docs_live

        def decorate(scenario: Scenario, background: Sequence[Step], where: str) -> list[str]:
            try:
                return docs_live.scenario_markup(
                    cast("dict[str, Any]", scenario), cast("list[dict[str, Any]]", background), where
                )
            except docs_live.LiveExampleError as error:
                raise PluginError(f"{page.file.src_uri}: {error}") from error

        return head + render_feature(feature, source, level=2, whole=False, decorate=decorate)

    return _MARKER.sub(embed, markdown)
