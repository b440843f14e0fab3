"""The docs' pages about games: the `Game` hooks as tables, read from the classes themselves at build time.

"Adding a game" lists every class attribute and method of
[`Game`][cucumber_rules.Game] by purpose, then every hook of each hook group
(`views`, `words`, ...: the group's default class). The purposes are the section
comments of the class's source (`# ---- what the game is`, `# ---- the engine`),
whether a hook must be written is read from its body (it raises
`NotImplementedError`), and what it is for is its docstring's first paragraph; so
a hook added, removed or re-documented in `src/` changes the page with it. The
page also imports the High Card example from `tests/plugins/` (`plugins_on_path`).

`tools/` is put on `sys.path` by the `tools/mkdocs_features.py` hook.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
from pathlib import Path

import attrs

import cucumber_rules as cr

__all__ = [
    "ROOT",
    "Group",
    "Hook",
    "attributes_table",
    "group_tables",
    "groups",
    "hooks",
    "methods_tables",
    "plugins_on_path",
]

#: The repository's root directory.
ROOT = Path(__file__).resolve().parents[1]
#: Where the example game of "Adding a game" lives.
PLUGINS = ROOT / "tests" / "plugins"

_SECTION = re.compile(r"^\s*#\s*-{5,}\s*(?P<title>.+?)\s*$")


def plugins_on_path() -> Path:
    """Put `tests/plugins/` first on `sys.path`, so `import highcard` finds the example game.

    Example:
        >>> plugins_on_path().name
        'plugins'
    """
    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    return PLUGINS


@attrs.frozen
class Hook:
    """One class attribute or method of `Game`, as the hook tables show it."""

    name: str
    section: str
    """The section comment it sits under in the source (`"class attributes"` before the first)."""
    kind: str
    """`"attribute"` or `"method"`."""
    required: bool
    """A method that raises `NotImplementedError`; an attribute without a default."""
    default: str
    """An attribute's default, as written in the source (empty for methods and required attributes)."""
    doc: str
    """The first paragraph of its docstring, on one line."""


def _first_paragraph(text: str) -> str:
    return " ".join(textwrap.dedent(text).strip().split("\n\n")[0].split())


def _raises_not_implemented(node: ast.FunctionDef) -> bool:
    """True if the method's body (after its docstring) only raises `NotImplementedError`."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    exc = body[0].exc
    target = exc.func if isinstance(exc, ast.Call) else exc
    return isinstance(target, ast.Name) and target.id == "NotImplementedError"


def hooks(cls: type = cr.Game) -> list[Hook]:
    """Every public class attribute and method of `cls`, in source order, with its section.

    Example:
        >>> found = {h.name: h for h in hooks()}
        >>> found["legal"].required, found["legal"].section, found["score"].required
        (True, 'the engine', False)
        >>> found["rules_type"].kind, found["rules_type"].required, found["unit"].default
        ('attribute', True, '"round"')
        >>> from cucumber_rules.bots import Bots
        >>> [(h.name, h.kind, h.required) for h in hooks(Bots)]
        [('heuristic', 'method', False)]
    """
    source = textwrap.dedent(inspect.getsource(cls))
    lines = source.splitlines()
    tree = ast.parse(source)
    klass = tree.body[0]
    assert isinstance(klass, ast.ClassDef)
    sections = [(i + 1, m["title"]) for i, line in enumerate(lines) if (m := _SECTION.match(line))]

    def section_of(lineno: int) -> str:
        found = "class attributes"
        for start, title in sections:
            if start < lineno:
                found = title
        return found

    out: list[Hook] = []
    body = klass.body
    for i, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            follows = body[i + 1] if i + 1 < len(body) else None
            doc = ""
            if isinstance(follows, ast.Expr) and isinstance(follows.value, ast.Constant):
                doc = str(follows.value.value)
            default = "" if node.value is None else ast.get_source_segment(source, node.value) or ""
            out.append(
                Hook(
                    name,
                    section_of(node.lineno),
                    "attribute",
                    node.value is None,
                    default,
                    _first_paragraph(doc),
                )
            )
        elif isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and not _is_property(node):
            doc = ast.get_docstring(node) or ""
            out.append(
                Hook(
                    node.name,
                    section_of(node.lineno),
                    "method",
                    _raises_not_implemented(node),
                    "",
                    _first_paragraph(doc),
                )
            )
    return out


def _is_property(node: ast.FunctionDef) -> bool:
    """A reading the class gives (`Game.options`), not a hook a game writes."""
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def _cell(text: str) -> str:
    parts = text.split("`")
    return "`".join(p if i % 2 else p.replace("|", r"\|") for i, p in enumerate(parts))


def _link(cls: type, name: str, where: str = "") -> str:
    """The hook's name, linked to its entry in the API reference (`where` documents `cls`; else the root)."""
    return f"[`{name}`][{where or 'cucumber_rules.' + cls.__name__}.{name}]"


