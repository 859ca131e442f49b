"""Audits of games stored by the game service on a real PostgreSQL, untouched and tampered
with by plain SQL (someone with owner rights who switched the append-only trigger off)."""

from __future__ import annotations

import random
import re

import asyncpg

from event_store import PostgresEventStore
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.application.session import GameSession, GameStatus
from services.game.audit import AuditReport, audit_game
from services.game.audit.report import CHAIN, COMMITMENT, DEAL, REPLAY, RESULT, ROLLS
from services.game.rules.dice import CharacterId, Decision, PlayerId, Role, RollDice, parse_command
from services.game.rules.dice.kinds import BASE

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 7))
TABLE = (
    TableSeat(member_id="ann", name="Ann", role=Role.SHERIFF, character=CharacterId.PAUL_REGRET),
    TableSeat(member_id="bob", name="Bob", role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
    TableSeat(member_id="cy", name="Cy", role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
    TableSeat(member_id="dee", name="Dee", role=Role.RENEGADE, character=CharacterId.LUCKY_DUKE),
)
OPENING = ["p1 roll shoot1 beer arrow gatling dynamite", "p1 stop", "p1 target 0 p2", "p1 target 1 p1"]
"""A table game's first turn: p1 (Sheriff) shoots p2 with a shoot1 and drinks a beer."""
HIDDEN_ROLE = re.compile(r"outlaw|renegade|deputy", re.IGNORECASE)


def check(report: AuditReport, name: str) -> str:
    found = next(c for c in report.checks if c.name == name)
    return ("" if found.passed else "FAILED ") + found.detail


async def tamper(pool: asyncpg.Pool, game_id: str, sql: str) -> None:
    async with pool.acquire() as connection, connection.transaction():
        await connection.execute("ALTER TABLE events DISABLE TRIGGER USER")
        await connection.execute(sql.format(stream=f"'game-{game_id}'"))
        await connection.execute("ALTER TABLE events ENABLE TRIGGER USER")


async def version_of(store: PostgresEventStore, game_id: str, event_type: str, nth: int = 0) -> int:
    versions = [r.version for r in await store.read_stream(f"game-{game_id}") if r.type == event_type]
    return versions[nth]


async def online_game(service: GameService, players: int, rng_seed: int, decisions: int | None = None) -> str:
    """An online game played with random legal decisions, to the end or for ``decisions``."""
    session = await service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=players, members=MEMBERS[:players]),
        command_id=f"create-{rng_seed}",
        actor=ORGANISER,
    )
    rng = random.Random(rng_seed)
    for n in range(5_000 if decisions is None else decisions):
        session = await service.load(session.game_id)
        if session.status is not GameStatus.ONGOING:
            break
        assert session.game is not None and session.game.awaiting is not None
        command = rng.choice(list(session.game.legal_commands()))
        actor = _seat_player(session, session.game.awaiting.player)
        await service.play(session.game_id, command, actor=actor, command_id=f"c{n}")
    return session.game_id


async def table_game(service: GameService, inputs: list[str], game_id: str = "club-1") -> str:
    await service.create_game(
        NewGame(mode=GameMode.TABLE, player_count=4, seats=TABLE, game_id=game_id),
        command_id="t",
        actor=ORGANISER,
    )
    for n, text in enumerate(inputs):
        await service.play(game_id, parse_command(text), actor=ORGANISER, command_id=f"in{n}")
    return game_id


async def table_game_to_the_end(service: GameService, rng_seed: int) -> str:
    """A table game the organiser enters to its end: random faces, random legal decisions."""
    game_id = await table_game(service, [], game_id=f"club-{rng_seed}")
    rng = random.Random(rng_seed)
    for n in range(5_000):
        session = await service.load(game_id)
        if session.status is not GameStatus.ONGOING:
            return game_id
        assert session.game is not None and session.game.awaiting is not None
        question = session.game.awaiting
        if question.decision is Decision.ROLL:
            command = RollDice(
                player=question.player, faces=tuple(rng.choice(list(BASE.faces)) for _ in question.dice)
            )
        else:
            command = rng.choice(list(session.game.legal_commands()))
        await service.play(game_id, command, actor=ORGANISER, command_id=f"r{n}")
    raise AssertionError("the table game did not end")


def _seat_player(session: GameSession, seat: str) -> Actor:
    return Actor(kind=ActorKind.PLAYER, id=session.seat_members[PlayerId(seat)])


# --- (a) and (f): untouched games are clean ----------------------------------------------------------


