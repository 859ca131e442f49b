"""``Game``: one game of BANG! (the card game), its events and its state, in one object.

A game is a pure function of its inputs: ``Game.start(seats)`` then ``game.play(command)`` for
each decision and each random input (``TABLE``'s shuffles and random picks). ``game.events`` is
the whole story; ``Game.replay(events)`` rebuilds the same game from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.decide import awaiting, execute
from services.game.rules.cards.evolve import evolve, fold, initial_state
from services.game.rules.cards.flow import advance
from services.game.rules.cards.legal import LegalCommands
from services.game.rules.cards.setup import new_game
from services.game.rules.cards.state import GameState


class Game:
    __slots__ = ("events", "state")

    def __init__(self, state: GameState, events: list[ev.Event]) -> None:
        self.state = state
        self.events = events

    @classmethod
    def start(
        cls, seats: Sequence[ev.Seat], *, eight_players: bool = False, position: ev.Position | None = None
    ) -> Game:
        started = new_game(seats, eight_players=eight_players, position=position)
        state = initial_state(started)
        events: list[ev.Event] = [started]

        def emit(event: ev.Event) -> None:
            evolve(state, event)
            events.append(event)

        advance(state, emit)
        return cls(state, events)

    @classmethod
    def replay(cls, events: Iterable[ev.Event]) -> Game:
        events = list(events)
        return cls(fold(events), events)

    def play(self, command: cmd.Command) -> list[ev.Event]:
        """Apply one command; raises a RuleError (and changes nothing) if it is not legal."""
        produced = execute(self.state, command)
        self.events.extend(produced)
        return produced

    @property
    def awaiting(self) -> Awaiting | None:
        return awaiting(self.state)

    def legal_commands(self) -> LegalCommands:
        return LegalCommands(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def result(self) -> ev.GameEnded | None:
        return self.state.result

    def __repr__(self) -> str:
        question = self.awaiting
        status = "over" if question is None else f"awaiting {question.describe()}"
        return f"<Game {len(self.state.players)} players, {len(self.events)} events, {status}>"
