"""A plug-in whose first import is interrupted (Ctrl-C): the interrupt propagates, the next read loads it."""

import os

from .hostile import game

if os.environ.get("CUCUMBER_INTERRUPTED") != "1":
    os.environ["CUCUMBER_INTERRUPTED"] = "1"
    raise KeyboardInterrupt
GAME = game("interrupts")
