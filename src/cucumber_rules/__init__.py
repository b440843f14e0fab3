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

Each trick mechanism is a [`Game`][cucumber_rules.Game] in the registry
[`GAMES`][cucumber_rules.GAMES]: `"ladder"` (Agurk, Gurka, Five Cucumbers) and
`"catastrophe"`; [`register_game`][cucumber_rules.register_game] adds one.
"""

from .actions import Action, Deal, Decision, Play
from .cards import DECKS, Card, card
from .encoding import (
    action_id,
    action_of,
    legal_mask,
    num_actions,
    observation,
    observation_parts,
    observation_size,
)
from .engine import apply, apply_all, check, is_legal, legal_moves, new_game, sample_chance, score
from .errors import (
    ERROR_CODES,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    RulesError,
)
from .games import GAMES, Game, game_of, register_game
from .history import History
from .outcomes import max_actions, returns
from .records import Record, record, replay
from .rules import OPTIONS, RULESETS, Option, Rules, option, ruleset
from .sampling import sample_world
from .scoring import Score
from .state import CHANCE, Match, Round, RoundResult, State, Table, Trick
from .views import Dealt, Event, PlayerView, public_history, view

# The built-in games register themselves when imported, in this order.
# isort: off
from .games.ladder import LadderMatch, LadderResult, LadderRules, LadderScore, LadderState, LadderView, Revive
from .games.catastrophe import (
    CatastropheMatch,
    CatastropheRules,
    CatastropheState,
    CatastropheTable,
    CatastropheTrick,
    CatastropheView,
    Marker,
    Revealed,
)
from .serialization import FORMAT_VERSION, dumps, loads, make_converter
# isort: on

__version__ = "0.3.0"

__all__ = [
    "CHANCE",
    "DECKS",
    "ERROR_CODES",
    "FORMAT_VERSION",
    "GAMES",
    "OPTIONS",
    "RULESETS",
    "Action",
    "Card",
    "CatastropheMatch",
    "CatastropheRules",
    "CatastropheState",
    "CatastropheTable",
    "CatastropheTrick",
    "CatastropheView",
    "Deal",
    "Dealt",
    "Decision",
    "Event",
    "Game",
    "History",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "LadderMatch",
    "LadderResult",
    "LadderRules",
    "LadderScore",
    "LadderState",
    "LadderView",
    "Marker",
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
    "action_id",
    "action_of",
    "apply",
    "apply_all",
    "card",
    "check",
    "dumps",
    "game_of",
    "is_legal",
    "legal_mask",
    "legal_moves",
    "loads",
    "make_converter",
    "max_actions",
    "new_game",
    "num_actions",
    "observation",
    "observation_parts",
    "observation_size",
    "option",
    "public_history",
    "record",
    "register_game",
    "replay",
    "returns",
    "ruleset",
    "sample_chance",
    "sample_world",
    "score",
    "view",
]
