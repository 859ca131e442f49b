"""Dealing an online game from its seed: seat order, roles and characters (``deal-1``).

Like the dice, the deal is re-derivable by anyone once the seed is revealed. ``deal-1``:

1. Byte stream: ``streams.ByteStream(seed, b"deal")``: for counter = 0, 1, … the block
   ``HMAC-SHA256(key=seed, msg=b"deal" + counter.to_bytes(8, "big"))``; blocks concatenated.
   (The dice use the same seed without the ``b"deal"`` prefix, so the two streams never share
   bytes.)
2. ``below(k)``: take the next 4 bytes as a big-endian unsigned integer ``x``; if
   ``x >= (2**32 // k) * k`` skip them and take 4 more; else answer ``x % k`` (no bias).
3. Seats: a Fisher–Yates shuffle of the members in the order they joined (for i from n-1
   down to 1, swap i with ``below(i + 1)``); ``members[i]`` sits at seat ``p{i+1}``.
4. Roles: ``DEAL_1_ROLES[n]`` in its written order, shuffled the same way. When a Sheriff is
   fixed (a league's rotation), that member takes the Sheriff and the remaining roles, in table
   order without the Sheriff, are shuffled over the other seats in seat order.
5. Characters: a Fisher–Yates shuffle of ``DEAL_1_CHARACTERS`` (the 16 base characters in the
   order written below); seat i takes the i-th.

The tables are this version's own literals, mapped to the engine's roles and characters by
name: new characters in the engine change nothing here (they need a new version).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.game.application.lifecycle import seat_id
from services.game.fairness.streams import DEAL_LABEL, ByteStream
from services.game.fairness.versions import DEAL_1
from services.game.rules.dice import CharacterId, PlayerId, Role, Seat

DEAL_1_CHARACTERS: tuple[str, ...] = (
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
)
"""``deal-1``'s character table, shuffled as written. Never reorder or extend it."""

DEAL_1_ROLES: dict[int, tuple[str, ...]] = {
    3: ("deputy", "outlaw", "renegade"),
    4: ("sheriff", "renegade", "outlaw", "outlaw"),
    5: ("sheriff", "renegade", "outlaw", "outlaw", "deputy"),
    6: ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"),
    7: ("sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
    8: ("sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"),
}
"""``deal-1``'s role table per player count, shuffled as written."""

_CHARACTERS: tuple[CharacterId, ...] = tuple(CharacterId(name) for name in DEAL_1_CHARACTERS)
_ROLES: dict[int, tuple[Role, ...]] = {
    n: tuple(Role(name) for name in table) for n, table in DEAL_1_ROLES.items()
}


class DealStream(ByteStream):
    """``deal-1``'s byte stream of ``seed``."""

    __slots__ = ()

    def __init__(self, seed: bytes) -> None:
        super().__init__(seed, DEAL_LABEL)


def deal(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None
) -> tuple[list[str], list[Seat]]:
    """(members by seat, the engine's seats) for an online game, by ``deal-1``."""
    if len(members) not in _ROLES:
        raise ValueError(f"{DEAL_1} deals 3 to 8 players, not {len(members)}")
    stream = DealStream(seed)
    seated = stream.shuffle(members)
    table = _ROLES[len(members)]
    if sheriff_member is not None and Role.SHERIFF in table:
        rest = list(table)
        rest.remove(Role.SHERIFF)
        others = iter(stream.shuffle(rest))
        roles = [Role.SHERIFF if m == sheriff_member else next(others) for m in seated]
    else:
        roles = stream.shuffle(table)
    characters = stream.shuffle(_CHARACTERS)
    seats = [
        Seat(player=PlayerId(seat_id(i)), role=roles[i], character=characters[i]) for i in range(len(seated))
    ]
    return seated, seats
