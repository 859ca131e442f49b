"""A card record restated from one of its resting points: the position there, then the rest.

A table that lost track of the deck's order (the deck dropped, recounted, shuffled again by
hand) goes on from a position whose deck is in an order nobody knows (docs/rulings.md,
"Restating the deck"); a long record may be cut in two. ``restate_card_record`` writes the new
record: the position after the first ``at`` inputs (``rules.cards.position.position_of``) and
the inputs after them. With ``unknown_deck`` the deck's order below its top ``keep`` cards is
forgotten, and each card then taken from it is named (``table top N``) as the original game
took it: the restated record plays the very same game, its ``TopCardNamed`` events aside.
"""

from __future__ import annotations

import msgspec

from services.game.records.cards.model import CardRecord
from services.game.records.cards.replay import replay_card_record
from services.game.records.errors import IllegalInput, MalformedRecord
from services.game.rules.cards import TABLE, Game, RuleError
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.position import forget_order, position_of
from services.game.rules.cards.vocabulary import CardId, Decision

FROM_THE_DECK = (ev.CardDrawn, ev.KitLooked, ev.CardFlipped, ev.StoreCardRevealed)
"""The events that take the deck's top card (``CardDrawn`` unless from the discard pile)."""


def taken_from_deck(events: list[ev.Event]) -> list[CardId]:
    """The cards these events take from the top of the deck, in order."""
    return [
        e.card
        for e in events
        if isinstance(e, FROM_THE_DECK) and not (isinstance(e, ev.CardDrawn) and e.from_discard)
    ]


def restate_card_record(
    record: CardRecord, at: int, *, unknown_deck: bool = False, keep: int = 0
) -> CardRecord:
    """The record from its resting point after ``at`` inputs (see the module's docstring).
    Raises ``MalformedRecord`` when that point is not one a position can start from (before
    the first turn, or after the end), ``IllegalInput`` as the replay does."""
    if not 0 <= at <= len(record.inputs):
        raise MalformedRecord(
            f"record: it has {len(record.inputs)} inputs; a position after {at} is not in it"
        )
    head = msgspec.structs.replace(record, inputs=record.inputs[:at])
    original = replay_card_record(head)
    try:
        position = position_of(original.state)
    except ValueError as e:
        raise MalformedRecord(f"record: after input {at}: {e}") from None
    if unknown_deck:
        position = forget_order(position, keep=keep)
    restated = Game.start(record.seats, eight_players=record.eight_players, position=position)
    inputs: list[cmd.GameCommand] = []
    for index, command in enumerate(record.inputs[at:], start=at):
        try:
            taken = taken_from_deck(original.play(command))
            produced = restated.play(command)
            inputs.append(command)
            # the restated deck asks for each card its order no longer gives: the original's
            while (q := restated.awaiting) is not None and q.decision is Decision.TOP_CARD:
                done = len(taken_from_deck(produced))
                if done >= len(taken):
                    break  # the original asked for it too: its own next input names it
                named = cmd.NameTopCard(player=TABLE, card=taken[done])
                produced += restated.play(named)
                inputs.append(named)
        except RuleError as e:
            raise IllegalInput(index, command, e, original) from e
    return msgspec.structs.replace(record, deck=None, position=position, inputs=tuple(inputs))
