"""A table game the server deals (a league table started without the seats entered): the deal an
online game of its ruleset would get, from a seed kept under the game's id, the Sheriff as named;
then the scorekeeper enters the dice. A retry deals the same seats; only a table game is dealt
on request, and it names all its members."""

from __future__ import annotations

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import InvalidGameSpec
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice import Decision

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 6))
DEALT = NewGame(
    mode=GameMode.TABLE,
    player_count=5,
    members=MEMBERS,
    sheriff_member="m3",
    dealt_by_server=True,
    game_id="t1",
)


@pytest.fixture
def game_service() -> GameService:
    return GameService(MemoryEventStore(mapper=GAME_MAPPER), MemorySeedVault())  # type: ignore[arg-type]


async def test_the_server_deals_a_table_game_and_the_dice_are_still_entered(
    game_service: GameService,
) -> None:
    session = await game_service.create_game(DEALT, command_id="start", actor=ORGANISER)
    assert session.mode is GameMode.TABLE
    assert sorted(session.seat_members.values()) == [m.member_id for m in MEMBERS]
    assert session.game is not None
    sheriff = next(seat for seat, member in session.seat_members.items() if member == "m3")
    assert str(session.game.state.player(sheriff).role) == "sheriff"  # type: ignore[attr-defined]
    # no roll from the server: the table's dice are entered by its scorekeeper
    assert session.game.awaiting is not None and session.game.awaiting.decision is Decision.ROLL
    assert session.created.seed_commitment is None and session.faces_rolled == 0
    # the same command again deals the same seats (the seed is kept under the game's id)
    again = await game_service.create_game(DEALT, command_id="start", actor=ORGANISER)
    assert again.version == session.version and again.seat_members == session.seat_members


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            NewGame(mode=GameMode.ONLINE, player_count=5, members=MEMBERS, dealt_by_server=True),
            "only a table game",
        ),
        (
            NewGame(mode=GameMode.TABLE, player_count=5, members=MEMBERS[:4], dealt_by_server=True),
            "all 5 members",
        ),
    ],
)
async def test_a_deal_on_request_is_a_table_games_with_every_member(
    game_service: GameService, spec: NewGame, words: str
) -> None:
    with pytest.raises(InvalidGameSpec, match=words):
        await game_service.create_game(spec, command_id="bad", actor=ORGANISER)
