"""cucumber_rules: the reference rules engine for the Cucumber family of trick-avoidance card games.

One immutable state-transition API for Cucumber Catastrophe, Five Cucumbers,
Agurk and Gurka with their variants:

>>> import cucumber_rules as cr, random
>>> state = cr.new_game(cr.ruleset("agurk"), players=4)
>>> state = cr.apply(state, cr.sample_chance(state, random.Random(7)))
>>> move = cr.legal_moves(state)[0]
>>> state = cr.apply(state, move)
>>> cr.score(state).totals
(0, 0, 0, 0)
"""

from .actions import Action, Deal, Play, Revive
from .cards import DECKS, Card, card
from .engine import apply, apply_all, check, is_legal, legal_moves, new_game, sample_chance, score
from .errors import (
    ERROR_CODES,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    RulesError,
)
from .records import Record, record, replay
from .rules import OPTIONS, RULESETS, Option, Rules, ruleset
from .scoring import Score
from .serialization import FORMAT_VERSION, dumps, loads, make_converter
from .state import CHANCE, Chain, Match, Round, RoundResult, State, Table, Trick
from .views import Dealt, Event, PlayerView, Revealed, public_history, view

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "DECKS",
    "ERROR_CODES",
    "FORMAT_VERSION",
    "OPTIONS",
    "RULESETS",
    "Action",
    "Card",
    "Chain",
    "Deal",
    "Dealt",
    "Event",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "Match",
    "Option",
    "Play",
    "PlayerView",
    "Record",
    "Revealed",
    "Revive",
    "Round",
    "RoundResult",
    "Rules",
    "RulesError",
    "Score",
    "State",
    "Table",
    "Trick",
    "apply",
    "apply_all",
    "card",
    "check",
    "dumps",
    "is_legal",
    "legal_moves",
    "loads",
    "make_converter",
    "new_game",
    "public_history",
    "record",
    "replay",
    "ruleset",
    "sample_chance",
    "score",
    "view",
]
