"""``Game``: one game of BANG! The Dice Game, its events and its state, in one object.

A game is a pure function of its inputs: ``Game.start(seats)`` then ``game.play(command)``
for each decision and each roll. ``game.events`` is the whole story; ``Game.replay(events)``
rebuilds the same game from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decide import awaiting, execute
from services.game.rules.dice.errors import InvalidSetup, RuleError
from services.game.rules.dice.evolve import evolve, fold, initial_state
from services.game.rules.dice.flow import advance
from services.game.rules.dice.legal import LegalCommands
from services.game.rules.dice.modules import BASE_GAME_RULES, Rules
from services.game.rules.dice.setup import new_game
from services.game.rules.dice.state import GameState


class Game:
    __slots__ = ("events", "state")

    def __init__(self, state: GameState, events: list[ev.Event]) -> None:
        self.state = state
        self.events = events

    @classmethod
    def start(
        cls, seats: Sequence[ev.Seat], position: ev.Position | None = None, rules: Rules = BASE_GAME_RULES
    ) -> Game:
        """A new game; ``rules`` (``modules.rules_for``) says which modules it plays."""
        started = new_game(seats, position, rules)
        state = initial_state(started, rules)
        events: list[ev.Event] = [started]

        def emit(event: ev.Event) -> None:
            evolve(state, event)
            events.append(event)

        if position is None:
            advance(state, emit)
        else:
            with _position_cannot_be_played("it"):
                advance(state, emit)
        return cls(state, events)

    @classmethod
    def replay(cls, events: Iterable[ev.Event], rules: Rules = BASE_GAME_RULES) -> Game:
        events = list(events)
        return cls(fold(events, rules), events)

    def play(self, command: cmd.GameCommand, *, implicit_passes: bool = True) -> list[ev.Event]:
        """Apply one command; raises a RuleError (and changes nothing) if it is not legal.
        ``implicit_passes``: the command closes any role window still open (``decide.execute``)."""
        first = self.events[0]
        if type(first) is not ev.GameStarted or first.position is None:
            produced = execute(self.state, command, implicit_passes=implicit_passes)
        else:  # a hand-made position may state a turn no game reaches: refused, changing nothing
            before = self.state.clone()
            try:
                with _position_cannot_be_played(f"'{command}'"):
                    produced = execute(self.state, command, implicit_passes=implicit_passes)
            except InvalidSetup:
                self.state = before
                raise
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
        status = "over" if self.is_over else f"awaiting {self.awaiting.describe()}"  # type: ignore[union-attr]
        return f"<Game {len(self.state.players)} players, {len(self.events)} events, {status}>"


@contextmanager
def _position_cannot_be_played(what: str) -> Iterator[None]:
    """A game started from a position states its middle itself (``positions``): the checks
    refuse what the rules cannot reach field by field, but fields may still disagree with each
    other in ways only playing on shows (a window reopened after the dice were aimed). Such a
    position is refused when it shows, in words, rather than failing inside the engine."""
    try:
        yield
    except RuleError:
        raise
    except (AssertionError, IndexError, KeyError, StopIteration, TypeError, ValueError) as e:
        raise InvalidSetup(
            f"{what} cannot be played from this position: its fields disagree with each other "
            "(a turn no game reaches: check in_turn, special_roles, wound_tokens, held_losses)"
        ) from e
