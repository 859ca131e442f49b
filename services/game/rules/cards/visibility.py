"""Who may see what in an event (RULINGS-cards "Visibility"), and an event redacted for one
viewer. The policy of who is shown what stays the edge's; this says what the rules make public.

- Hands are private (their sizes are public): a card drawn, dealt, or taken at random from a
  hand is seen by the one who takes it, and by the victim for a card taken at random.
- Kit Carlson's three cards are his alone, and the card he puts back.
- A shuffle's order is nobody's (the deck is face down); its size is public.
- Black Jack's shown card, draw! flips, the General Store, played, discarded and in-play cards
  are public. A card taken from play (Panic! on a blue card) is public.
- Roles are hidden except the Sheriff's, until an elimination reveals one.
"""

from __future__ import annotations

from typing import Any

import msgspec

from services.game.rules.cards import events as ev
from services.game.rules.cards.vocabulary import PlayerId, Role


def audience(event: ev.Event) -> frozenset[PlayerId] | None:
    """Who may see the card(s) ``event`` names; None: everybody."""
    if isinstance(event, ev.CardDrawn):
        return None if event.shown or event.from_discard else frozenset({event.player})
    if isinstance(event, ev.TopCardNamed):
        return None if event.seen_by is None else frozenset({event.seen_by})
    if isinstance(event, (ev.KitLooked, ev.KitReturned)):
        return frozenset({event.player})
    if isinstance(event, ev.CardTaken):
        return frozenset({event.player, event.from_player}) if event.hand_card else None
    if isinstance(event, ev.DeckShuffled):
        return frozenset()
    return None


def redact(event: ev.Event, viewer: PlayerId | None) -> dict[str, Any]:
    """``event`` as JSON-ready data for ``viewer`` (None: a spectator), hidden cards and roles
    set to null (a shuffle's order and others' dealt hands keep their length only). Vulture
    Sam's take of an eliminated player's hand card is ``hand_card``: his alone."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    data["type"] = type(event).__name__
    if isinstance(event, ev.GameStarted):
        for seat in data["seats"]:
            if seat["role"] != Role.SHERIFF.value and seat["player"] != viewer:
                seat["role"] = None
        if data.get("position"):
            for pp in data["position"]["players"]:
                if pp["player"] != viewer:
                    pp["hand"] = [None] * len(pp["hand"])
            position = data["position"]
            position["deck"] = [None] * len(position["deck"])
            # the unknown deck's content is the cards placed nowhere else: hands would show through
            position["pool"] = [None] * len(position.get("pool", ()))
            if position.get("active") != viewer:
                position["kit"] = [None] * len(position.get("kit", ()))
                position["drawn"] = [None] * len(position.get("drawn", ()))
        return data
    if isinstance(event, ev.HandsDealt):
        data["hands"] = [[p, cards if p == viewer else [None] * len(cards)] for p, cards in data["hands"]]
        return data
    if isinstance(event, ev.DeckShuffled):
        data["order"] = [None] * len(event.order)
        return data
    seen = audience(event)
    if seen is not None and viewer not in seen:
        data["card"] = None
    return data
