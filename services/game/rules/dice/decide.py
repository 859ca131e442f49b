"""decide(state, command) -> events: check a command against the rules and say what follows.

The command is checked completely before anything is emitted, so a refused command changes
nothing. Its events are then produced by applying each to a working state as it is emitted
(``evolve``), which keeps "the state is the fold of the events" true by construction.

A question open to the table (OS3's role windows) is a "may" nobody has to answer
(RULINGS-expansions §0, §OS3): the next legal input closes every window still open, as if each
had been passed (``implicit_passes``; the same ``WindowPassed`` events an explicit pass gives,
so a record with or without its passes is the same game). Online the service does not use it:
there the server closes a window after its uniform pause, and a player's input meanwhile is
refused as before (``services/game/engines/dice.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import Who
from services.game.rules.dice.errors import GameOver, IllegalCommand, NotAwaited, RuleError
from services.game.rules.dice.evolve import evolve
from services.game.rules.dice.flow import advance, next_move
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import Face, Phase

Emit = Callable[[ev.Event], None]

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


def decide(state: GameState, command: cmd.GameCommand, *, implicit_passes: bool = True) -> list[ev.Event]:
    """The events ``command`` produces. ``state`` is not modified."""
    return execute(state.clone(), command, implicit_passes=implicit_passes)


def execute(state: GameState, command: cmd.GameCommand, *, implicit_passes: bool = True) -> list[ev.Event]:
    """Like ``decide`` but folds the events into ``state`` (faster: no copy).

    ``implicit_passes``: a command that the open question refuses while it is open to the table
    is played after passing that window and every window after it, if it is legal there; the
    refusal, if any, is then the one of the first question it is legal to ask it of."""
    produced: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        evolve(state, event)
        produced.append(event)

    try:
        question = check(state, command)
    except RuleError as refused:
        if not implicit_passes:
            raise
        for _ in range(windows_to_pass(state, command, refused)):
            _lapse(state, _question(state), emit)
        question = check(state, command)
    _answer(state, question, command, emit)
    return produced


def _answer(state: GameState, question: Awaiting, command: cmd.GameCommand, emit: Emit) -> None:
    state.rules.decisions[question.decision].respond(state, question, command, emit)
    advance(state, emit)


def _lapses(state: GameState, question: Awaiting | None) -> bool:
    """Whether the next input closes ``question`` unused (a window open to the table)."""
    return question is not None and state.rules.decisions[question.decision].lapse is not None


def _lapse(state: GameState, question: Awaiting, emit: Emit) -> None:
    spec = state.rules.decisions[question.decision]
    closing = spec.timeout(state, question)
    assert spec.lapse is not None and closing is not None, f"{question.decision} does not lapse"
    spec.lapse(state, question, closing, emit)
    advance(state, emit)


def windows_to_pass(state: GameState, command: cmd.GameCommand, refused: RuleError) -> int:
    """How many windows open to the table ``command``, which the open question refuses
    (``refused``), closes unused before it is played. Raises the refusal ``command`` deserves if
    no question after the open windows accepts it either: an answer to a window (a ``UseRole``,
    a pass) gets the open window's own refusal, which never depends on a hidden card; any other
    input the refusal of the question it would answer once the windows are closed (e.g. "there
    is no die 9"). ``state`` is not modified."""
    first = refused
    if state.phase is _OVER or not _lapses(state, awaiting(state)):
        raise first
    table_answer = isinstance(command, state.rules.decisions[_question(state).decision].accepts)
    working = state.clone()
    passes = 0
    last: RuleError = first
    while _lapses(working, question := awaiting(working)):
        assert question is not None
        _lapse(working, question, lambda event: evolve(working, event))
        passes += 1
        if working.phase is _OVER:
            break  # the game ended as the windows closed: the open window's refusal stands
        try:
            check(working, command)
            return passes
        except RuleError as refused:
            last = refused
    raise first if table_answer or working.phase is _OVER else last


def _question(state: GameState) -> Awaiting:
    question = awaiting(state)
    assert question is not None
    return question


def _not_awaited(state: GameState, player: str) -> str:
    """Why ``player``, not the one awaited, cannot act: the rule a referee would quote."""
    p = state.by_id.get(player)  # type: ignore[call-overload]
    if p is None:
        return f"{player} is not a player in this game"
    if not p.alive and not p.ghost:
        return f"{player} has been eliminated and takes no further part in the game"
    return f"{player} cannot act now"


def _rolling_over(state: GameState, command: cmd.GameCommand) -> str | None:
    """Why the active player's reroll or stop comes too late: his rolling is over."""
    t = state.turn
    if not isinstance(command, cmd.Reroll | cmd.StopRolling) or t is None or command.player != t.player:
        return None
    if t.phase is Phase.ROLLING:
        return None
    rolls = state.by_id[t.player].character.rerolls + 1
    if t.rolls_used >= rolls:
        return f"{t.player} has no reroll left: {rolls} rolls in all, and all are used"
    if sum(1 for face in t.dice if face is Face.DYNAMITE) >= 3:
        return f"{t.player} cannot roll again: three dynamite stop the rolling"
    return f"{t.player} has stopped rolling: his dice are final"


def check(state: GameState, command: cmd.GameCommand) -> Awaiting:
    """Raise the RuleError that ``command`` deserves, or return the question it answers."""
    if state.phase is _OVER:
        raise GameOver(f"the game is over; {command} cannot be played")
    question = awaiting(state)
    assert question is not None
    spec = state.rules.decisions[question.decision]
    if command.player != question.player and spec.who is not Who.TABLE:
        raise NotAwaited(f"{_not_awaited(state, command.player)}: the game awaits {question.describe()}")
    if not isinstance(command, spec.accepts):
        over = _rolling_over(state, command)
        if over is not None:
            raise IllegalCommand(f"{over}; the game awaits {question.describe()}")
        raise NotAwaited(f"'{command}' does not answer the open question: {question.describe()}")
    spec.check(state, question, command)
    return question
