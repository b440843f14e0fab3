"""A plug-in that takes a while to import (readers in other threads must wait for it)."""

import time

from .hostile import game

time.sleep(0.5)
GAME = game("slow")
