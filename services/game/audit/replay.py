"""Replay a game's inputs through the engine and compare what it produces with what is stored.

Dice faces and decisions are inputs; everything else (life lost, eliminations, the result) is
an output the engine recomputes. The replay walks the stored engine events with the engine
beside it: while the engine has produced events not yet compared, the next stored event must
equal the next produced one; when the engine is at rest, the next stored event must be an
input (recovered with the game records' own ``inputs_from_events``), which is played and whose
events are then compared the same way, starting with the input's own event. The first
mismatch is named in a referee's words.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from services.game.audit.differences import explain_difference
from services.game.audit.stream import StoredEvent
from services.game.audit.words import Unreadable, referee_words
from services.game.engines import RULE_ERRORS, GameEngine, PlayedGame, UnplayableRuleset, engine_for
from services.game.engines.interface import Command
from services.game.records import inputs_from_events
from services.game.rules.ruleset import BASE_DICE, Ruleset


@dataclass(frozen=True, slots=True)
class Replay:
    divergence: str | None
    """The first difference between the store and the rules, or None."""
    game: PlayedGame | None
    """The engine's game where the replay stopped (None if it could not start)."""
    compared: int
    """Stored engine events that matched the rules."""
    inputs: int
    """Inputs played."""
    stopped_at: int | None = None
    """The number of the stored event where the replay diverged."""
    question: str | None = None
    """What the rules await where the replay stopped, in a referee's words (None: nothing)."""


def replay_events(engine: Sequence[StoredEvent], ruleset: Ruleset = BASE_DICE) -> Replay:
    """Replay the stored engine events (GameStarted first) and compare them one by one, with
    the rules of ``ruleset`` (the game's, as its ``GameCreated`` records it).

    Stops without complaint where the engine's game is over and everything it produced has
    matched: what the store holds after the end is the result check's business.
    """
    if not engine:
        return Replay(None, None, 0, 0)
    first = engine[0]
    try:
        rules = engine_for(ruleset)
    except UnplayableRuleset as error:
        return _diverged(first, f"the rules of {ruleset.text} cannot be replayed here: {error}", None)
    if not rules.opens(first.event):
        return _diverged(first, f"the store has {referee_words(first.event)} before the game started", None)
    try:
        game = rules.restart(first.event)
    except RULE_ERRORS as error:
        return _diverged(first, f"the game cannot start like this: {error}", None)
    pending: deque[msgspec.Struct] = deque(game.events)
    events = [stored.event for stored in engine]
    compared = inputs = 0
    index = 0
    while index < len(engine):
        stored = engine[index]
        if isinstance(stored.event, Unreadable):
            return _diverged(
                stored, f"the stored {stored.event.type} cannot be read: {stored.event.reason}", game
            )
        if pending:
            expected = pending.popleft()
            if stored.event != expected:
                return _diverged(stored, explain_difference(stored.event, expected), game, compared, inputs)
            compared += 1
            index += 1
            continue
        if game.is_over:
            break
        command = rules.input_at(game, events, index)
        if command is None:
            question = rules.question(game)
            wanted = "nothing more" if question is None else f"{question.describe} next"
            message = f"the store says {referee_words(stored.event)}, but the rules await {wanted}"
            return _diverged(stored, message, game, compared, inputs)
        try:
            produced = rules.play(game, command)
        except RULE_ERRORS as error:
            return _diverged(stored, f"{referee_words(stored.event)}, but {error}", game, compared, inputs)
        inputs += 1
        pending.extend(produced)  # the input's own event is compared first, like any other
    if pending:
        last = engine[-1].number
        message = f"the store stops after event {last}, but the rules go on: {referee_words(pending[0])}"
        return Replay(message, game, compared, inputs, last, _question(rules, game))
    return Replay(None, game, compared, inputs, None, _question(rules, game))


def _question(rules: GameEngine, game: PlayedGame) -> str | None:
    question = rules.question(game)
    return None if question is None else question.describe


def input_of(event: msgspec.Struct) -> Command | None:
    """The command a stored input event records, or None for an output."""
    commands = inputs_from_events([event])  # type: ignore[list-item]
    return commands[0] if commands else None


def _diverged(
    stored: StoredEvent, message: str, game: PlayedGame | None, compared: int = 0, inputs: int = 0
) -> Replay:
    return Replay(f"event {stored.number}: {message}", game, compared, inputs, stored.number)
