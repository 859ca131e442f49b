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

from services.game.audit.stream import StoredEvent
from services.game.audit.words import (
    Unreadable,
    cause_words,
    referee_words,
    role_words,
    side_words,
    win_words,
)
from services.game.records import inputs_from_events
from services.game.rules.dice import Event, Game, GameCommand, GameStarted, RuleError
from services.game.rules.dice import events as ev


@dataclass(frozen=True, slots=True)
class Replay:
    divergence: str | None
    """The first difference between the store and the rules, or None."""
    game: Game | None
    """The engine's game where the replay stopped (None if it could not start)."""
    compared: int
    """Stored engine events that matched the rules."""
    inputs: int
    """Inputs played."""
    stopped_at: int | None = None
    """The number of the stored event where the replay diverged."""


def replay_events(engine: Sequence[StoredEvent]) -> Replay:
    """Replay the stored engine events (GameStarted first) and compare them one by one.

    Stops without complaint where the engine's game is over and everything it produced has
    matched: what the store holds after the end is the result check's business.
    """
    if not engine:
        return Replay(None, None, 0, 0)
    first = engine[0]
    if not isinstance(first.event, GameStarted):
        return _diverged(first, f"the store has {referee_words(first.event)} before the game started", None)
    try:
        game = Game.start(first.event.seats, first.event.position)
    except RuleError as error:
        return _diverged(first, f"the game cannot start like this: {error}", None)
    pending: deque[Event] = deque(game.events)
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
        command = input_of(stored.event)
        if command is None:
            question = game.awaiting
            wanted = "nothing more" if question is None else f"{question.describe()} next"
            message = f"the store says {referee_words(stored.event)}, but the rules await {wanted}"
            return _diverged(stored, message, game, compared, inputs)
        try:
            produced = game.play(command)
        except RuleError as error:
            return _diverged(stored, f"{referee_words(stored.event)}, but {error}", game, compared, inputs)
        inputs += 1
        pending.extend(produced)  # the input's own event is compared first, like any other
    if pending:
        last = engine[-1].number
        message = f"the store stops after event {last}, but the rules go on: {referee_words(pending[0])}"
        return Replay(message, game, compared, inputs, last)
    return Replay(None, game, compared, inputs)


def input_of(event: msgspec.Struct) -> GameCommand | None:
    """The command a stored input event records, or None for an output."""
    commands = inputs_from_events([event])  # type: ignore[list-item]
    return commands[0] if commands else None


def _diverged(
    stored: StoredEvent, message: str, game: Game | None, compared: int = 0, inputs: int = 0
) -> Replay:
    return Replay(f"event {stored.number}: {message}", game, compared, inputs, stored.number)


# --- what differs, in words ------------------------------------------------------------------


def explain_difference(stored: msgspec.Struct, expected: Event) -> str:
    """Why ``stored`` is not the event the rules produce here (``expected``)."""
    match stored, expected:
        case ev.LifeLost(), ev.LifeLost() if _same_but(stored, expected, "amount"):
            return _amount(
                f"{stored.player} lost {stored.amount} life to {cause_words(stored.cause)}",
                stored.amount,
                expected.amount,
            )
        case ev.LifeGained(), ev.LifeGained() if _same_but(stored, expected, "amount"):
            return _amount(referee_words(stored), stored.amount, expected.amount)
        case ev.GameEnded(), ev.GameEnded():
            return _explain_result(stored, expected)
        case ev.PlayerEliminated(), ev.PlayerEliminated() if _same_but(stored, expected, "role"):
            # an eliminated player's role is public, so both may be named
            return (
                f"the store reveals {stored.player} as {role_words(stored.role)} on elimination; "
                f"the rules say {expected.player} was {role_words(expected.role)}"
            )
        case ev.GameStarted(), ev.GameStarted():
            fields = _fields(stored, expected)
            return f"the start of the game differs from what the rules give for these seats ({fields})"
    said, given = referee_words(stored), referee_words(expected)
    if said == given:
        return f"the store says {said}, but its {_fields(stored, expected)} differ from the rules'"
    return f"the store says {said}; the rules give {given} here"


def _amount(claim: str, stored: int, expected: int) -> str:
    if stored > expected:
        return f"{claim}; the rules allow {expected}"
    return f"{claim}; the rules give {expected}"


def _explain_result(stored: ev.GameEnded, expected: ev.GameEnded) -> str:
    if stored.winning_side != expected.winning_side:
        return (
            f"the store says the game ended with {win_words(stored.winning_side)}; "
            f"the rules give {side_words(expected.winning_side)} the win"
        )
    if stored.turn != expected.turn:
        return (
            f"the store says the game ended on turn {stored.turn}; the rules end it on turn {expected.turn}"
        )
    if stored.winners != expected.winners:
        return (
            f"the store names {' '.join(stored.winners) or 'nobody'} as the winners; "
            f"the rules name {' '.join(expected.winners) or 'nobody'}"
        )
    rules = {r.player: r for r in expected.results}
    for result in stored.results:
        wanted = rules.get(result.player)
        if wanted is None:
            return f"the store's result lists {result.player}, who has no seat"
        if result != wanted:
            fields = _fields(result, wanted)
            return f"the store's result for {result.player} differs from the rules' in its {fields}"
    return f"the store's result differs from the rules' ({_fields(stored, expected)})"


def _same_but(a: msgspec.Struct, b: msgspec.Struct, name: str) -> bool:
    """True when ``a`` and ``b`` are the same kind of event and differ only in ``name``."""
    return type(a) is type(b) and _differing(a, b) == [name]


def _differing(a: msgspec.Struct, b: msgspec.Struct) -> list[str]:
    if type(a) is not type(b):
        return ["type"]
    return [f for f in a.__struct_fields__ if getattr(a, f) != getattr(b, f)]


def _fields(a: msgspec.Struct, b: msgspec.Struct) -> str:
    return ", ".join(name.replace("_", " ") for name in _differing(a, b))
