"""What a player's name (or a rule set's name) may hold: the rule, written once.

A name is a label shown to people: in views, narration, pictures, the terminal and
every JSON document. So it must be text that any of them can carry and show as it is:

- valid Unicode text: no lone surrogates (`"\\ud800"` is a valid JSON escape, but no
  UTF-8 text can hold it, so `dumps` could not write it);
- one line of visible text: no control characters (C0 such as a newline or ESC, DEL,
  C1), no line or paragraph separators (U+2028, U+2029), and no bidirectional
  formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069),
  which reorder what is shown around them;
- at least one character that is not white space, and at most `MAX_NAME_LENGTH`
  characters.

Other format characters stay allowed: the zero-width joiner of emoji sequences and
the (non-)joiners some scripts need, soft hyphens, variation selectors.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["MAX_NAME_LENGTH", "name_problem"]

#: The longest name accepted, in characters (code points).
MAX_NAME_LENGTH: Final = 64

#: The bidirectional formatting characters (Unicode's Bidi_Control property).
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_REFUSED: Final = {
    "Cs": "a lone surrogate, which is not Unicode text",
    "Cc": "a control character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def name_problem(name: str) -> str | None:
    """What is wrong with a name (see the module docs), as the end of a sentence; None if nothing.

    The message never repeats the name itself (it may hold what a terminal would obey).

    Args:
        name: The name, a str (the caller checks the type).

    Returns:
        E.g. `"holds a control character (U+001B) at index 3"`, or None.

    Example:
        >>> name_problem("Ann"), name_problem("Zoë 🥒")
        (None, None)
        >>> name_problem("Ann\\x1b[2J")
        'holds a control character (U+001B) at index 3'
        >>> name_problem("\\ud800")
        'holds a lone surrogate, which is not Unicode text (U+D800) at index 0'
        >>> name_problem(" ")
        'is empty: a name needs a character that is not white space'
    """
    if len(name) > MAX_NAME_LENGTH:
        return f"is too long: {len(name)} characters, at most {MAX_NAME_LENGTH}"
    if not name.isprintable():  # (the common case needs no walk: letters, digits, marks, symbols, spaces)
        for index, char in enumerate(name):
            what = _REFUSED.get(unicodedata.category(char))
            if what is None and char in _BIDI:
                what = "a bidirectional formatting character"
            if what is not None:
                return f"holds {what} (U+{ord(char):04X}) at index {index}"
    if not name or name.isspace():
        return "is empty: a name needs a character that is not white space"
    return None