async def test_an_online_game_played_to_the_end_audits_clean(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await online_game(game_service, 5, rng_seed=3)
    report = await audit_game(game_store, game_id)
    assert report.clean, report.checks
    assert report.verdict == (
        f"clean: chain intact, {report.rolls_checked} rolls re-derived from the seed, "
        "every input legal and every outcome matches"
    )
    assert report.rolls_checked > 10
    assert report.events_checked == len(await game_store.read_stream(f"game-{game_id}"))
    assert check(report, DEAL).startswith("the seat order of event 7 and the roles and characters of event 8")
    assert "as the rules give" in check(report, RESULT)


async def test_a_table_game_audits_clean_with_no_seed_to_check(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await table_game_to_the_end(game_service, rng_seed=5)
    report = await audit_game(game_store, game_id)
    assert report.clean, report.checks
    assert check(report, COMMITMENT) == "no seed to check: the dice of a table game are entered by hand"
    assert report.verdict == (
        "clean: chain intact, no seed to check (a table game), every input legal and every outcome matches"
    )
    assert report.rolls_checked == 0


# --- (b) to (e): tampering ------------------------------------------------------------------------------


async def test_an_edited_life_loss_is_named_by_the_chain_and_by_the_rules(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await table_game(game_service, OPENING)
    n = await version_of(game_store, game_id, "LifeLost")
    await tamper(
        game_store.pool,
        game_id,
        f"""UPDATE events SET data = replace(data::text, '"amount":1', '"amount":2')::json
             WHERE stream_name = {{stream}} AND version = {n}""",
    )
    report = await audit_game(game_store, game_id)
    assert report.verdict == f"not clean: event {n} was edited after it was stored (1 more check failed)"
    assert check(report, REPLAY) == f"FAILED event {n}: p2 lost 2 life to a shoot1; the rules allow 1"


async def test_a_roll_with_changed_faces_is_named_by_the_seed(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await online_game(game_service, 4, rng_seed=8)
    n = await version_of(game_store, game_id, "DiceRolled", nth=2)
    stored = (await game_store.read_stream(f"game-{game_id}", from_version=n, limit=1))[0].data
    shown = ["beer" if face != "beer" else "arrow" for face in stored["faces"]]
    faces = ", ".join(f'"{face}"' for face in shown)
    await tamper(
        game_store.pool,
        game_id,
        f"""UPDATE events SET data = jsonb_set(data::jsonb, '{{{{faces}}}}', '[{faces}]')::json
             WHERE stream_name = {{stream}} AND version = {n}""",
    )
    report = await audit_game(game_store, game_id)
    assert check(report, CHAIN) == f"FAILED event {n} was edited after it was stored"
    assert check(report, ROLLS) == (
        f"FAILED event {n}: {stored['player']}'s roll shows {' '.join(shown)}, "
        f"but the seed gives {' '.join(stored['faces'])}"
    )


async def test_a_deleted_event_is_named(game_service: GameService, game_store: PostgresEventStore) -> None:
    game_id = await online_game(game_service, 4, rng_seed=2)
    await tamper(game_store.pool, game_id, "DELETE FROM events WHERE stream_name = {stream} AND version = 12")
    report = await audit_game(game_store, game_id)
    assert not report.clean
    assert report.first_divergence == "event 12 is missing"
    assert report.verdict.startswith("not clean: event 12 is missing")


async def test_an_illegal_stored_input_gets_the_engines_reason(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await table_game(game_service, OPENING)
    n = await version_of(game_store, game_id, "TargetChosen")
    await tamper(
        game_store.pool,
        game_id,
        f"""UPDATE events SET data = replace(data::text, '"target":"p2"', '"target":"p3"')::json
             WHERE stream_name = {{stream}} AND version = {n}""",
    )
    report = await audit_game(game_store, game_id)
    assert check(report, REPLAY) == (
        f"FAILED event {n}: p1 aimed die 1 at p3, but p3 is at distance 2; a shoot1 reaches distance 1"
    )


# --- (g): hidden roles ----------------------------------------------------------------------------------


async def test_the_audit_of_an_ongoing_game_reveals_no_hidden_role(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await online_game(game_service, 6, rng_seed=4, decisions=12)
    session = await game_service.load(game_id)
    assert session.status is GameStatus.ONGOING
    assert session.game is not None and all(p.alive for p in session.game.state.players)
    report = await audit_game(game_store, game_id)
    assert report.clean, report.checks
    assert report.verdict.endswith("every outcome matches so far")
    assert not HIDDEN_ROLE.search(report.to_json().decode())
    assert "sheriff" not in report.to_json().decode().lower()
