"""Command ids and their fingerprints, from the stored events: a restarted process tells a
retry from another command under the same id, also for events stored before fingerprints were
kept, and a fingerprint holds nothing hidden."""

from __future__ import annotations

import msgspec
import pytest

from event_store import PostgresEventStore
from services.game.application.codec import game_stream
from services.game.application.errors import CommandIdReused
from services.game.application.lifecycle import GameMode
from services.game.application.service import (
    SYSTEM,
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    PlayOutcome,
    TableSeat,
    command_fingerprint,
)
from services.game.application.session import GameSession
from services.game.fairness.vault import SeedVault
from services.game.rules.dice import CharacterId, Role, StopRolling

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 5))


class FingerprintlessService(GameService):
    """The service as it was before fingerprints: the same events, without one."""

    async def _append(
        self,
        session: GameSession,
        events: list[msgspec.Struct],
        *,
        command_id: str,
        actor: Actor,
        fingerprint: str | None,
        expected_version: int,
    ) -> PlayOutcome:
        return await super()._append(
            session,
            events,
            command_id=command_id,
            actor=actor,
            fingerprint=None,
            expected_version=expected_version,
        )


def restarted(service: GameService) -> GameService:
    """Another process on the same database: nothing cached."""
    return GameService(service.store, SeedVault(service.store.pool))


async def _two_legal_moves(service: GameService, game_id: str) -> tuple[Actor, list[StopRolling]]:
    session = await service.load(game_id)
    assert session.game is not None and session.game.awaiting is not None
    seat = session.game.awaiting.player
    legal = list(session.game.legal_commands())
    assert len(legal) >= 2
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[seat]), legal[:2]


async def test_a_fingerprint_is_kept_with_the_command_and_survives_a_restart(
    game_service: GameService,
) -> None:
    created = await game_service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS), command_id="c", actor=ORGANISER
    )
    version = created.version
    actor, (move, other) = await _two_legal_moves(game_service, created.game_id)
    first = await game_service.play(created.game_id, move, actor=actor, command_id="once")

    stored = await game_service.store.read_stream(game_stream(created.game_id), from_version=version + 1)
    assert stored[0].metadata.command_fingerprint == command_fingerprint("play", move, actor)
    assert all(r.metadata.command_fingerprint is None for r in stored[1:])  # once per command

    fresh = restarted(game_service)
    again = await fresh.play(created.game_id, move, actor=actor, command_id="once")
    assert again.duplicate and again.events == first.events
    with pytest.raises(CommandIdReused):
        await restarted(game_service).play(created.game_id, other, actor=actor, command_id="once")
    with pytest.raises(CommandIdReused):
        await restarted(game_service).play(created.game_id, move, actor=SYSTEM, command_id="once")
    assert (await restarted(game_service).load(created.game_id)).version == first.version


async def test_commands_stored_without_a_fingerprint_match_only_the_same_command(
    game_service: GameService,
) -> None:
    legacy = FingerprintlessService(game_service.store, game_service.seeds)
    spec = NewGame(mode=GameMode.ONLINE, player_count=4, members=MEMBERS)
    created = await legacy.create_game(spec, command_id="c", actor=ORGANISER)
    actor, (move, other) = await _two_legal_moves(legacy, created.game_id)
    first = await legacy.play(created.game_id, move, actor=actor, command_id="old")
    stored = await game_service.store.read_stream(game_stream(created.game_id))
    assert all(r.metadata.command_fingerprint is None for r in stored)

    now = restarted(game_service)
    assert (await now.play(created.game_id, move, actor=actor, command_id="old")).events == first.events
    with pytest.raises(CommandIdReused):
        await now.play(created.game_id, other, actor=actor, command_id="old")
    with pytest.raises(CommandIdReused):
        await now.play(created.game_id, move, actor=SYSTEM, command_id="old")
    # the create, too: the same spec is its retry, another is refused
    assert (await now.create_game(spec, command_id="c", actor=ORGANISER)).game_id == created.game_id
    with pytest.raises(CommandIdReused):
        await now.create_game(msgspec.structs.replace(spec, player_count=5), command_id="c", actor=ORGANISER)
    assert (await now.load(created.game_id)).version == first.version


async def test_a_fingerprint_says_nothing_of_a_table_games_roles(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    def seats(roles: tuple[Role, ...]) -> tuple[TableSeat, ...]:
        characters = (
            CharacterId.PAUL_REGRET,
            CharacterId.WILLY_THE_KID,
            CharacterId.BLACK_JACK,
            CharacterId.LUCKY_DUKE,
        )
        return tuple(
            TableSeat(member_id=m.member_id, name=m.name, role=r, character=c)
            for m, r, c in zip(MEMBERS, roles, characters, strict=True)
        )

    dealt = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW)
    swapped = (Role.SHERIFF, Role.OUTLAW, Role.RENEGADE, Role.OUTLAW)
    table = NewGame(mode=GameMode.TABLE, player_count=4, seats=seats(dealt), game_id="table-1")
    other_deal = msgspec.structs.replace(table, seats=seats(swapped))
    await game_service.create_game(table, command_id="t", actor=ORGANISER)
    stored = await game_store.read_stream(game_stream("table-1"), limit=1)
    session = GameSession.from_recorded("table-1", stored)
    assert session.commands["t"].fingerprint == stored[0].metadata.command_fingerprint is not None

    # the same digest whatever the roles: it cannot be searched for the deal...
    other = restarted(game_service)
    other_session = await other.load("table-1")
    assert other_session.commands["t"].fingerprint == command_fingerprint(
        "create", {"spec": _public(other_deal), "inputs": []}, ORGANISER
    )
    # ...and yet a create under this id with other roles is no retry: the store compares the events
    with pytest.raises(CommandIdReused):
        await other.create_game(other_deal, command_id="t", actor=ORGANISER)
    assert (await other.create_game(table, command_id="t", actor=ORGANISER)).version == other_session.version


def _public(spec: NewGame) -> dict[str, object]:
    """The spec as anybody sees it once the game has started: no roles, no special role cards."""
    public: dict[str, object] = msgspec.to_builtins(spec)
    public.pop("game_id")
    public.pop("ruleset")  # the base game's, left out as before rulesets were recorded
    public.pop("fixed_seats")  # a series' next game only (UA5); none here
    public.pop("dealt_by_server")  # left out unless the server deals a table game, as before it existed
    public["seats"] = [
        {k: v for k, v in seat.items() if k not in ("role", "special", "legacy_bonus")}
        for seat in public["seats"]  # type: ignore[attr-defined]
    ]
    return public
