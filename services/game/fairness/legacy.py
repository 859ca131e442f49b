"""``legacy-1``: the random choices between two games of a UA5 legacy series, from the series' seed.

A series commits to one seed when it opens (``SeriesOpened.seed_commitment``, sha256 of the
seed) and reveals it when it closes. Between game ``g`` (1, 2, …) and game ``g + 1`` the legacy
plan (``services/game/rules/dice/undead/legacy.py``) asks three kinds of draw, each among options
it lists in a fixed order (``Question.among``). Exactly, for the draw ``ask`` for player ``p``
before game ``n = g + 1``:

1. Byte stream ``streams.ByteStream(seed, label)`` with
   ``label = b"legacy-1:" + n.to_bytes(8, "big") + b":" + ask + b":" + p`` (ask and p as
   UTF-8): blocks ``HMAC-SHA256(key=seed, msg=label + counter.to_bytes(8, "big"))`` for counter
   0, 1, …, in order. Each draw reads its own stream: it depends on the seed, the game it sets
   up, what is drawn and for whom, never on how many bytes another draw used.
2. ``sheriff`` (for the old Sheriff, who has no player source): ``among[below(len(among))]``,
   ``among`` = the other players' seat ids, sorted.
3. ``character`` (for a redrawing survivor): ``among[below(len(among))]``, ``among`` = the
   pool's character ids left, sorted.
4. ``roles`` (for the new Sheriff): ``among`` = the role table of ``roles_for(n)`` less one
   Sheriff, in that table's order, Fisher–Yates-shuffled from the end (``ByteStream.shuffle``:
   for i = k-1 … 1, swap i with ``below(i + 1)``); the result is the roles of the other seats
   in seat order from the new Sheriff.

Decisions (``next_sheriff``, ``keep_character``, ``choose_character``) are the players' own and
never come from the seed.
"""

from __future__ import annotations

from services.game.fairness.streams import ByteStream
from services.game.fairness.versions import LEGACY_1
from services.game.rules.dice.undead.legacy import (
    Ask,
    CharacterDrawn,
    LegacyEntry,
    LegacyPlan,
    Question,
    RolesDrawn,
    SheriffDrawn,
)
from services.game.rules.dice.vocabulary import CharacterId, PlayerId, Role

LEGACY_LABEL = LEGACY_1.encode() + b":"
LEGACY_1_ASKS: tuple[str, ...] = (Ask.SHERIFF_DRAW.value, Ask.CHARACTER_DRAW.value, Ask.ROLES_DRAW.value)
"""The draws ``legacy-1`` makes, by the name its labels carry."""


def draw_label(game_number: int, ask: str, player: str) -> bytes:
    """The stream label of the draw ``ask`` for ``player`` before game ``game_number`` (from 2)."""
    if game_number < 2:
        raise ValueError(f"{LEGACY_1}: game {game_number} follows no game of the series")
    return LEGACY_LABEL + game_number.to_bytes(8, "big") + b":" + ask.encode() + b":" + player.encode()


def draw(seed: bytes, game_number: int, question: Question) -> LegacyEntry:
    """The entry ``legacy-1`` draws for ``question`` (a draw) before game ``game_number``."""
    if not question.is_draw:
        raise ValueError(f"{question.text} is a player's decision, not a draw")
    if not question.among:
        raise ValueError(f"{LEGACY_1}: {question.text} has nothing to draw among")
    stream = ByteStream(seed, draw_label(game_number, question.ask.value, question.player))
    match question.ask:
        case Ask.SHERIFF_DRAW:
            return SheriffDrawn(player=PlayerId(question.among[stream.below(len(question.among))]))
        case Ask.CHARACTER_DRAW:
            character = CharacterId(question.among[stream.below(len(question.among))])
            return CharacterDrawn(player=question.player, character=character)
        case _:
            roles = tuple(Role(r) for r in stream.shuffle(question.among))
            return RolesDrawn(player=question.player, roles=roles)


def draw_while_asked(seed: bytes, game_number: int, plan: LegacyPlan) -> LegacyPlan:
    """``plan`` with every draw it asks entered, up to the next player's decision (or the end)."""
    while (q := plan.asked) is not None and q.is_draw:
        plan = plan.enter(draw(seed, game_number, q))
    return plan
