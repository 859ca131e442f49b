"""``deal-2``: ``deal-1`` with the character pool of the game's ruleset (Old Saloon's OS4).

Exactly ``deal-1``'s algorithm (``deal.py``) except for the characters' table:

1. Byte stream ``streams.ByteStream(seed, b"deal")`` (``deal-1``'s stream), ``below(k)`` as
   there (4 bytes big-endian, reject ``x >= (2**32 // k) * k``, answer ``x % k``).
2. Seats: Fisher–Yates from the end over the members in join order; ``members[i]`` sits at
   ``p{i+1}``.
3. Roles: ``DEAL_2_ROLES[n]`` as written, shuffled the same way; a fixed Sheriff takes the
   Sheriff and the rest of the table, in table order, is shuffled over the other seats.
4. Characters: the **pool** is the concatenation, in the order of ``DEAL_2_TABLE_ORDER``, of
   the character tables the ruleset records (``Ruleset.data``: table name → data version),
   each table ``DEAL_2_CHARACTERS[(name, version)]`` in its written order, without the
   characters whose needed module (``DEAL_2_NEEDS``, RULINGS-expansions §OS4) is not in the
   ruleset. The pool is Fisher–Yates-shuffled; seat i takes the i-th.

A ruleset without OS4 has the pool ``characters dice-base-1``, written exactly as ``deal-1``'s
table, so ``deal-2`` deals such a game exactly as ``deal-1`` would. A table name or version this
version does not hold is refused (``ValueError``), never guessed: a new table is a new version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from services.game.application.lifecycle import seat_id
from services.game.fairness.streams import DEAL_LABEL, ByteStream
from services.game.fairness.versions import DEAL_2
from services.game.rules.dice import CharacterId, PlayerId, Role, Seat
from services.game.rules.ruleset import BASE_DICE, Ruleset

DEAL_2_ROLES: Mapping[int, tuple[str, ...]] = MappingProxyType(
    {
        3: ("deputy", "outlaw", "renegade"),
        4: ("sheriff", "renegade", "outlaw", "outlaw"),
        5: ("sheriff", "renegade", "outlaw", "outlaw", "deputy"),
        6: ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"),
        7: ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
        8: ("sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
    }
)
"""``deal-2``'s role table per player count, shuffled as written (``deal-1``'s, written again)."""

DEAL_2_CHARACTERS: Mapping[tuple[str, str], tuple[str, ...]] = MappingProxyType(
    {
        ("characters", "dice-base-1"): (
            "bart_cassidy",
            "black_jack",
            "calamity_janet",
            "el_gringo",
            "jesse_jones",
            "jourdonnais",
            "kit_carlson",
            "lucky_duke",
            "paul_regret",
            "pedro_ramirez",
            "rose_doolan",
            "sid_ketchum",
            "slab_the_killer",
            "suzy_lafayette",
            "vulture_sam",
            "willy_the_kid",
        ),
        ("characters-os4", "os4-1"): (
            "jose_delgado",
            "tequila_joe",
            "apache_kid",
            "bill_noface",
            "elena_fuente",
            "vera_custer",
            "doc_holyday",
            "molly_stark",
        ),
    }
)
"""(data table, version) → its characters, in the order the pool takes them. Never reorder."""

DEAL_2_TABLE_ORDER: tuple[str, ...] = ("characters", "characters-os4")
"""The order the pool concatenates the character tables in."""

DEAL_2_NEEDS: Mapping[str, str] = MappingProxyType(
    {"jose_delgado": "OS1", "tequila_joe": "OS1", "apache_kid": "OS2"}
)
"""Pool rules (§OS4): a character left out of the pool unless the ruleset has this module."""


def character_pool(ruleset: Ruleset = BASE_DICE) -> list[str]:
    """The ruleset's pool, in the order ``deal-2`` shuffles it; ``ValueError`` for a character
    table this version does not hold."""
    return pool_of(ruleset, DEAL_2, DEAL_2_CHARACTERS, DEAL_2_TABLE_ORDER, DEAL_2_NEEDS)


def pool_of(
    ruleset: Ruleset,
    version: str,
    characters: Mapping[tuple[str, str], tuple[str, ...]],
    order: tuple[str, ...],
    needs: Mapping[str, str],
) -> list[str]:
    """A pool-dealing version's pool of ``ruleset`` from that version's own tables (``deal-2``'s
    here, ``deal-3``'s in ``deal_pool_3``); ``ValueError`` for a table it does not hold."""
    tables = sorted(name for name in ruleset.data if name == "characters" or name.startswith("characters-"))
    for name in tables:
        if name not in order:
            known = ", ".join(order)
            raise ValueError(f"{version} has no character table {name!r} (tables: {known})")
    modules = {str(m) for m in ruleset.modules}
    pool: list[str] = []
    for name in order:
        table_version = ruleset.data.get(name)
        if table_version is None:
            continue
        table = characters.get((name, table_version))
        if table is None:
            raise ValueError(f"{version} has no version {table_version!r} of the character table {name!r}")
        pool += [c for c in table if c not in needs or needs[c] in modules]
    return pool


def deal_names(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None, ruleset: Ruleset = BASE_DICE
) -> tuple[list[str], list[str], list[str]]:
    """(members by seat, role names by seat, character names by seat) by ``deal-2``."""
    return deal_pool_names(DEAL_2, character_pool(ruleset), seed, members, sheriff_member)


def deal_pool_names(
    version: str, pool: Sequence[str], seed: bytes, members: Sequence[str], sheriff_member: str | None
) -> tuple[list[str], list[str], list[str]]:
    """``deal-2``'s steps over ``pool`` (a version's pool of the game's ruleset)."""
    n = len(members)
    if n not in DEAL_2_ROLES:
        raise ValueError(f"{version} deals 3 to 8 players, not {n}")
    if len(pool) < n:
        raise ValueError(f"{version}: the pool holds {len(pool)} characters, {n} players need one each")
    stream = ByteStream(seed, DEAL_LABEL)
    seated = stream.shuffle(members)
    table = DEAL_2_ROLES[n]
    if sheriff_member is not None and "sheriff" in table:
        rest = list(table)
        rest.remove("sheriff")
        others = iter(stream.shuffle(rest))
        roles = ["sheriff" if m == sheriff_member else next(others) for m in seated]
    else:
        roles = stream.shuffle(table)
    characters = stream.shuffle(list(pool))[:n]
    return seated, roles, characters


def _character(name: str, version: str = DEAL_2) -> CharacterId:
    try:
        return CharacterId(name)
    except ValueError:
        raise ValueError(f"{version} deals {name}, a character the engine does not have yet") from None


def seats_of(
    version: str, seated: Sequence[str], roles: Sequence[str], characters: Sequence[str]
) -> list[Seat]:
    """The engine's seats of a deal's names."""
    return [
        Seat(player=PlayerId(seat_id(i)), role=Role(roles[i]), character=_character(characters[i], version))
        for i in range(len(seated))
    ]


def deal(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None, ruleset: Ruleset = BASE_DICE
) -> tuple[list[str], list[Seat]]:
    """(members by seat, the engine's seats) for an online game, by ``deal-2``."""
    seated, roles, characters = deal_names(seed, members, sheriff_member, ruleset)
    seats = [
        Seat(player=PlayerId(seat_id(i)), role=Role(roles[i]), character=_character(characters[i]))
        for i in range(len(seated))
    ]
    return seated, seats
