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
  player's view (this round, and the match so far through the totals and the
  round number). The information state is perfect recall, as OpenSpiel and its
  CFR family mean it: the *whole match* as the player saw it, earlier rounds
  included. Its tensor is the compact observation, then, for every round up to
  the rules' bound on rounds, the cards dealt to the player, each trick's leader
  and each relative seat's card in it, the cards turned up (Surprise Cucumber)
  and the decisions (revival); its string lists the match's events. The tensor
  grows with the bound on rounds: a game whose tensor would pass
  `HISTORY_TENSOR_LIMIT` (Agurk and Gurka without `round_limit` or
  `fixed_rounds`) offers the string only (`provides_information_state_tensor`
  is False). Every `IIGObservationType` is offered (`CucumberObserver`).
- **Length**: `max_game_length` counts decisions, as OpenSpiel defines it (chance
  outcomes are not part of it): `max_actions(rules, players) - R`, where R is the
  rules' bound on rounds (`fixed_rounds`, else `round_limit` or the automatic
  limit; Catastrophe's `hand_count`; 1 for a game that gives no bound), since
  `max_actions` counts each round's deal as one action and OpenSpiel deals it as
  chance nodes. Agurk with 4 players: 21,866 actions in at most 754 rounds, so
  21,112 decisions. A Catastrophe match takes exactly that many.
  `max_chance_nodes_in_history` is R times the chance outcomes of a deal (every
  card dealt or turned up, and a starter).
- **Search**: use the Python bots (`open_spiel.python.algorithms.mcts.MCTSBot`,
  `ismcts.ISMCTSBot` or this package's `ISMCTSBot`, which adds `restart_at`).
  OpenSpiel's C++ `pyspiel.MCTSBot` and `pyspiel.ISMCTSBot` crash the process
  (a segmentation fault in `step`) on games written in Python, OpenSpiel's own
  `python_kuhn_poker` included (pyspiel 2.0.2); see the AI page.
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
from .game import CucumberGame, load_game, register, register_all
from .history import replayed as replayed  # (named here by pickles made before the split)
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

GAME_NAMES: tuple[str, ...] = register_all()
"""The OpenSpiel names registered on import.

Example:
    >>> GAME_NAMES[:2]
    ('cucumber_agurk', 'cucumber_gurka')
"""
