"""OpenSpiel's information-set MCTS bot, made to work with OpenSpiel's `evaluate_bots`."""

from __future__ import annotations

from typing import Any

from open_spiel.python.algorithms import ismcts


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python information-set MCTS bot (`open_spiel.python.algorithms.ismcts.ISMCTSBot`), with
    `restart_at`.

    OpenSpiel's own class lacks `restart_at`, which `open_spiel.python.algorithms.evaluate_bots`
    calls at the start of every match (pyspiel then fails with "RestartAt(state) not implemented").
    This subclass takes the same arguments and starts a fresh search tree there; its search
    builds a new tree at every step anyway. Resampling goes through
    `CucumberState.resample_from_infostate`.

    Example:
        >>> import numpy as np
        >>> import pyspiel
        >>> from open_spiel.python.algorithms import evaluate_bots, mcts
        >>> game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hand_count": 1, "hand_size": 3})
        >>> rs = np.random.RandomState(0)
        >>> bots = [ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.5, 10, random_state=rs)] * 3
        >>> sum(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs))
        1.0
    """

    def restart_at(self, state: Any) -> None:
        """Start afresh at `state` (the tree of the last search is dropped)."""
        self.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to follow: every step searches from the state it is given."""
