"""Why the card engine refuses a command. Every refusal changes nothing.

The same tree as the dice engine's: ``RuleError`` is the root, subclasses split by cause.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A command the engine will not accept."""


class NotAwaited(RuleError):
    """Nobody asked this player for this decision now."""


class IllegalCommand(RuleError):
    """The decision is awaited but the rules forbid this choice."""


class GameOver(RuleError):
    """The game has ended; it takes no more commands."""


class InvalidSetup(RuleError):
    """A game cannot start like this (roles, seats)."""


class MalformedCommand(RuleError):
    """The command's text cannot be read."""
