"""A plug-in that reads the registry while the plug-ins are loading (it must not wait for itself)."""

import cucumber_rules as cr

from .hostile import game

SEEN = cr.ruleset("agurk").name
GAME = game("reentrant")
