"""Why the engine refuses a command. Every refusal changes nothing.

``RuleError`` is the root; a caller maps the subclasses to its own answers (HTTP 4xx, CLI exit
codes). Messages are written for a referee: they say what the rules allow.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A command the engine will not accept."""


class MalformedCommand(RuleError):
    """The command cannot be read: wrong shape, unknown face, die out of range."""


class NotAwaited(RuleError):
    """Nobody asked this player for this decision now."""


class IllegalCommand(RuleError):
    """The decision is awaited but the rules forbid this choice."""


class GameOver(RuleError):
    """The game has ended; it takes no more commands."""


class InvalidSetup(RuleError):
    """A game cannot start like this (roles, seats, position)."""
