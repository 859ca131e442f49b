"""The byte streams of a seed: ``HMAC-SHA256(key=seed, msg=label + counter)`` blocks.

For counter = 0, 1, 2, … the block is ``HMAC-SHA256(key=seed, msg=label +
counter.to_bytes(8, "big"))`` (32 bytes); the stream is block 0's bytes in order, then block
1's, and so on. Each derivation has its own label, so no two derivations share bytes: ``dice-1``
(and ``dice-2``, which reads the same stream) uses the empty label, ``deal-1`` (and ``deal-2``)
uses ``b"deal"``, ``roles-os3-1`` uses ``b"special-roles"``. A new derivation takes a new label
unless it is defined as reading an older one's stream.

``below(k)`` (integers, no bias): take the next 4 bytes as a big-endian unsigned integer ``x``;
if ``x >= (2**32 // k) * k`` skip them and take 4 more; else answer ``x % k``.
``shuffle(items)``: Fisher–Yates from the end: for i from n-1 down to 1, swap i with
``below(i + 1)``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

DICE_LABEL = b""
"""``dice-1``'s label (the first derivation, made before labels had names)."""
DEAL_LABEL = b"deal"
SPECIAL_ROLES_LABEL = b"special-roles"


def block(seed: bytes, counter: int, label: bytes = DICE_LABEL) -> bytes:
    """Block ``counter`` of the ``label`` stream: HMAC-SHA256(seed, label + counter as 8 bytes)."""
    return hmac.new(seed, label + counter.to_bytes(8, "big"), hashlib.sha256).digest()


class ByteStream:
    """The ``label`` byte stream of ``seed``, read front to back."""

    __slots__ = ("_buffer", "_counter", "_label", "_seed")

    def __init__(self, seed: bytes, label: bytes) -> None:
        self._seed = seed
        self._label = label
        self._counter = 0
        self._buffer = b""

    def take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += block(self._seed, self._counter, self._label)
            self._counter += 1
        taken, self._buffer = self._buffer[:n], self._buffer[n:]
        return taken

    def below(self, k: int) -> int:
        """An integer in ``0 .. k-1``, every one equally likely (rejection sampling)."""
        if not 0 < k <= 2**32:
            raise ValueError(f"below({k}) is not defined: k must be 1 to 2**32")
        limit = (2**32 // k) * k
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % k

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
