"""Play a card record's inputs through the card engine, one by one, as they were played live."""

from __future__ import annotations

from services.game.records.cards.model import CardRecord
from services.game.records.errors import IllegalInput, MalformedRecord
from services.game.records.replay import OnEvent
from services.game.rules.cards import TABLE, Game, RuleError
from services.game.rules.cards import commands as cmd


def replay_card_record(record: CardRecord, on_event: OnEvent | None = None) -> Game:
    """The game the record describes, after its last input.

    Raises ``MalformedRecord`` for a setup or a first shuffle the rules refuse, and
    ``IllegalInput`` (the input's index and text, the engine's reason, and the game as it stood
    before it) at the first input the rules refuse; inputs after it are not played.
    """
    try:
        game = Game.start(record.seats, eight_players=record.eight_players, position=record.position)
    except RuleError as e:
        raise MalformedRecord(f"setup: {e}") from None
    if record.deck is not None:
        try:
            game.play(cmd.ShuffleDeck(player=TABLE, order=record.deck))
        except RuleError as e:
            raise MalformedRecord(f"record: `$.deck`: {e}") from None
    if on_event is not None:
        for n, event in enumerate(game.events):
            on_event(n, event)
    for index, command in enumerate(record.inputs):
        first = len(game.events)
        try:
            produced = game.play(command)
        except RuleError as e:
            raise IllegalInput(index, command, e, game) from e
        if on_event is not None:
            for n, event in enumerate(produced, start=first):
                on_event(n, event)
    return game
