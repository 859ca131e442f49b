"""The neutral game result: the dice engine's end read in words every game type shares, and the
one decoder that league and ratings use, run on games played through the real service."""

from __future__ import annotations

import random

import msgspec
import pytest

from event_store import MemoryEventStore, RecordedEvent
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.lifecycle import GameCreated, GameMode, SeatsDealt
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.application.session import GameStatus
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.results import (
    BASE_RULESET,
    Elimination,
    FinishKind,
    GameFinish,
    GameResult,
    GameType,
    MissingMember,
    Role,
    Side,
    has_sheriff,
    roles_for,
)
from services.game.results.decoder import FACT_TYPES, GameResults, decode_game_fact, dice_finish, game_result
from services.game.rules.dice import Cause, CharacterId, GameEnded, PlayerId, PlayerResult
from services.game.rules.dice import Role as DiceRole
from services.game.rules.dice import Side as DiceSide
from services.game.rules.ruleset import ruleset_of

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 6))


def _line(p: str, role: DiceRole, side: DiceSide, won: bool, alive: bool, **out: object) -> PlayerResult:
    return PlayerResult(
        player=PlayerId(p), role=role, character=CharacterId.BART_CASSIDY, side=side, won=won, alive=alive,
        **out,  # type: ignore[arg-type]
    )


def test_the_dice_end_in_neutral_words() -> None:
    ended = GameEnded(
        winning_side=DiceSide.OUTLAWS,
        winners=(PlayerId("p2"), PlayerId("p3")),
        results=(
            _line("p1", DiceRole.SHERIFF, DiceSide.LAW, False, False,
                  eliminated_by=PlayerId("p3"), eliminated_cause=Cause.SHOOT2, eliminated_turn=9),
            _line("p2", DiceRole.OUTLAW, DiceSide.OUTLAWS, True, False,
                  eliminated_by=None, eliminated_cause=Cause.DYNAMITE, eliminated_turn=4),
            _line("p3", DiceRole.OUTLAW, DiceSide.OUTLAWS, True, True),
            _line("p4", DiceRole.RENEGADE, DiceSide.RENEGADE, False, False,
                  eliminated_by=PlayerId("p1"), eliminated_cause=Cause.GATLING, eliminated_turn=4),
        ),
        turn=9,
    )
    finish = dice_finish(ended)
    assert finish.finish is FinishKind.WON
    assert finish.winners == ("outlaws",) and finish.winning_side == Side.OUTLAWS
    assert [(s.seat, s.role, s.base_role, s.side, s.alive, s.won) for s in finish.seats] == [
        ("p1", "sheriff", Role.SHERIFF, "law", False, False),
        ("p2", "outlaw", Role.OUTLAW, "outlaws", False, True),
        ("p3", "outlaw", Role.OUTLAW, "outlaws", True, True),
        ("p4", "renegade", Role.RENEGADE, "renegade", False, False),
    ]
    # by turn, then seat: the two of turn 4 in seat order
    assert finish.eliminations == (
        Elimination(seat="p2", by=None, cause="dynamite", turn=4),
        Elimination(seat="p4", by="p1", cause="gatling", turn=4),
        Elimination(seat="p1", by="p3", cause="shoot2", turn=9),
    )
    assert finish.turn == 9
    # neutral values only: no engine enum leaks through (they would not survive a JSON round trip
    # as themselves, and league/ratings compare with the neutral ones)
    decoded = msgspec.json.decode(msgspec.json.encode(finish), type=GameFinish)
    assert decoded == finish
    assert type(finish.seats[0].base_role) is Role and type(finish.seats[0].side) is str


def test_a_three_player_wipe_out_has_no_winner() -> None:
    ended = GameEnded(
        winning_side=None,
        winners=(),
        results=(
            _line("p1", DiceRole.DEPUTY, DiceSide.DEPUTY, False, False, eliminated_cause=Cause.INDIAN_ATTACK,
                  eliminated_turn=3),
            _line("p2", DiceRole.OUTLAW, DiceSide.OUTLAW, False, False, eliminated_cause=Cause.INDIAN_ATTACK,
                  eliminated_turn=3),
            _line("p3", DiceRole.RENEGADE, DiceSide.RENEGADE, False, False,
                  eliminated_cause=Cause.INDIAN_ATTACK, eliminated_turn=3),
        ),
        turn=3,
    )
    finish = dice_finish(ended)
    assert finish.finish is FinishKind.NO_WINNER
    assert finish.winners == () and finish.winning_side is None
    assert [s.side for s in finish.seats] == ["deputy", "outlaw", "renegade"]


def test_a_result_names_who_sat_where_or_refuses_an_empty_seat() -> None:
    ended = GameEnded(
        winning_side=DiceSide.LAW,
        winners=(PlayerId("p1"),),
        results=(
            _line("p1", DiceRole.SHERIFF, DiceSide.LAW, True, True),
            _line("p2", DiceRole.RENEGADE, DiceSide.RENEGADE, False, False),
            _line("p3", DiceRole.OUTLAW, DiceSide.OUTLAWS, False, False),
            _line("p4", DiceRole.OUTLAW, DiceSide.OUTLAWS, False, False),
        ),
        turn=20,
    )
    finish = dice_finish(ended)
    result = finish.result("g1", {"p1": "ann", "p2": "bob", "p3": "cat", "p4": "dan"})
    assert (result.game_id, result.game_type, result.ruleset) == ("g1", GameType.DICE, BASE_RULESET)
    assert [s.member_id for s in result.seats] == ["ann", "bob", "cat", "dan"]
    # an eliminated player before a recorded position: out, but no cause on record
    assert result.eliminations[0] == Elimination(seat="p2", by=None, cause=None, turn=0)
    with pytest.raises(MissingMember) as missing:
        finish.result("g1", {"p1": "ann", "p2": "bob", "p4": "dan"})
    assert missing.value.seat == "p3"


