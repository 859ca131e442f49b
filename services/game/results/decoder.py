"""Reading finished games out of recorded events, in the neutral words of ``services.game.results``.

The one decoder that league facts, standings, the ratings outcome and the ratings consumer
share, so none of them can disagree on what a game's result was, and none of them imports an
engine. Events are read through the game codec (``GAME_MAPPER``), so an event is understood
here exactly as the game service wrote it.

An engine plugs in by adding its end event to ``_FINISHES``: a function from that event (and
its recorded payload) to a ``GameFinish``: the dice engine's ``GameEnded``, whose player lines
carry Old Saloon's ``special`` role and ``ghost`` flag when a game has them, and the card game's
``cards.GameEnded`` (sides law, outlaws, renegade; who eliminated whom).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from event_store import RecordedEvent
from services.game.application.codec import GAME_MAPPER, game_id_of
from services.game.application.lifecycle import GameAbandoned, GameCreated, PlayerJoined, SeatsDealt, seat_id
from services.game.engines.cards import STORED_PREFIX, cards_finish
from services.game.engines.dice import dice_finish
from services.game.results import (
    BASE_RULESET,
    GameFinish,
    GameResult,
    GameType,
)
from services.game.rules.dice import GameEnded

GameFact = GameCreated | PlayerJoined | SeatsDealt | GameAbandoned | GameFinish
"""What a consumer of results needs from a game stream: the lifecycle facts as the game service
recorded them, and the engine's end as a neutral ``GameFinish``."""


_FINISHES: dict[str, Callable[[Any, Mapping[str, Any]], GameFinish]] = {
    GameEnded.__name__: dice_finish,
    STORED_PREFIX + "GameEnded": lambda ended, payload: cards_finish(ended),
}
"""Each engine's end event (by stored type name) → its neutral finish, from the decoded event
and the recorded payload."""

FINISH_TYPES = frozenset(_FINISHES)
"""The stored event types that end a game, whatever its type."""

LIFECYCLE_TYPES = frozenset(
    {GameCreated.__name__, PlayerJoined.__name__, SeatsDealt.__name__, GameAbandoned.__name__}
)
FACT_TYPES = LIFECYCLE_TYPES | FINISH_TYPES
"""The only game events a result consumer reads; everything else is skipped undecoded."""


def decode_game_fact(event: RecordedEvent) -> GameFact | None:
    """A game event as a result consumer sees it; None for the events it does not need."""
    if event.type not in FACT_TYPES:
        return None
    domain = GAME_MAPPER.to_domain(event)
    finish = _FINISHES.get(event.type)
    if finish is not None:
        return finish(domain, event.data)  # type: ignore[arg-type]
    return domain  # type: ignore[return-value]


def identity_of(created: GameCreated) -> tuple[str, str]:
    """(game type, ruleset text) a game was created with; games created before rulesets were
    recorded decode as the base dice game."""
    return created.ruleset.game_type.value, created.ruleset.text


def seat_members(seats: SeatsDealt) -> dict[str, str]:
    """Seat id (p1…) → member id."""
    return {seat_id(i): member for i, member in enumerate(seats.members)}


@dataclass(slots=True)
class _Open:
    game_type: str
    ruleset: str
    members: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class GameResults:
    """Finished games out of recorded events, fed in order: ``add`` returns a game's result
    when its end arrives. Seats come from ``SeatsDealt``, or ``PlayerJoined`` with a seat
    (table games). A game is forgotten once it ended or was abandoned."""

    _open: dict[str, _Open] = field(default_factory=dict)

    def add(self, event: RecordedEvent) -> GameResult | None:
        if event.category != "game":
            return None
        fact = decode_game_fact(event)
        if fact is None:
            return None
        game_id = game_id_of(event.stream)
        match fact:
            case GameCreated():
                game_type, ruleset = identity_of(fact)
                self._open[game_id] = _Open(game_type, ruleset)
            case SeatsDealt():
                self._game(game_id).members.update(seat_members(fact))
            case PlayerJoined(player=player) if player is not None:
                self._game(game_id).members[player] = fact.member_id
            case GameAbandoned():
                self._open.pop(game_id, None)
            case GameFinish():
                game = self._open.pop(game_id, None) or _Open(GameType.DICE, BASE_RULESET)
                return fact.result(game_id, game.members, game_type=game.game_type, ruleset=game.ruleset)
        return None

    def _game(self, game_id: str) -> _Open:
        return self._open.setdefault(game_id, _Open(GameType.DICE, BASE_RULESET))


def game_result(events: Iterable[RecordedEvent]) -> GameResult | None:
    """The result of the finished game whose stream these events are; None if it has not ended.

    Raises ``MissingMember`` when the end names a seat no event gave a member."""
    results = GameResults()
    found = None
    for event in events:
        found = results.add(event) or found
    return found


__all__ = [
    "FACT_TYPES",
    "FINISH_TYPES",
    "GameFact",
    "GameResults",
    "decode_game_fact",
    "dice_finish",
    "game_result",
    "identity_of",
    "seat_members",
]
