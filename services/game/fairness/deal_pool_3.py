"""``deal-3``: ``deal-2`` with Undead or Alive's UA3 characters in the pool.

Exactly ``deal-2``'s algorithm (``deal_pool.py``: the ``b"deal"`` stream, seats, roles, the
pool Fisher–Yates-shuffled, seat i taking the i-th) over ``deal-3``'s own tables:

- ``DEAL_3_CHARACTERS``: ``deal-2``'s two tables written again, plus ``characters-ua3 ua3-1``
  (the eight UA3 characters in the order written below) and ``characters-ua3 ua3-2`` (the same
  eight in the same order: ua3-2 changes Greg Digger's rule, not who is dealt, so a ua3-2 game
  deals exactly as a ua3-1 game of the same seed);
- ``DEAL_3_TABLE_ORDER``: ``characters``, ``characters-os4``, ``characters-ua3``;
- ``DEAL_3_NEEDS``: ``deal-2``'s pool rules (§OS4) plus §UA3's: Herb Hunter and Sean Mallory
  need UA1, Pat Brennan and Pixie Pete need UA2.

``deal-2``'s tables stay pinned: a game that recorded ``deal-2`` deals exactly as before, and a
new game records ``deal-3`` only when its ruleset has UA3 (``registry.fairness_for``). On a
ruleset without the UA3 table ``deal-3``'s pool is ``deal-2``'s, so it deals such a game as
``deal-2`` would. A table name or version this version does not hold is refused
(``ValueError``), never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from services.game.fairness.deal_pool import (
    DEAL_2_CHARACTERS,
    DEAL_2_NEEDS,
    DEAL_2_ROLES,
    deal_pool_names,
    pool_of,
    seats_of,
)
from services.game.fairness.versions import DEAL_3
from services.game.rules.dice import Seat
from services.game.rules.ruleset import BASE_DICE, Ruleset

DEAL_3_ROLES: Mapping[int, tuple[str, ...]] = DEAL_2_ROLES
"""``deal-3``'s role table per player count: ``deal-2``'s."""

_UA3_CHARACTERS = (
    "belle_star",
    "chuck_wengam",
    "greg_digger",
    "herb_hunter",
    "pat_brennan",
    "pixie_pete",
    "sam_the_healer",
    "sean_mallory",
)

DEAL_3_CHARACTERS: Mapping[tuple[str, str], tuple[str, ...]] = MappingProxyType(
    {
        ("characters", "dice-base-1"): DEAL_2_CHARACTERS[("characters", "dice-base-1")],
        ("characters-os4", "os4-1"): DEAL_2_CHARACTERS[("characters-os4", "os4-1")],
        ("characters-ua3", "ua3-1"): _UA3_CHARACTERS,
        ("characters-ua3", "ua3-2"): _UA3_CHARACTERS,
    }
)
"""(data table, version) → its characters, in the order the pool takes them. Never reorder."""

DEAL_3_TABLE_ORDER: tuple[str, ...] = ("characters", "characters-os4", "characters-ua3")
"""The order the pool concatenates the character tables in."""

DEAL_3_NEEDS: Mapping[str, str] = MappingProxyType(
    {
        **DEAL_2_NEEDS,
        "herb_hunter": "UA1",
        "sean_mallory": "UA1",
        "pat_brennan": "UA2",
        "pixie_pete": "UA2",
    }
)
"""Pool rules (§OS4, §UA3): a character left out of the pool unless the ruleset has this module."""


def character_pool(ruleset: Ruleset = BASE_DICE) -> list[str]:
    """The ruleset's pool, in the order ``deal-3`` shuffles it; ``ValueError`` for a character
    table this version does not hold."""
    return pool_of(ruleset, DEAL_3, DEAL_3_CHARACTERS, DEAL_3_TABLE_ORDER, DEAL_3_NEEDS)


def deal_names(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None, ruleset: Ruleset = BASE_DICE
) -> tuple[list[str], list[str], list[str]]:
    """(members by seat, role names by seat, character names by seat) by ``deal-3``."""
    return deal_pool_names(DEAL_3, character_pool(ruleset), seed, members, sheriff_member)


def deal(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None, ruleset: Ruleset = BASE_DICE
) -> tuple[list[str], list[Seat]]:
    """(members by seat, the engine's seats) for an online game, by ``deal-3``."""
    seated, roles, characters = deal_names(seed, members, sheriff_member, ruleset)
    return seated, seats_of(DEAL_3, seated, roles, characters)