#: The section of `Game`'s source that declares its hook groups.
GROUPS_SECTION = "hook groups"


def attributes_table(cls: type = cr.Game) -> str:
    """The class attributes of `Game` but its hook groups: name, default (or "set it"), meaning.

    Example:
        >>> attributes_table().splitlines()[2].startswith("| [`name`][cucumber_rules.Game.name] |")
        True
        >>> "[`words`]" in attributes_table()  # (the hook groups have tables of their own)
        False
    """
    rows = ["| attribute | default | what it is |", "|---|---|---|"]
    for hook in hooks(cls):
        if hook.kind == "attribute" and not hook.section.startswith(GROUPS_SECTION):
            default = "**set it**" if hook.required else f"`{hook.default}`"
            rows.append(f"| {_link(cls, hook.name)} | {default} | {_cell(hook.doc)} |")
    return "\n".join(rows) + "\n"


def methods_tables(cls: type = cr.Game) -> str:
    """The methods of `Game`, one table per section of its source: hook, required or default, purpose.

    Example:
        >>> text = methods_tables()
        >>> "### The engine" in text and "| [`legal`][cucumber_rules.Game.legal] | **write it** |" in text
        True
    """
    out: list[str] = []
    current = None
    for hook in hooks(cls):
        if hook.kind != "method":
            continue
        if hook.section != current:
            current = hook.section
            title = current[0].upper() + current[1:]
            out += ["", f"### {title}", "", "| hook | needed | what it is for |", "|---|---|---|"]
        needed = "**write it**" if hook.required else "has a default"
        out.append(f"| {_link(cls, hook.name)} | {needed} | {_cell(hook.doc)} |")
    return "\n".join(out).strip() + "\n"


@attrs.frozen
class Group:
    """One hook group of `Game`: the attribute a game sets, and the class of its default object."""

    attr: str
    cls: type
    path: str
    """Where the API reference documents the class: the module a game author imports it from."""

    @property
    def hooks(self) -> list[Hook]:
        """The group's hooks: the public class attributes and methods its class declares."""
        return hooks(self.cls)


def groups() -> list[Group]:
    """The hook groups of `Game`, in source order, each with its default class and where it is documented.

    Example:
        >>> [(g.attr, g.path) for g in groups()][:2]
        [('views', 'cucumber_rules.views.Views'), ('words', 'cucumber_rules.narrate.Words')]
    """
    out = []
    for hook in hooks(cr.Game):
        if hook.kind == "attribute" and hook.section.startswith(GROUPS_SECTION):
            declared = inspect.getattr_static(cr.Game, hook.name)
            module, _, name = declared.path.partition(":")  # (`group("module:Class")`)
            out.append(Group(hook.name, type(getattr(cr.Game, hook.name)), f"{module}.{name}"))
    return out


def group_tables() -> str:
    """A table of each hook group's hooks: hook, default or "has a default", purpose.

    Example:
        >>> text = group_tables()
        >>> "#### `views`: [`Views`][cucumber_rules.views.Views]" in text
        True
        >>> "| [`heuristic`][cucumber_rules.bots.Bots.heuristic] | has a default |" in text
        True
    """
    out: list[str] = []
    for group in groups():
        cls = group.cls
        out += ["", f"#### `{group.attr}`: [`{cls.__name__}`][{group.path}]", ""]
        out += [_cell(_first_paragraph(cls.__doc__ or "")), ""]
        out += ["| hook | default | what it is for |", "|---|---|---|"]
        for hook in group.hooks:
            default = f"`{hook.default}`" if hook.kind == "attribute" else "has a default"
            if hook.required:
                default = "**write it**" if hook.kind == "method" else "**set it**"
            out.append(f"| {_link(cls, hook.name, group.path)} | {default} | {_cell(hook.doc)} |")
    return "\n".join(out).strip() + "\n"
