"""A plug-in whose import raises."""

raise RuntimeError("broken on purpose")
