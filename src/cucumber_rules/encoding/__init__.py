"""Numbers for machine learning: action ids, legal-action masks, observation vectors and card-by-card chance.

Everything here is plain Python (tuples of ints, floats and bools); the
framework adapters (`cucumber_rules.openspiel`, `cucumber_rules.pettingzoo`)
turn it into arrays. Each game decides its own encodings through the hooks of its
[`Game`][cucumber_rules.Game]'s `encoding` group ([`Encoding`][cucumber_rules.encoding.Encoding]:
`action_cards`, `action_decisions`, `observation_parts`, `observe`, `deal_plan`), with
defaults that fit any game played with one of the library's decks, so a third-party
game gets them too.

**Actions.** A rule set has `num_actions(rules)` action ids, the same for every
seat: first every distinct card of the deck in card order (id 0 is the lowest
card: `2C` on a 52-card deck, `1` on a numbered one; Five Cucumbers' four copies
of a card are one id), then the game's decisions (the ladder games with
`revival=True`: `Revive(seat, True)`, then `Revive(seat, False)`). A `Play` of a
card has that card's id whoever plays it; `action_of(rules, seat, id)` gives the
seat's action back. Ids never change for a given rule set.

**Observations.** `observation(view)` is a tuple of `observation_size(rules,
players)` floats, seats counted from the viewer (relative seat `r` is seat
`(viewer + r) % players`, so the viewer is always 0). `observation_parts` names
its parts in order; every game starts with the common parts (`common_parts`):

| part | size | holds |
|---|---|---|
| `hand` | K | copies of each card in the viewer's hand (K = distinct cards) |
| `seen` | K | copies of each card seen this round: completed tricks' cards, cards turned up (Surprise) |
| `trick` | n × K | for each relative seat, the card it played in the current trick (1.0), if any |
| `leader` | n | the relative seat that leads the current trick (1.0) |
| `to_act` | n | the relative seat to act (1.0); all 0 at a deal and once over |
| `hand_sizes` | n | cards in each relative seat's hand |
| `totals` | n | each relative seat's total (points or cucumbers) |
| `round` | 1 | the round (hand) in play or just finished: 1 for the first, 0 before the first deal |

The ladder games add `eliminated` (n: 1.0 for each relative seat out of the match),
`marks` (n: cucumber marks, Agurk), `sitting_out` (n) and `pending` (n: seats to
decide on revival); Catastrophe adds `marker` (4: High,
Low, High broken, Low broken), `revealed` (K: the current trick's card turned up
in Surprise Cucumber) and `captured` (n: cucumbers each relative seat captured
this hand). Values are raw counts, not scaled.

**Chance, card by card.** `sample_chance` draws a whole deal at once; a search
or learning framework that wants every chance event as a node of its own (each
card dealt) uses `deal_plan`, `chance_outcomes` and `chance_deal`: the deal is
drawn one card at a time, hand by hand in seat order, then the stock cards the
round needs (Surprise Cucumber's reveals), then the starter among tied seats
(Catastrophe), with exactly the probabilities of `sample_chance`'s deals.
Chance outcome ids are card ids (`0..K-1`) and `K + seat` for a starter.

Example:
    >>> import cucumber_rules as cr, random
    >>> rules = cr.ruleset("gurka")
    >>> cr.num_actions(rules), cr.action_id(rules, cr.Play(1, "2C")), cr.action_of(rules, 1, 51)
    (52, 0, Play(seat=1, card=card('AS')))
    >>> s = cr.new_game(rules, players=3)
    >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
    >>> sum(cr.legal_mask(s)), len(cr.observation(cr.view(s, 0))) == cr.observation_size(rules, 3)
    (7, True)
"""

from __future__ import annotations

from .chance import (
    Dealing,
    DealPlan,
    chance_deal,
    chance_outcomes,
    deal_outcomes,
    deal_plan,
    default_deal_plan,
    num_chance_outcomes,
)
from .hooks import Encoding
from .ids import action_id, action_of, legal_mask, num_actions
from .observations import (
    UNKNOWN_BOUND,
    common_observation,
    common_parts,
    observation,
    observation_bounds,
    observation_parts,
    observation_size,
    relative,
)

__all__ = [
    "UNKNOWN_BOUND",
    "DealPlan",
    "Dealing",
    "Encoding",
    "action_id",
    "action_of",
    "chance_deal",
    "chance_outcomes",
    "common_observation",
    "common_parts",
    "deal_outcomes",
    "deal_plan",
    "default_deal_plan",
    "legal_mask",
    "num_actions",
    "num_chance_outcomes",
    "observation",
    "observation_bounds",
    "observation_parts",
    "observation_size",
    "relative",
]
