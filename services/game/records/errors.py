"""Why a game record is refused. Every message names where: a JSON path or an input's index.

``RecordError`` is the root (a ``ValueError``, like the engine's ``RuleError``); the CLI maps
it to exit code 2 and an import endpoint to a 4xx answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.game.rules import cards, dice

    Game = dice.Game | cards.Game
    GameCommand = dice.GameCommand | cards.GameCommand
    RuleError = dice.RuleError | cards.RuleError


class RecordError(ValueError):
    """A game record that cannot be read or replayed."""


class MalformedRecord(RecordError):
    """The record's shape is wrong (schema), an input's text cannot be read, or the setup
    (seats, roles, position) is not one the rules allow."""


class IllegalInput(RecordError):
    """An input the engine refuses when the record is replayed.

    ``index`` is the input's 0-based position in ``inputs``; ``game`` is the game just before
    that input (the engine changed nothing), so a caller can still show where play stood.
    """

    def __init__(self, index: int, command: GameCommand, cause: RuleError, game: Game) -> None:
        super().__init__(f"input {index} ({str(command)!r}): {cause}")
        self.index = index
        self.command = command
        self.cause = cause
        self.game = game


class RecordOverBound(RecordError):
    """A record past one of the import's bounds (``records/limits.py``): nothing is stored."""

    def __init__(self, what: str, bound: int, value: int) -> None:
        size = " (as compact JSON)" if what == "bytes" else ""
        super().__init__(
            f"record: {value:,} {what}{size}; an imported record has at most {bound:,} {what}, "
            "which the longest games fit in with room to spare (docs/game-records.md, 'Bounds')"
        )
        self.what = what
        self.bound = bound
        self.value = value


class RecordTooLarge(RecordOverBound):
    """More bytes than an import takes (413)."""


class RecordTooLong(RecordOverBound):
    """More inputs, or more events, than an import takes (422)."""
