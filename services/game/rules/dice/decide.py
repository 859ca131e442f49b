"""decide(state, command) -> events: check a command against the rules and say what follows.

The command is checked completely before anything is emitted, so a refused command changes
nothing. Its events are then produced by applying each to a working state as it is emitted
(``evolve``), which keeps "the state is the fold of the events" true by construction.
"""

from __future__ import annotations

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import Who
from services.game.rules.dice.errors import GameOver, NotAwaited
from services.game.rules.dice.evolve import evolve
from services.game.rules.dice.flow import advance, next_move
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import Phase

_OVER = Phase.OVER
"""As a constant: on Python 3.11 reading ``Phase.OVER`` costs ten times a module constant's read."""


def awaiting(state: GameState) -> Awaiting | None:
    """The open question of a game at rest, or None once it is over."""
    resting = state.resting
    if resting is not None and resting[0] == state.version:
        return resting[1]  # advance() already worked it out for this very state
    move = next_move(state)
    if move is None or isinstance(move, Awaiting):
        return move
    raise AssertionError("state is between automatic steps; only a resting state is awaited")


def decide(state: GameState, command: cmd.GameCommand) -> list[ev.Event]:
    """The events ``command`` produces. ``state`` is not modified."""
    return execute(state.clone(), command)


def execute(state: GameState, command: cmd.GameCommand) -> list[ev.Event]:
    """Like ``decide`` but folds the events into ``state`` (faster: no copy)."""
    question = check(state, command)
    produced: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        evolve(state, event)
        produced.append(event)

    state.rules.decisions[question.decision].respond(state, question, command, emit)
    advance(state, emit)
    return produced


def check(state: GameState, command: cmd.GameCommand) -> Awaiting:
    """Raise the RuleError that ``command`` deserves, or return the question it answers."""
    if state.phase is _OVER:
        raise GameOver(f"the game is over; {command} cannot be played")
    question = awaiting(state)
    assert question is not None
    spec = state.rules.decisions[question.decision]
    if command.player != question.player and spec.who is not Who.TABLE:
        raise NotAwaited(f"{command.player} cannot act now: the game awaits {question.describe()}")
    if not isinstance(command, spec.accepts):
        raise NotAwaited(f"'{command}' does not answer the open question: {question.describe()}")
    spec.check(state, question, command)
    return question
