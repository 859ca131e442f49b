"""``GameRecord``: one game of BANG! The Dice Game as data — its setup and every input in order.

The record is the engine's own vocabulary (``Seat``, ``Position``, the commands) plus what a
club or an audit adds around it (options, metadata). It knows nothing of JSON or of the
commands' text form: ``reader`` and ``writer`` do, the way python-chess keeps ``pgn.py`` apart
from its board.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from services.game.fairness.versions import Fairness
from services.game.rules.dice import GameCommand, Position, Seat
from services.game.rules.ruleset import BASE_DICE, Ruleset

FORMAT = "bang-dice-record"
"""The value of a record's ``format`` field: tells a record apart from any other JSON."""

VERSION = 2
"""The record format version this package writes. Version 2 adds ``game_type`` and ``ruleset``
(and ``options.fairness`` for seeded games)."""
READ_VERSIONS = (1, 2)
"""The versions this package reads: a version-1 record is a base dice game (``dice``)."""


class DiceSource(StrEnum):
    """Where the recorded faces came from. Either way the faces are data, never re-rolled."""

    TABLE = "table"  # a club's physical dice, entered by hand
    SEEDED = "seeded"  # the server's seeded generator (services/game/fairness/dice.py)


class RecordOptions(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    dice: DiceSource = DiceSource.TABLE
    seed_commitment: str | None = None
    """SHA-256 of the seed in hex, published before a seeded game."""
    seed: str | None = None
    """The seed in hex, revealed when a seeded game ends, so anyone can re-derive every face."""
    fairness: Fairness | None = None
    """A seeded game's derivation versions (``deal-1``, ``dice-1``, …): how to re-derive it."""


class RecordMeta(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Free information about the game; the rules never read it."""

    game_id: str | None = None
    played_at: str | None = None
    """ISO 8601 date or date-time."""
    club: str | None = None
    notes: str | None = None
    series_id: str | None = None
    """UA5: the legacy series the game belongs to (RULINGS-expansions §8)."""
    previous_game_id: str | None = None
    """UA5: the series' game before this one."""


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    seats: tuple[Seat, ...]
    """Clockwise from the first seat."""
    inputs: tuple[GameCommand, ...] = ()
    """Every roll and decision, in the order played."""
    position: Position | None = None
    """A mid-game starting point; None for a game from its first turn."""
    options: RecordOptions = RecordOptions()
    meta: RecordMeta = RecordMeta()
    ruleset: Ruleset = BASE_DICE
    """The game type, modules and data versions; a version-1 record is the base dice game."""
