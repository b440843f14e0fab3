"""Player views: what one seat (or a spectator) may know about a match.

[`view`][cucumber_rules.view] builds a `PlayerView` by *listing what to
include*: the viewer's own hand, every hand's size, the current and completed
tricks, the scores, whose turn it is, the viewer's legal moves and a public
history of events, plus what the game itself shows (its `Game.view_fields`:
Catastrophe's Trick Marker, revealed and captured cards; the ladder's revival
state). It never copies a `State` and blanks fields, so a field added to
`State` later cannot leak through a view. Each game has its own view class
(`LadderView`, `CatastropheView`) deriving from `PlayerView`.

A view costs the same at any point of a match. `view` works out only the
seat's legal moves and gathers the other fields from pieces that every view of
the same trick (or match value) shares, kept on the `Table` and `Match` they
come from; it sets the fields a bot reads first (`rules`, `seat`, `to_act`,
`legal`) and fills in the others, from those public pieces only, the first time
one of them is read. The match's score too is worked out then, once per match
value, so a bot that reads only `legal` never pays for it. A view holds no
reference to the state, and equality, hashing, `repr`, pickling and JSON see
every field as usual.

The history (`PlayerView.events` for the current round, `public_history` for
the whole match) holds the players' own actions (`Play` and a game's decisions,
which everybody sees), `Dealt` events and the game's own events (Catastrophe's
`Revealed`). A `Dealt` is a deal as the viewer saw it: their own cards, how
many cards each seat received and the announced starter.
"""

from __future__ import annotations

from .build import glance, public_history, view
from .hooks import Views
from .types import Dealt, Event, PlayerView

__all__ = ["Dealt", "Event", "PlayerView", "Views", "glance", "public_history", "view"]
