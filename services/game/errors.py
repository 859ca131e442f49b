"""What the game service refuses, split by cause. Rules refusals are the engine's RuleError."""

from __future__ import annotations


class GameServiceError(Exception):
    """Base of the game service's own refusals."""


class GameNotFound(GameServiceError, LookupError):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id!r}")


class InvalidGameSpec(GameServiceError, ValueError):
    """A game cannot be created or joined like this."""


class NotAllowed(GameServiceError, PermissionError):
    """The caller may not do this (not their seat, not their game, not an organiser)."""


class GameNotStarted(GameServiceError):
    def __init__(self, game_id: str, joined: int, needed: int) -> None:
        super().__init__(f"game {game_id} has not started: {joined} of {needed} players have joined")


class GameFinished(GameServiceError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} is over; it takes no more commands")


class StaleVersion(GameServiceError):
    """The caller decided on an older state of the game than the current one."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        self.expected, self.actual = expected, actual
        super().__init__(
            f"game {game_id} is at version {actual}, not {expected}: reload the game and decide again"
        )


class AlreadyJoined(GameServiceError):
    """The join with this command id was applied already. Its token was issued with the first
    answer and is not issued again: a join's command id is no credential."""

    def __init__(self, game_id: str, member_id: str) -> None:
        super().__init__(
            f"{member_id} has already joined game {game_id}; the player token was issued with the "
            "first answer (an organiser can issue a new one)"
        )
