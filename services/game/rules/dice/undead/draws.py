"""Random draws of Undead or Alive: what each draw is among, for whoever supplies it.

A draw is a random input like a roll: a question asked ``Who.DICE`` (``rage_draw``,
``wound_draw``, ``duel_throw``) answered by ``DrawCard``: the server's draw online (the game's
draw derivation, ``services/game/fairness/draws.py``), the scorekeeper's entry at a table.
Each module registers, per decision, the deck it draws from, the cards the draw is among (in
the deck's own order, a card repeated as often as it is there) and the draw's number in the
game; and, per event, the card that event records as drawn. The engine's ``random_need``, the
service and the audit read only this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.state import GameState


@dataclass(frozen=True, slots=True)
class Draw:
    deck: str
    """The deck's name, the stream's label part (``rage-1``, ``wound-tokens-ua1-1``)."""
    cards: tuple[str, ...]
    """What the draw is among, in the deck's order (a token repeated as often as it is there)."""
    number: int
    """Draws from this deck before this one, in the game."""


DrawOf = Callable[[GameState], Draw | None]
DRAWS: dict[str, DrawOf] = {}
"""Decision → what a draw answering it is among (None: nothing to draw now)."""
DRAWN: dict[type[ev.Event], Callable[[ev.Event], str]] = {}
"""Event type → the card it records as drawn."""


def draw_need(s: GameState, q: Awaiting) -> Draw | None:
    """The draw ``q`` asks for, or None when ``q`` is not a draw."""
    of = DRAWS.get(q.decision)
    return None if of is None else of(s)


def drawn_card(event: ev.Event) -> str | None:
    """The card ``event`` records as drawn at random, or None when it records no draw."""
    read = DRAWN.get(type(event))
    return None if read is None else read(event)
