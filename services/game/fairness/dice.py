"""Where dice faces come from: the engine never rolls, a ``DiceSource`` does.

``SeededDice`` is provably fair: the server publishes ``commitment(seed)`` before the game,
reveals the seed after it, and anyone can re-derive every face. ``dice-1``, exactly:

1. ``DICE_1_FACES`` is the face table, written out in this version:
   ``("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")`` — index 0..5 (the base die).
2. Blocks: for counter = 0, 1, 2, … the block is
   ``HMAC-SHA256(key=seed, msg=counter.to_bytes(8, "big"))`` (32 bytes; ``streams.block`` with
   the empty label).
3. The byte stream is block 0's bytes in order, then block 1's, and so on.
4. Each byte ``b`` of the stream is either used or rejected, in order: if ``b < 252`` the next
   face is ``DICE_1_FACES[b % 6]``; otherwise (252..255) the byte is rejected. 252 = 6 × 42, so
   every face has probability exactly 1/6 (rejection sampling, no modulo bias).
5. ``roll(count)`` takes the next ``count`` faces of that one face stream; nothing is
   discarded between calls, so the faces of a game are a prefix of the stream.
   ``roll(count, kinds)`` is the same when every kind is ``"base"``; ``dice-1`` has no other
   die kind and refuses any other (``ValueError``).

``rolls_made`` counts ``roll`` calls and ``faces_dealt`` counts faces handed out, so an auditor
who holds the seed and the game's record can check that the recorded faces are exactly the
first ``faces_dealt`` faces of the stream. ``commitment(seed)`` is ``sha256(seed).hexdigest()``.

``dice-2`` (``dice_kinds``: die kinds base, loudmouth, coward, duel, each with its own face
table) is a new algorithm beside this one, registered in ``fairness.registry``; ``dice-1`` stays
as it is for every game that recorded it.
"""

from __future__ import annotations

import hashlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from services.game.fairness.streams import DICE_LABEL, block
from services.game.fairness.versions import DICE_1
from services.game.rules.dice import Face

DICE_1_FACES: tuple[str, ...] = ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")
"""``dice-1``'s face table, index 0..5. Part of the published algorithm: never reorder it."""

FACES: tuple[Face, ...] = tuple(Face(name) for name in DICE_1_FACES)
"""``DICE_1_FACES`` as the engine's faces (mapped by name, never by enum order)."""

ACCEPT_BELOW = 252  # largest multiple of 6 that fits a byte: bytes from here on are rejected
SEED_BYTES = 32


BASE_KIND = "base"


class DiceSource(Protocol):
    def roll(self, count: int, kinds: Sequence[str] | None = None) -> tuple[Face, ...]:
        """The next ``count`` faces; die ``i`` is of kind ``kinds[i]`` (``base``, ``loudmouth``,
        ``coward``, ``duel``), every die a base die when ``kinds`` is None."""
        ...


def check_kinds(version: str, count: int, kinds: Sequence[str], known: Sequence[str]) -> None:
    """Refuse ``kinds`` unless it names ``count`` dice, each of a kind in ``known``."""
    if len(kinds) != count:
        raise ValueError(f"{version}: {count} dice to roll, but {len(kinds)} die kinds given")
    for kind in kinds:
        if kind in known:
            continue
        if len(known) == 1:
            raise ValueError(f"{version} rolls {known[0]} dice only, not a {kind!r} die")
        raise ValueError(f"{version} has no {kind!r} die (kinds: {', '.join(known)})")


def new_seed() -> bytes:
    """A fresh secret seed (32 bytes from the OS's cryptographic generator)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What is published before the game: the SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


class AcceptedByteStream(ABC):
    """One seed's stream of accepted bytes, each read as a value 0..5 (steps 2-4 above), dealt
    in order and counted; ``dice-1`` and ``dice-2`` differ only in what a value becomes
    (``_decode``)."""

    __slots__ = ("_buffer", "_counter", "faces_dealt", "rolls_made", "seed")

    def __init__(self, seed: bytes) -> None:
        if not seed:
            raise ValueError("a dice seed must not be empty")
        self.seed = seed
        self.rolls_made = 0
        self.faces_dealt = 0
        self._counter = 0
        # values already derived from the current block but not yet dealt
        self._buffer: list[Any] = []

    @property
    def position(self) -> int:
        """How many values of the stream have been dealt (the next one's index)."""
        return self.faces_dealt

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def _take(self, count: int) -> list[Any]:
        """The next ``count`` decoded values, dealt (counted in ``faces_dealt``)."""
        buffer = self._buffer
        while len(buffer) < count:
            data = block(self.seed, self._counter, DICE_LABEL)
            self._counter += 1
            buffer.extend(self._decode(data))
        taken = buffer[:count]
        del buffer[:count]
        self.faces_dealt += count
        return taken

    @abstractmethod
    def _decode(self, data: bytes) -> Iterable[Any]:
        """What one block's accepted bytes become (a derivation's faces)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.commitment[:12]}… at face {self.faces_dealt}>"


class SeededDice(AcceptedByteStream):
    """The ``dice-1`` face stream of one seed (see the module docstring for the algorithm)."""

    __slots__ = ()

    version = DICE_1

    def roll(self, count: int, kinds: Sequence[str] | None = None) -> tuple[Face, ...]:
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        if kinds is not None:
            check_kinds(DICE_1, count, kinds, (BASE_KIND,))
        faces = tuple(self._take(count))
        self.rolls_made += 1
        return faces

    def _decode(self, data: bytes) -> Iterable[Face]:
        return [FACES[b % 6] for b in data if b < ACCEPT_BELOW]


def faces_of(seed: bytes, count: int) -> tuple[Face, ...]:
    """The first ``count`` faces of ``seed``'s ``dice-1`` stream (what an auditor recomputes)."""
    return SeededDice(seed).roll(count)
