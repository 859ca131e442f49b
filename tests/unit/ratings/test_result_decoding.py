"""The neutral result of an Old Saloon game: its special roles and its Ghost read from the
recorded end by name, while a base game's result reads and encodes exactly as before."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from event_store import MemoryEventStore, NewEvent, PayloadDecodeError
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.lifecycle import GameCreated, GameMode, SeatsDealt
from services.game.results import FinishKind, GameFinish, GameResult, Role, SeatOutcome
from services.game.results.decoder import decode_game_fact, dice_finish, game_result
from services.game.rules.dice import CharacterId, GameEnded, PlayerId, PlayerResult
from services.game.rules.dice import Role as DiceRole
from services.game.rules.dice import Side as DiceSide
from services.game.rules.ruleset import ruleset_of
from services.ratings.model import RatingBook
from services.ratings.outcome import from_result

ROLES = (DiceRole.SHERIFF, DiceRole.DEPUTY, DiceRole.OUTLAW, DiceRole.OUTLAW, DiceRole.RENEGADE)
SIDES = (DiceSide.LAW, DiceSide.LAW, DiceSide.OUTLAWS, DiceSide.OUTLAWS, DiceSide.RENEGADE)
SPECIAL = ("l_ours", "le_doc", "le_joueur", "le_vilain", "main_gauche")
MEMBERS = ("ann", "bob", "cat", "dan", "eve")


def _ended() -> GameEnded:
    """Five players; the Outlaws won; p3 was out first (the Ghost in an OS5 game)."""
    return GameEnded(
        winning_side=DiceSide.OUTLAWS,
        winners=(PlayerId("p3"), PlayerId("p4")),
        results=tuple(
            PlayerResult(
                player=PlayerId(f"p{i + 1}"),
                role=role,
                character=CharacterId.BART_CASSIDY,
                side=side,
                won=side is DiceSide.OUTLAWS,
                alive=i in (1, 3),
                eliminated_turn=None if i in (1, 3) else 2 + i,
            )
            for i, (role, side) in enumerate(zip(ROLES, SIDES, strict=True))
        ),
        turn=9,
    )


def _payload(ghost: dict[str, Any] | None = None) -> dict[str, Any]:
    """The end as an engine with Old Saloon records it: each line names its special role, and
    the first out is the Ghost."""
    data: dict[str, Any] = msgspec.to_builtins(_ended())
    for line, special in zip(data["results"], SPECIAL, strict=True):
        line["special"] = special
    data["results"][2]["ghost"] = True
    if ghost is not None:
        data["results"][0].update(ghost)
    return data


async def _recorded(end: GameEnded | NewEvent, modules: tuple[str, ...]) -> list[Any]:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    created = GameCreated(game_id="g", mode=GameMode.TABLE, player_count=5, ruleset=ruleset_of(modules))
    await store.append(game_stream("g"), [created, SeatsDealt(members=MEMBERS), end], expected_version=0)
    return list(await store.read_stream(game_stream("g")))


async def test_a_recorded_old_saloon_end_carries_special_roles_and_the_ghost() -> None:
    end = NewEvent(type=GameEnded.__name__, data=_payload(), schema_version=GameEnded.VERSION)
    result = game_result(await _recorded(end, ("OS3", "OS5")))
    assert isinstance(result, GameResult)
    assert result.ruleset == "dice OS3 OS5"
    assert [(s.member_id, s.special, s.ghost) for s in result.seats] == [
        ("ann", "l_ours", False),
        ("bob", "le_doc", False),
        ("cat", "le_joueur", True),
        ("dan", "le_vilain", False),
        ("eve", "main_gauche", False),
    ]
    # the role and base role stay the base ones the engine reports, so ratings key on them
    assert [s.base_role for s in result.seats] == [
        Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.OUTLAW, Role.RENEGADE,
    ]
    assert result.seats[2].alive is False and result.seats[2].won is True
    # the extras survive a JSON round trip of the neutral result
    assert msgspec.json.decode(msgspec.json.encode(result), type=GameResult) == result
    book = RatingBook()
    book.apply(from_result(result))
    assert {role for record in book.players.values() for role in record.roles} <= set(Role)
    assert book.offsets.cells.keys() == {"dice OS3 OS5"}


async def test_a_base_game_end_reads_and_encodes_as_before() -> None:
    stored = await _recorded(_ended(), ())
    result = game_result(stored)
    assert isinstance(result, GameResult) and result.ruleset == "dice"
    assert all(s.special is None and s.ghost is False for s in result.seats)
    finish = decode_game_fact(stored[-1])
    assert isinstance(finish, GameFinish) and finish == dice_finish(_ended())
    # no new keys in a base game's encoding: what a consumer stored before reads back equal
    encoded = msgspec.json.encode(finish)
    assert b"special" not in encoded and b"ghost" not in encoded
    before = (
        b'{"finish":"won","winners":["outlaws"],"seats":[{"seat":"p1","role":"sheriff",'
        b'"base_role":"sheriff","side":"law","alive":false,"won":false}],"eliminations":[],"turn":9}'
    )
    old = msgspec.json.decode(before, type=GameFinish)
    assert old.seats == (
        SeatOutcome(seat="p1", role="sheriff", base_role=Role.SHERIFF, side="law", alive=False, won=False),
    )
    assert msgspec.json.encode(old) == before and old.finish is FinishKind.WON


def test_the_end_read_straight_from_the_engine_has_no_extras_until_it_reports_them() -> None:
    # simulation and the bot league call dice_finish on the engine's struct: absent fields
    # are the base game's defaults, and a payload given beside it is what counts
    assert [(s.special, s.ghost) for s in dice_finish(_ended()).seats] == [(None, False)] * 5
    with_extras = dice_finish(_ended(), _payload())
    assert [s.special for s in with_extras.seats] == list(SPECIAL)
    assert [s.ghost for s in with_extras.seats] == [False, False, True, False, False]


@pytest.mark.parametrize(("bad", "words"), [({"ghost": "yes"}, "ghost"), ({"special": 3}, "special")])
async def test_a_malformed_extra_is_refused_naming_it(bad: dict[str, Any], words: str) -> None:
    # refused by the decoder today, and by the engine's own PlayerResult once it declares them
    end = NewEvent(type=GameEnded.__name__, data=_payload(bad), schema_version=GameEnded.VERSION)
    stored = await _recorded(end, ("OS3", "OS5"))
    with pytest.raises(PayloadDecodeError, match=words):
        decode_game_fact(stored[-1])
