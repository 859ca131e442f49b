"""``roles-os3-1``: Old Saloon's special-role deal (OS3), from the game's seed.

With OS3 every role card is a special one, drawn at random per type from that type's cards
(RULINGS-expansions §OS3 "Deal"). The base roles are dealt first (``deal-1``/``deal-2``); this
derivation then gives each seat a special role card of its base role. Exactly:

1. Byte stream ``streams.ByteStream(seed, b"special-roles")``: for counter = 0, 1, … the block
   ``HMAC-SHA256(key=seed, msg=b"special-roles" + counter.to_bytes(8, "big"))``; blocks in
   order. ``below(k)`` and the Fisher–Yates shuffle are ``streams``' (4 bytes big-endian,
   reject ``x >= (2**32 // k) * k``; for i from n-1 down to 1 swap i with ``below(i + 1)``).
2. ``ROLES_OS3_1_CARDS`` holds each base role's cards, written out in this version::

       sheriff  = ("l_ours",)
       deputy   = ("le_bien", "le_doc", "le_juge")
       outlaw   = ("le_joueur", "le_mauvais", "le_vilain")
       renegade = ("main_droite", "main_gauche")

3. For each base role in the order ``ROLES_OS3_1_ORDER`` (sheriff, deputy, outlaw, renegade),
   shuffle that role's whole table (always, even when no seat holds the role; a one-card table
   uses no bytes); the seats holding that base role, in seat order (p1, p2, …), take the
   shuffled cards in order. So within each type the cards are drawn without replacement, every
   assignment equally likely.

The tables are this version's literals, mapped to the engine's ``SpecialRole`` by name. The
data version they are is ``special-roles: os3-1`` of the ruleset; another is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import msgspec

from services.game.fairness.streams import SPECIAL_ROLES_LABEL, ByteStream
from services.game.fairness.versions import ROLES_OS3_1
from services.game.rules.dice import Seat
from services.game.rules.dice.vocabulary import SpecialRole

ROLES_OS3_1_ORDER: tuple[str, ...] = ("sheriff", "deputy", "outlaw", "renegade")
"""The order the types are drawn in (each shuffle reads the stream after the one before)."""

ROLES_OS3_1_CARDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "sheriff": ("l_ours",),
        "deputy": ("le_bien", "le_doc", "le_juge"),
        "outlaw": ("le_joueur", "le_mauvais", "le_vilain"),
        "renegade": ("main_droite", "main_gauche"),
    }
)
"""Base role → its special role cards, in the order the shuffle takes them. Never reorder."""

DATA_TABLE, DATA_VERSION = "special-roles", "os3-1"
"""The ruleset's data table these cards are (``Ruleset.data``)."""


def special_names(seed: bytes, roles: Sequence[str]) -> list[str]:
    """The special role card of each seat (by seat), given each seat's base role name."""
    unknown = sorted({r for r in roles if r not in ROLES_OS3_1_CARDS})
    if unknown:
        raise ValueError(f"{ROLES_OS3_1} has no cards for the role {', '.join(unknown)}")
    stream = ByteStream(seed, SPECIAL_ROLES_LABEL)
    specials: list[str | None] = [None] * len(roles)
    for role in ROLES_OS3_1_ORDER:
        cards = stream.shuffle(ROLES_OS3_1_CARDS[role])
        holders = [i for i, r in enumerate(roles) if r == role]
        if len(holders) > len(cards):
            raise ValueError(
                f"{ROLES_OS3_1} has {len(cards)} {role} cards for {len(holders)} {role} seats"
            )
        for seat, card in zip(holders, cards, strict=False):
            specials[seat] = card
    return [s for s in specials if s is not None]


def deal_special_roles(seed: bytes, seats: Sequence[Seat]) -> list[Seat]:
    """``seats`` with ``special`` set by ``roles-os3-1``."""
    names = special_names(seed, [s.role.value for s in seats])
    return [msgspec.structs.replace(s, special=SpecialRole(n)) for s, n in zip(seats, names, strict=True)]
