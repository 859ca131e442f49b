"""Dealing an online game from its seed: seat order, roles and characters.

Like the dice, the deal is re-derivable by anyone once the seed is revealed. The algorithm:

1. Byte stream: for counter = 0, 1, … the block ``HMAC-SHA256(key=seed, msg=b"deal" +
   counter.to_bytes(8, "big"))``; blocks concatenated. (The dice use the same seed without
   the ``b"deal"`` prefix, so the two streams never share bytes.)
2. ``below(k)``: take the next 4 bytes as a big-endian unsigned integer ``x``; if
   ``x >= (2**32 // k) * k`` skip them and take 4 more; else answer ``x % k`` (no bias).
3. Seats: a Fisher–Yates shuffle of the members in the order they joined (for i from n-1
   down to 1, swap i with ``below(i + 1)``); ``members[i]`` sits at seat ``p{i+1}``.
4. Roles: the table of ``roles_for(n)`` in its published order, shuffled the same way. When a
   Sheriff is fixed (a league's rotation), that member takes the Sheriff and the remaining
   roles, in table order without the Sheriff, are shuffled over the other seats in seat order.
5. Characters: a Fisher–Yates shuffle of ``CharacterId`` in declaration order; seat i takes
   the i-th.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

from services.game.lifecycle import seat_id
from services.game.rules.dice import CharacterId, Role, Seat, roles_for

T = TypeVar("T")


class DealStream:
    __slots__ = ("_buffer", "_counter", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            msg = b"deal" + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._seed, msg, hashlib.sha256).digest()
            self._counter += 1
        taken, self._buffer = self._buffer[:n], self._buffer[n:]
        return taken

    def below(self, k: int) -> int:
        limit = (2**32 // k) * k
        while True:
            x = int.from_bytes(self._take(4), "big")
            if x < limit:
                return x % k

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def deal(
    seed: bytes, members: Sequence[str], sheriff_member: str | None = None
) -> tuple[list[str], list[Seat]]:
    """(members by seat, the engine's seats) for an online game."""
    stream = DealStream(seed)
    seated = stream.shuffle(members)
    table = roles_for(len(members))
    if sheriff_member is not None and Role.SHERIFF in table:
        rest = list(table)
        rest.remove(Role.SHERIFF)
        others = iter(stream.shuffle(rest))
        roles = [Role.SHERIFF if m == sheriff_member else next(others) for m in seated]
    else:
        roles = stream.shuffle(table)
    characters = stream.shuffle(list(CharacterId))
    seats = [Seat(player=seat_id(i), role=roles[i], character=characters[i]) for i in range(len(seated))]
    return seated, seats
