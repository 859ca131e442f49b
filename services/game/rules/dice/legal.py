"""The legal commands of a game at rest, as a lazy collection.

``command in legal_commands(state)`` checks one command without listing any; iterating
lists them (for a roll that is every combination of faces, produced lazily).
"""

from __future__ import annotations

from collections.abc import Iterator

from services.game.rules.dice import commands as cmd
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decide import awaiting, check
from services.game.rules.dice.errors import RuleError
from services.game.rules.dice.state import GameState


class LegalCommands:
    def __init__(self, state: GameState) -> None:
        self._state = state
        self.question: Awaiting | None = awaiting(state)

    def __contains__(self, command: object) -> bool:
        if self.question is None or not isinstance(command, cmd.Command):
            return False
        try:
            check(self._state, command)  # type: ignore[arg-type]
        except RuleError:
            return False
        return True

    def __iter__(self) -> Iterator[cmd.GameCommand]:
        if self.question is None:
            return iter(())
        return self._state.rules.decisions[self.question.decision].generate(self._state, self.question)

    def __bool__(self) -> bool:
        return self.question is not None


def legal_commands(state: GameState) -> LegalCommands:
    return LegalCommands(state)
