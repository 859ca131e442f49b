"""What the game service refuses, split by cause. Rules refusals are the engine's RuleError."""

from __future__ import annotations


class GameServiceError(Exception):
    """Base of the game service's own refusals."""


class GameNotFound(GameServiceError, LookupError):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id!r}")


class VersionOutOfRange(GameServiceError, ValueError):
    """A version (or a page of versions) the game does not have."""


class InvalidGameSpec(GameServiceError, ValueError):
    """A game cannot be created or joined like this."""


class InvalidRuleset(InvalidGameSpec):
    """A module set the rules refuse (``"module UA1 needs UA2"``) or this server cannot run yet
    (``"module OS1 is not implemented by this server yet"``): ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"this ruleset cannot be played: {reason}")


class InvalidPosition(InvalidGameSpec):
    """A table game's starting position that cannot be read (the record reader's words, naming
    the JSON path) or that the rules refuse for its seats (the engine's setup words)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"this position cannot be played: {reason}")


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


class CommandIdReused(GameServiceError):
    """A command id already used in this game for another command, or by another caller. Only
    told to a caller who may act in the game; anybody else gets the answer a new id would get."""

    def __init__(self, command_id: str) -> None:
        self.command_id = command_id
        super().__init__(
            f"command id {command_id!r} was used in this game for another command; "
            "a retry must repeat the same command, anything new needs a new command id"
        )


class GameIdTaken(GameServiceError):
    """A create names a game id that another create (or another caller) holds already. The
    same answer whatever the command id, so a guessed id says nothing about who sent what."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"game id {game_id!r} is taken: choose another game_id")


class ReservedCommandId(GameServiceError, ValueError):
    """A caller's command id in a namespace the server keeps for its own commands."""
