"""Griffe extension: render the project's doctest examples as code on the API pages.

The project's docstrings use a Google-style `Example:` section (singular). Griffe
reads only `Examples:` as the examples section and treats `Example:` as an
admonition whose text is Markdown, where `>>>` lines become nested block quotes
and doctest output such as `[7, 7]` is read as a link. This extension renames
the section before the docstring is parsed, and fences bare top-level doctest
blocks (as in a module docstring) as `pycon` code.

Registered in `mkdocs.yml` under the mkdocstrings python handler's `extensions`.
"""

from __future__ import annotations

import ast
from typing import Any

from griffe import Extension, Inspector, Object, ObjectNode, Visitor


def rewrite(text: str) -> str:
    """Return docstring text with `Example:` sections renamed and bare doctest blocks fenced.

    Example:
        >>> rewrite("Doc.\\n\\nExample:\\n    >>> 1\\n    1")
        'Doc.\\n\\nExamples:\\n    >>> 1\\n    1'
        >>> rewrite(">>> 1\\n1\\n\\nmore")
        '```pycon\\n>>> 1\\n1\\n```\\n\\nmore'
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == "Example:":
            out.append(line.replace("Example:", "Examples:"))
        elif line.startswith(">>>"):
            out.append("```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append("```")
            continue
        else:
            out.append(line)
        i += 1
    return "\n".join(out)


class DoctestExamples(Extension):
    """Rewrite each object's docstring with `rewrite` as Griffe loads it."""

    def on_instance(
        self,
        *,
        node: ast.AST | ObjectNode,
        obj: Object,
        agent: Visitor | Inspector,
        **kwargs: Any,
    ) -> None:
        """Called by Griffe for every object it loads."""
        if obj.docstring is not None:
            obj.docstring.value = rewrite(obj.docstring.value)
