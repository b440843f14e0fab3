"""OpenSpiel games for every preset: `cucumber_agurk`, `cucumber_gurka`, ... (extra `[openspiel]`).

Importing this package registers one Python game with `pyspiel` per preset:
`cucumber_agurk`, `cucumber_gurka`, `cucumber_five_cucumbers`,
`cucumber_fuenf_gurken` and `cucumber_catastrophe` (a registered third-party
game's presets too: `cucumber_<preset>`, with `-` written `_`). Load one with
`pyspiel.load_game("cucumber_agurk")` or with parameters,
`pyspiel.load_game("cucumber_gurka", {"players": 3, "threshold": 21})`.

- **Parameters**: `players` (default 4, or the nearest count the preset allows)
  and every option of the preset (`ruleset` names and values) except
  `min_players` and `max_players`. An option that may be None (`fixed_rounds`,
  `round_limit`) takes 0 for None; Catastrophe's `cucumbers` table is 60 counts
  (each 0..100) joined by `:` (a game string splits on commas).
- **Actions** are `cucumber_rules.encoding` ids: `num_distinct_actions` is
  `num_actions(rules)`, a card's id is the same for every seat.
- **Chance**: each deal is a run of chance nodes, one card at a time (hands in
  seat order, then the stock cards Surprise Cucumber turns up, then the starter
  when tied seats draw for it), with exactly `sample_chance`'s probabilities,
  If You Can't Beat 'Em included (`encoding.chance_outcomes`). Chance outcome ids
  are card ids, and `num_actions + seat` for a starter.
- **Returns**: `cucumber_rules.returns`: once the match is over the winners share
  1.0 (constant-sum, utilities in [0, 1]); 0.0 for everyone before.
- **Observations**: the observation tensor is `encoding.observation` of the
  player's view. The information-state tensor adds the round's completed tricks
  (for each trick: its leader and each relative seat's card), so it holds
  everything the player saw this round; earlier rounds count through the scores.
  The strings say the same in words (the information state: the round's events).
- **Length**: `max_game_length` is `max_actions(rules, players)`.
- **Serialization**: OpenSpiel's own (`pyspiel.serialize_game_and_state`, the
  action history) and pickle both work; `state.cucumber_state` is the library's
  `State`, for `cr.view`, `cr.dumps` and the rest.

Example:
    >>> import pyspiel
    >>> import cucumber_rules.openspiel
    >>> game = pyspiel.load_game("cucumber_gurka", {"players": 3, "hand_size": 2})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 52)
    >>> while state.is_chance_node():
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (0, ['seat 0 plays 2C', 'seat 0 plays 2D'])
"""

from __future__ import annotations

from .bots import ISMCTSBot
from .game import CucumberGame, _register_all, load_game, register
from .history import _replayed as _replayed  # (named here by pickles made before the split)
from .observers import HISTORY_TENSOR_LIMIT, CucumberObserver
from .params import game_name, rules_of
from .params import parameters as parameters
from .state import CucumberState

__all__ = [
    "GAME_NAMES",
    "HISTORY_TENSOR_LIMIT",
    "CucumberGame",
    "CucumberObserver",
    "CucumberState",
    "ISMCTSBot",
    "game_name",
    "load_game",
    "register",
    "rules_of",
]

GAME_NAMES: tuple[str, ...] = _register_all()
"""The OpenSpiel names registered on import.

Example:
    >>> GAME_NAMES[:2]
    ('cucumber_agurk', 'cucumber_gurka')
"""
