"""``dice-2``: the faces of dice of several kinds (base, Loudmouth, Coward, Duel) from one seed.

``dice-2`` reads exactly ``dice-1``'s stream and changes only how an index becomes a face, so a
game of base dice only gets exactly ``dice-1``'s faces. Exactly:

1. ``DICE_2_FACES`` holds one face table per die kind, written out in this version, six faces
   each, index 0..5 (a face may repeat: the Duel die shows ``duel`` twice)::

       base      = ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")
       loudmouth = ("arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2")
       coward    = ("arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow")
       duel      = ("arrow", "dynamite", "gatling", "whiskey", "duel", "duel")

2. The byte stream is ``dice-1``'s: for counter = 0, 1, 2, … the block
   ``HMAC-SHA256(key=seed, msg=counter.to_bytes(8, "big"))`` (empty label), blocks in order.
3. Each byte ``b`` is used or rejected, in order: ``b < 252`` gives the next index ``b % 6``;
   252..255 are rejected. Every index has probability exactly 1/6.
4. ``roll(count, kinds)`` takes the next ``count`` indices; die ``i`` shows
   ``DICE_2_FACES[kinds[i]][index_i]``. ``kinds`` None means every die is ``base``. Nothing is
   discarded between calls: the ``n``-th die rolled in a game, whatever its kind, reads the
   ``n``-th index of the stream, so the faces of a game are a prefix of the stream read through
   the kinds of its dice.

The kind of each die is a fact of the game, not of the seed: the engine's hand of dice
(``state.turn.kinds``) says which kind each rolled die is, and an auditor follows the same
replay. A kind is rolled only when every face of its table is a face of the engine (mapped by
name, never by enum order): the Duel die's table is pinned here, and it rolls once Undead or
Alive brings ``whiskey`` and ``duel``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from services.game.fairness.dice import ACCEPT_BELOW, BASE_KIND, AcceptedByteStream, check_kinds
from services.game.fairness.versions import DICE_2
from services.game.rules.dice import Face

DICE_2_FACES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "base": ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"),
        "loudmouth": ("arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2"),
        "coward": ("arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow"),
        "duel": ("arrow", "dynamite", "gatling", "whiskey", "duel", "duel"),
    }
)
"""``dice-2``'s face table per die kind, index 0..5. Part of the published algorithm: never
reorder or edit it (a change is a new version)."""



def _engine_faces(names: tuple[str, ...]) -> tuple[Face, ...] | None:
    known = {f.value: f for f in Face}
    if not all(n in known for n in names):
        return None
    return tuple(known[n] for n in names)


def _engine_tables() -> dict[str, tuple[Face, ...]]:
    tables = {kind: _engine_faces(names) for kind, names in DICE_2_FACES.items()}
    return {kind: table for kind, table in tables.items() if table is not None}


KIND_FACES: Mapping[str, tuple[Face, ...]] = MappingProxyType(_engine_tables())
"""The kinds the engine has every face of, with ``DICE_2_FACES`` as the engine's faces."""
_BASE = KIND_FACES[BASE_KIND]


def kind_faces(kind: str) -> tuple[Face, ...]:
    """``kind``'s table as engine faces; ``ValueError`` naming why it cannot be rolled."""
    table = KIND_FACES.get(kind)
    if table is not None:
        return table
    names = DICE_2_FACES.get(kind)
    if names is None:
        raise ValueError(f"{DICE_2} has no {kind!r} die (kinds: {', '.join(DICE_2_FACES)})")
    missing = sorted({n for n in names if n not in {f.value for f in Face}})
    raise ValueError(f"{DICE_2} cannot roll a {kind} die yet: the engine has no face {', '.join(missing)}")


class KindedDice(AcceptedByteStream):
    """The ``dice-2`` face stream of one seed (see the module docstring for the algorithm)."""

    __slots__ = ()

    version = DICE_2

    def roll(self, count: int, kinds: Sequence[str] | None = None) -> tuple[Face, ...]:
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        if kinds is None:
            tables: Sequence[tuple[Face, ...]] = (_BASE,) * count
        else:
            check_kinds(DICE_2, count, kinds, tuple(DICE_2_FACES))
            tables = [kind_faces(k) for k in kinds]  # refused before a byte is used
        indices = self.indices(count)
        self.rolls_made += 1
        return tuple(table[i] for table, i in zip(tables, indices, strict=True))

    def indices(self, count: int) -> list[int]:
        """The next ``count`` indices (0..5) of the stream, dealt (counted in ``faces_dealt``)."""
        return self._take(count)

    def _decode(self, data: bytes) -> Iterable[int]:
        return [b % 6 for b in data if b < ACCEPT_BELOW]


