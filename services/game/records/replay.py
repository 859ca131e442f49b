"""Play a record's inputs through the engine, one by one, exactly as they were played live."""

from __future__ import annotations

from collections.abc import Callable

from services.game.records.errors import IllegalInput, MalformedRecord
from services.game.records.model import GameRecord
from services.game.rules.dice import Event, Game, InvalidSetup, RuleError

OnEvent = Callable[[int, Event], None]
"""Called with each event's index in ``game.events`` (0 is GameStarted) as it happens."""


def replay_record(record: GameRecord, on_event: OnEvent | None = None) -> Game:
    """The game the record describes, after its last input.

    Raises ``MalformedRecord`` if the setup is refused and ``IllegalInput`` (naming the input's
    index and text, and holding the game as it stood before it) at the first input the rules
    refuse; inputs after it are not played.
    """
    try:
        game = Game.start(record.seats, record.position)
    except InvalidSetup as e:
        raise MalformedRecord(f"setup: {e}") from None
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
