"""Play a record's inputs through the engine, one by one, exactly as they were played live."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.game.engines import RULE_ERRORS, PlayedGame, UnplayableRuleset, engine_for
from services.game.records.errors import IllegalInput, MalformedRecord
from services.game.records.model import GameRecord

OnEvent = Callable[[int, Any], None]
"""Called with each event's index in ``game.events`` (0 is GameStarted) as it happens."""


def replay_record(record: GameRecord, on_event: OnEvent | None = None) -> Any:
    """The game the record describes, after its last input, played with the rules of the
    record's ruleset (the engine's game: for the dice game a ``rules.dice.Game``).

    Raises ``MalformedRecord`` if this server cannot play the ruleset or the setup is refused,
    and ``IllegalInput`` (naming the input's index and text, and holding the game as it stood
    before it) at the first input the rules refuse; inputs after it are not played.
    """
    try:
        engine = engine_for(record.ruleset)
    except UnplayableRuleset as e:
        raise MalformedRecord(f"record: `$.ruleset`: {e}") from None
    try:
        game: PlayedGame = engine.start(record.seats, record.position)
    except RULE_ERRORS as e:
        raise MalformedRecord(f"setup: {e}") from None
    if on_event is not None:
        for n, event in enumerate(game.events):
            on_event(n, event)
    for index, command in enumerate(record.inputs):
        first = len(game.events)
        try:
            produced = engine.play(game, command)
        except RULE_ERRORS as e:
            raise IllegalInput(index, command, e, game) from e  # type: ignore[arg-type]
        if on_event is not None:
            for n, event in enumerate(produced, start=first):
                on_event(n, event)
    return game
