"""Where dice faces come from: the engine never rolls, a ``DiceSource`` does.

``SeededDice`` is provably fair: the server publishes ``commitment(seed)`` before the game,
reveals the seed after it, and anyone can re-derive every face. The algorithm, exactly:

1. ``FACES`` is the tuple of ``Face`` members in declaration order:
   ``(arrow, dynamite, shoot1, shoot2, beer, gatling)`` — index 0..5.
2. Blocks: for counter = 0, 1, 2, … the block is
   ``HMAC-SHA256(key=seed, msg=counter.to_bytes(8, "big"))`` (32 bytes).
3. The byte stream is block 0's bytes in order, then block 1's, and so on.
4. Each byte ``b`` of the stream is either used or rejected, in order: if ``b < 252`` the next
   face is ``FACES[b % 6]``; otherwise (252..255) the byte is rejected. 252 = 6 × 42, so every
   face has probability exactly 1/6 (rejection sampling, no modulo bias).
5. ``roll(count)`` takes the next ``count`` faces of that one face stream; nothing is
   discarded between calls, so the faces of a game are a prefix of the stream.

``rolls_made`` counts ``roll`` calls and ``faces_dealt`` counts faces handed out, so an auditor
who holds the seed and the game's record can check that the recorded faces are exactly the
first ``faces_dealt`` faces of the stream. ``commitment(seed)`` is ``sha256(seed).hexdigest()``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Protocol

from services.game.rules.dice import Face

FACES: tuple[Face, ...] = tuple(Face)
"""Face by index 0..5, in ``Face`` declaration order (part of the published algorithm)."""

_ACCEPT_BELOW = 252  # largest multiple of 6 that fits a byte: bytes from here on are rejected
SEED_BYTES = 32


class DiceSource(Protocol):
    def roll(self, count: int) -> tuple[Face, ...]:
        """The next ``count`` faces."""
        ...


def new_seed() -> bytes:
    """A fresh secret seed (32 bytes from the OS's cryptographic generator)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What is published before the game: the SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def block(seed: bytes, counter: int) -> bytes:
    """Block ``counter`` of the byte stream: HMAC-SHA256(seed, counter as 8 bytes big-endian)."""
    return hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()


class SeededDice:
    """The face stream of one seed (see the module docstring for the exact algorithm)."""

    __slots__ = ("_buffer", "_counter", "faces_dealt", "rolls_made", "seed")

    def __init__(self, seed: bytes) -> None:
        if not seed:
            raise ValueError("a dice seed must not be empty")
        self.seed = seed
        self.rolls_made = 0
        self.faces_dealt = 0
        self._counter = 0
        # faces already derived from the current block but not yet dealt
        self._buffer: list[Face] = []

    @property
    def position(self) -> int:
        """How many faces of the stream have been dealt (the next face's index)."""
        return self.faces_dealt

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def roll(self, count: int) -> tuple[Face, ...]:
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        buffer = self._buffer
        while len(buffer) < count:
            self._refill()
        faces = tuple(buffer[:count])
        del buffer[:count]
        self.rolls_made += 1
        self.faces_dealt += count
        return faces

    def _refill(self) -> None:
        data = block(self.seed, self._counter)
        self._counter += 1
        self._buffer.extend(FACES[b % 6] for b in data if b < _ACCEPT_BELOW)

    def __repr__(self) -> str:
        return f"<SeededDice {self.commitment[:12]}… at face {self.faces_dealt}>"


def faces_of(seed: bytes, count: int) -> tuple[Face, ...]:
    """The first ``count`` faces of ``seed``'s stream (what an auditor recomputes)."""
    return SeededDice(seed).roll(count)