def test_the_role_table_and_sheriff_tables() -> None:
    assert [has_sheriff(n) for n in range(3, 9)] == [False, True, True, True, True, True]
    assert sorted(roles_for(8)).count(Role.RENEGADE) == 2
    with pytest.raises(ValueError, match="3 to 8"):
        roles_for(9)


async def _play(service: GameService, members: tuple[Member, ...], seed: int) -> str:
    session = await service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=len(members), members=members),
        command_id=f"create-{seed}",
        actor=ORGANISER,
    )
    rng = random.Random(seed)
    for n in range(5_000):
        session = await service.load(session.game_id)
        if session.status is not GameStatus.ONGOING:
            break
        assert session.game is not None and session.game.awaiting is not None
        seat = session.game.awaiting.player
        command = rng.choice(list(session.game.legal_commands()))
        actor = Actor(kind=ActorKind.PLAYER, id=session.seat_members[seat])
        await service.play(session.game_id, command, actor=actor, command_id=f"{seed}-{n}")
    assert session.status is GameStatus.ENDED
    return session.game_id


async def test_the_decoder_reads_a_played_game_as_its_engine_ended_it() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    game_id = await _play(service, MEMBERS, seed=5)
    stored = await store.read_stream(game_stream(game_id))
    result = game_result(stored)
    assert isinstance(result, GameResult)

    session = await service.load(game_id)
    assert session.game is not None and session.game.result is not None
    ended = session.game.result
    assert result.game_id == game_id and result.turn == ended.turn
    assert result.winning_side == (None if ended.winning_side is None else ended.winning_side.value)
    assert [(s.seat, s.member_id, s.role, s.side, s.won, s.alive) for s in result.seats] == [
        (r.player, session.seat_members[r.player], r.role.value, r.side.value, r.won, r.alive)
        for r in ended.results
    ]
    assert {e.seat for e in result.eliminations} == {r.player for r in ended.results if not r.alive}
    # every event the decoder skips is one it does not need; what it reads it decodes
    facts = [decode_game_fact(e) for e in stored]
    assert sum(f is not None for f in facts) == sum(e.type in FACT_TYPES for e in stored)
    assert isinstance(facts[-2], GameFinish)  # the end, before the seed is revealed


async def test_the_fold_follows_interleaved_games_and_skips_abandoned_ones() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    first = await _play(service, MEMBERS[:4], seed=11)
    second = await _play(service, MEMBERS[1:], seed=12)
    abandoned = await service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=3, members=MEMBERS[:3]), command_id="c-x", actor=ORGANISER
    )
    await service.abandon(abandoned.game_id, reason="rain", actor=ORGANISER, command_id="abandon-x")
    streams = [await store.read_stream(game_stream(g)) for g in (first, second, abandoned.game_id)]
    # one event of each stream in turn, as a catch-up subscription sees several games at once
    interleaved: list[RecordedEvent] = []
    for i in range(max(map(len, streams))):
        interleaved += [s[i] for s in streams if i < len(s)]
    fold = GameResults()
    ended = [r for e in interleaved if (r := fold.add(e)) is not None]
    assert {r.game_id: r for r in ended} == {first: game_result(streams[0]), second: game_result(streams[1])}
    assert len(ended) == 2  # the abandoned game never ends


async def test_a_result_names_the_rules_its_game_was_created_with() -> None:
    # written straight to a store: the service refuses modules it does not implement yet, but a
    # stream that records them must come out under its own rules, not the base game's
    store = MemoryEventStore(mapper=GAME_MAPPER)
    ended = GameEnded(
        winning_side=DiceSide.LAW,
        winners=(PlayerId("p1"),),
        results=(
            _line("p1", DiceRole.SHERIFF, DiceSide.LAW, True, True),
            _line("p2", DiceRole.RENEGADE, DiceSide.RENEGADE, False, False),
            _line("p3", DiceRole.OUTLAW, DiceSide.OUTLAWS, False, False),
            _line("p4", DiceRole.OUTLAW, DiceSide.OUTLAWS, False, False),
        ),
        turn=7,
    )
    rules = ruleset_of(["OS2", "OS1"])
    created = GameCreated(game_id="os", mode=GameMode.TABLE, player_count=4, ruleset=rules)
    seats = SeatsDealt(members=("ann", "bob", "cat", "dan"))
    await store.append(game_stream("os"), [created, seats, ended], expected_version=0)
    result = game_result(await store.read_stream(game_stream("os")))
    assert result is not None
    assert (result.game_type, result.ruleset) == ("dice", "dice OS1 OS2")
    assert [s.member_id for s in result.seats] == ["ann", "bob", "cat", "dan"]
