"""What differs between a stored event and the one the dice engine's rules give, in a
referee's words (the audit's replay names its first divergence with ``explain_difference``).

The dice engine's own vocabulary: another engine brings its own explanations beside these.
"""

from __future__ import annotations

import msgspec

from services.game.audit.words import cause_words, referee_words, role_words, side_words, win_words
from services.game.rules.dice import events as ev
from services.game.rules.dice.events import Event


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
