"""The `cucumber-rules` command line: demo matches, play in the terminal, simulate, replay, rules.

```text
cucumber-rules demo       a narrated match between bots (no arguments needed)
cucumber-rules play       play against bots in the terminal; save and resume
cucumber-rules simulate   many bot matches: win rates with 95% intervals, penalties
cucumber-rules replay     check a saved game or match record and print its score
cucumber-rules rules      the presets and every option
cucumber-rules serve      host tables to play with friends (the `server` extra)
cucumber-rules --version  the installed version
```

The command line needs the `cli` extra (`pip install "cucumber-rules[cli]"`, which
brings typer and rich); the library itself does not. It talks to the library only
through its public names. Rules options are given as `--option key=value`
(repeatable): ints, `true`/`false`, `none`, and comma-separated ints for
`cucumbers`. A bad option or argument prints the library's explanation and exits
with code 2; an unreadable or invalid file exits with code 1. The entry point is
[`main`][cucumber_rules.cli.main].
"""

from __future__ import annotations

from . import (
    commands,  # noqa: F401 - registers the commands on `app`, in the order `--help` lists them
    serve,  # noqa: F401 - `serve`, the table server (its own extra)
)
from .common import app, main, parse_option, parse_value
from .saves import SAVE_FORMAT, play_seed

__all__ = ["SAVE_FORMAT", "app", "main", "parse_option", "parse_value", "play_seed"]
