"""Hidden roles by non-interference: what a viewer sees cannot depend on what is hidden from them.

Two servers (``twins.py``), each on its own database, hold the same game: same id, members,
names, seats, characters, dice and decisions, except that two hidden roles (the Deputy's and an
Outlaw's) are swapped. For every viewer other than the swapped players themselves, every
channel must give the same bytes in both until the rules reveal one of those roles: REST state,
events, time travel, record and audit; the GraphQL queries (ours and the dashboard's); the live
subscriptions; the CLI's `export`, `audit` and `export-league`; the server's JSON log lines and
its /metrics. Then one more input eliminates a swapped player, and the channels must differ:
the comparison can fail. A role word search cannot see a Deputy called "Eve (Law)"; this
comparison does (``test_the_comparison_sees_a_role_leaked_through_a_name_or_the_redaction``).

Online games: a seed fixes the deal and every die, so no two seeds give the same dice with two
roles swapped (that would be a collision of HMAC-SHA256). Both twins therefore keep the same
seed (stored before the game is created, as ``SeedVault.keep`` keeps the first seed of a game
id): the same commitment, the same faces in the same order. Twin B's deal is the real deal of
that seed with two roles swapped (the service's ``deal-1`` wrapped for its create only).
That is the game a seed dealing that way would give: nothing before the seed is revealed can
check the deal against the seed (the audit says "not yet" until the end), and the commitment
needs no normalising because it is the same. Player tokens differ between the twins (random);
they travel only in request headers and in the organiser's create answer, which is not compared
(only its redacted ``state`` is).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from event_store import PostgresEventStore
from infra.postgres import ResolvedPostgres
from services.api import ApiSettings
from services.clubs import roles as clubs
from services.game.application import service as game_service
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Member, NewGame
from services.game.application.session import GameSession
from services.game.edge import visibility
from services.game.edge.tokens import Principal, TokenKind
from services.game.fairness.deal import deal
from services.game.fairness.dice import SeededDice
from services.game.fairness.registry import deal_derivation
from services.game.rules.dice import CharacterId, GameCommand, PlayerId, Role, Seat
from services.game.rules.dice.commands import PassWindow
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.vocabulary import SpecialRole
from services.game.rules.ruleset import ruleset_of
from services.league.reservations import Reservation, reserve
from services.league.service import LeagueService
from tests.integration.api.bots import bearer
from tests.integration.league.league_setup import LEAGUE, SEASON, TOURNAMENT, found_league

from .conftest import check_body, secrets_for
from .twins import (
    Script,
    Twin,
    dice_for,
    differences,
    hidden_pair,
    json_logs,
    metric_delta,
    swap_roles,
    timeless,
    twin_servers,
    write_script,
)

SCOREKEEPER = "club-organiser"
PEOPLE = (("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan"), ("eve", "Eve"))
TABLE_ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
TABLE_CHARACTERS = ("paul_regret", "willy_the_kid", "black_jack", "lucky_duke", "jesse_jones")
TABLE_SEATS = tuple(
    Seat(player=PlayerId(f"p{i + 1}"), role=role, character=CharacterId(character))
    for i, (role, character) in enumerate(zip(TABLE_ROLES, TABLE_CHARACTERS, strict=True))
)
ONLINE_SEED = hashlib.sha256(b"online-0").digest()
"""A seed whose deal and dice, played by the bots below, keep the swapped roles hidden for 38
decisions (and some 90 events)."""


@pytest.fixture
async def twins(resolved_postgres: ResolvedPostgres, redis_url: str, api_settings: ApiSettings) -> Any:
    """Two servers configured as the API tests' are (tests/integration/api/conftest.py)."""
    async with twin_servers(resolved_postgres, redis_url, api_settings) as pair:
        yield pair


@dataclass
class Seen:
    """Everything one twin showed its other viewers."""

    now: dict[str, str]
    heard: dict[str, str]
    travel: dict[str, str]
    logs: list[str]
    metrics: dict[str, float]
    cli: dict[str, str]
    version: int

    def channels(self) -> dict[str, str]:
        return {
            **{f"now {k}": v for k, v in self.now.items()},
            **{f"subscription {k}": v for k, v in self.heard.items()},
            **{f"travel {k}": v for k, v in self.travel.items()},
            "log lines": "\n".join(self.logs),
            "metrics (change)": json.dumps(self.metrics, indent=0, sort_keys=True),
            **{f"cli {k}": v for k, v in self.cli.items()},
        }


Create = Callable[[Twin], Awaitable[int]]
Play = Callable[[Twin, int, GameCommand], Awaitable[tuple[int, str | None]]]
"""Plays move n; answers the new version and the answer's body when the one who sent it is an
other viewer (a bystander's own move online), else None."""


async def _serve_the_prefix(twin: Twin, game_id: str, create: Create, play: Play, moves: Any) -> Seen:
    """Create the game, watch it live as every viewer, play ``moves`` looking at the state
    after each one (the viewers taking turns) and through every channel as every viewer a
    third of the way, two thirds of the way and at the end; then time travel to every
    version. Logs and metrics are those of this block alone (the other twin is idle)."""
    before = await twin.metrics()
    with json_logs() as logs:
        version = await create(twin)
        await twin.subscribe(game_id)
        now = {f"v{version} {k}": v for k, v in (await twin.look(game_id)).items()}
        for n, move in enumerate(moves, start=1):
            version, answer = await play(twin, n - 1, move)
            if answer is not None:
                now[f"v{version} the answer to move {n - 1}"] = timeless(answer)
            full = n in (len(moves) // 3, 2 * len(moves) // 3, len(moves))
            look = await twin.look(game_id, only=None if full else n)
            now |= {f"v{version} {k}": v for k, v in look.items()}
        now["the organiser's create answer (state)"] = twin.created
        now["the bystander's refused moves"] = timeless("\n".join(twin.refusals))
        heard = await twin.heard(version)
        travel = await twin.travel(game_id, range(1, version + 1))
    metrics = metric_delta(before, await twin.metrics())
    cli = {"export": await twin.cli("export", game_id), "audit": await twin.cli("audit", game_id, "--json")}
    return Seen(now, heard, travel, logs, metrics, cli, version)


async def _reveal(twin: Twin, game_id: str, play: Play, n: int, move: GameCommand) -> dict[str, str]:
    version, _ = await play(twin, n, move)
    now = await twin.look(game_id)
    heard = await twin.heard(version)
    return {**now, **{f"subscription {k}": v for k, v in heard.items()}}


def _assert_same(a: dict[str, str], b: dict[str, str], what: str) -> None:
    assert a.keys() == b.keys()
    found = differences(a, b)
    assert not found, (
        f"{what}: {len(found)} channel(s) differ while the swapped roles are hidden:\n" + "\n".join(found[:5])
    )


async def _prove(
    twins: tuple[Twin, Twin],
    game_id: str,
    script: Script,
    create: Create,
    play: Play,
    *,
    revealed_live: bool = True,
) -> None:
    """``revealed_live``: the reveal shows in the live subscription too (a role does; an OS3
    card differs only in the game's state, the eliminated player's role being the same)."""
    a, b = twins
    seen_a = await _serve_the_prefix(a, game_id, create, play, script.prefix)
    seen_b = await _serve_the_prefix(b, game_id, create, play, script.prefix)
    assert seen_a.version == seen_b.version >= 60, "pick another script: too few events before the reveal"
    assert len(seen_a.logs) > 2 * len(script.prefix), "the API's log lines were not captured"
    assert seen_a.metrics, "the API's metrics did not move: the wrong registry is read"
    assert seen_a.heard and all(seen_a.heard.values())
    _assert_same(seen_a.channels(), seen_b.channels(), "every channel")

    # the next input eliminates a swapped player (or ends the game): now the twins differ
    n = len(script.prefix)
    after_a = await _reveal(a, game_id, play, n, script.reveal)
    after_b = await _reveal(b, game_id, play, n, script.reveal)
    changed = differences(after_a, after_b)
    for viewer in a.viewers:
        assert any(c.startswith(f"{viewer} GET /games/{game_id}: ") for c in changed), changed
        if revealed_live:  # a role revealed by an event: the game log names it (it can differ)
            assert any(c.startswith(f"{viewer} game log: ") for c in changed), changed
        if revealed_live:
            assert any(c.startswith(f"subscription {viewer} WatchGame: ") for c in changed), changed


# --- table games --------------------------------------------------------------------------------


def _table_seats_json(seats: tuple[Seat, ...], names: dict[str, str] | None = None) -> list[dict[str, str]]:
    return [
        {
            "member_id": member,
            "name": (names or {}).get(member, name),
            "role": seat.role.value,
            "character": seat.character.value,
        }
        | ({} if seat.special is None else {"special": seat.special.value})
        for (member, name), seat in zip(PEOPLE, seats, strict=True)
    ]


async def _table_viewers(twin: Twin) -> str:
    """The scorekeeper's token; the other viewers: anonymous, a rival organiser, a player of
    another game (a table game's scorekeeper sees every role, so is not one of them)."""
    tokens = twin.resources.gateway.tokens
    twin.viewers = {
        "anonymous": None,
        "rival organiser": await tokens.issue_organiser("rival-club"),
        "player elsewhere": await tokens.issue_player("another-game", "zed"),
    }
    return await _organiser(twin, SCOREKEEPER)


async def _organiser(twin: Twin, name: str) -> str:
    """An organiser token of the same subject on both twins: a game records its creator
    (``created_by``), and ``issue_organiser`` draws a fresh opaque subject each time."""
    principal = Principal(kind=TokenKind.ORGANISER, subject=f"organiser:{name}")
    return await twin.resources.gateway.tokens.issue(principal, label=name)


def _table_game(
    game_id: str, seats_of: dict[str, tuple[Seat, ...]], modules: tuple[str, ...] = ()
) -> tuple[Create, Play]:
    scorekeepers: dict[str, str] = {}

    async def create(twin: Twin) -> int:
        scorekeepers[twin.label] = await _table_viewers(twin)
        body = {
            "command_id": f"create-{game_id}",
            "mode": "table",
            "player_count": 5,
            "game_id": game_id,
            "seats": _table_seats_json(seats_of[twin.label]),
        } | ({"ruleset": {"modules": list(modules)}} if modules else {})
        response = await twin.client.post("/games", json=body, headers=bearer(scorekeepers[twin.label]))
        assert response.status_code == 201, response.text
        version: int = response.json()["version"]
        return version

    async def play(twin: Twin, n: int, move: GameCommand) -> tuple[int, str | None]:
        response = await twin.client.post(
            f"/games/{game_id}/commands",
            json={"command": str(move), "command_id": f"move-{n}"},
            headers=bearer(scorekeepers[twin.label]),
        )
        assert response.status_code == 200, response.text
        return response.json()["version"], None  # the scorekeeper sees every role

    return create, play


async def test_a_table_game_shows_nothing_of_two_swapped_roles_until_one_is_revealed(
    twins: tuple[Twin, Twin],
) -> None:
    swapped = hidden_pair(TABLE_SEATS)
    script = write_script(TABLE_SEATS, swapped, bot_seed=28, dice=dice_for("table-28"), server_rolls=False)
    create, play = _table_game("twin-table", {"A": script.seats, "B": script.swapped_seats()})
    await _prove(twins, "twin-table", script, create, play)


# --- online games -------------------------------------------------------------------------------


def _online_script() -> tuple[list[str], Script]:
    members = [m for m, _ in PEOPLE]
    seated, seats = deal(ONLINE_SEED, members)
    script = write_script(
        seats, hidden_pair(seats), bot_seed=0, dice=SeededDice(ONLINE_SEED), server_rolls=True
    )
    return seated, script


def _online_game(
    game_id: str,
    seated: list[str],
    script: Script,
    monkeypatch: pytest.MonkeyPatch,
    league: GameContext | None = None,
) -> tuple[Create, Play]:
    """Create (both twins: the same seed; twin B: two roles swapped in the deal) and play (the
    awaited player with their own token); the other viewers are anonymous, the organiser who
    created the game and a player who is neither of the swapped two. With ``league``: the
    league's scheduled game of that table, created by the league's organiser (the same account
    on both twins) as the league's scheduling does, through the game gateway."""
    players: dict[str, dict[str, str]] = {}
    member_of = {f"p{i + 1}": m for i, m in enumerate(seated)}
    bystander = next(m for seat, m in member_of.items() if seat not in script.swapped)

    def swapped_deal(seed: bytes, members: list[str], sheriff: str | None = None, *_: object) -> Any:
        order, seats = deal(seed, members, sheriff)
        return order, list(swap_roles(seats, *script.swapped))

    async def create(twin: Twin) -> int:
        organiser = await _organiser(twin, SCOREKEEPER)
        await twin.resources.gateway.service.seeds.keep(game_id, ONLINE_SEED)
        body = {
            "command_id": f"create-{game_id}",
            "mode": "online",
            "player_count": 5,
            "game_id": game_id,
            "members": [{"member_id": m, "name": name} for m, name in PEOPLE],
        }
        with monkeypatch.context() as patch:
            if twin.label == "B":
                swapped = dataclasses.replace(deal_derivation("deal-1"), deal=swapped_deal)
                patch.setattr(game_service, "deal_derivation", lambda version: swapped)
            if league is None:
                response = await twin.client.post("/games", json=body, headers=bearer(organiser))
                assert response.status_code == 201, response.text
                created = response.json()
            else:
                created = await _scheduled(twin, game_id, league)
        # the API hands out no player tokens (issue 11): issued as the server's operator would
        vault = twin.resources.gateway.tokens
        players[twin.label] = {m: await vault.issue_player(game_id, m) for m, _ in PEOPLE}
        twin.viewers = {
            "anonymous": None,
            "organiser": organiser,
            f"player {bystander}": players[twin.label][bystander],
        }
        session = await twin.resources.gateway.service.load(game_id)
        expected = script.seats if twin.label == "A" else script.swapped_seats()
        assert session.game is not None and tuple(session.game.events[0].seats) == expected  # type: ignore[attr-defined]
        # what the organiser is answered (bar the fresh tokens) is one more channel
        twin.created = json.dumps(created["state"], sort_keys=True)
        version: int = created["version"]
        return version

    async def play(twin: Twin, n: int, move: GameCommand) -> tuple[int, str | None]:
        member = member_of[move.player]
        token = players[twin.label][member]
        if member == bystander and n % 4 == 0:
            # the bystander's refused moves: acting for a swapped seat, and out of turn
            for refused in (f"{script.swapped[0]} stop", f"{script.swapped[1]} decline"):
                answer = await twin.client.post(
                    f"/games/{game_id}/commands",
                    json={"command": refused, "command_id": f"refused-{n}-{refused}"},
                    headers=bearer(token),
                )
                assert answer.status_code in (400, 403, 409, 422), answer.text
                twin.refusals.append(f"{answer.status_code} {answer.text}")
        response = await twin.client.post(
            f"/games/{game_id}/commands",
            json={"command": str(move), "command_id": f"move-{n}"},
            headers=bearer(token),
        )
        assert response.status_code == 200, response.text
        return response.json()["version"], response.text if member == bystander else None

    return create, play


async def _scheduled(twin: Twin, game_id: str, table: GameContext) -> dict[str, Any]:
    """The league's organiser schedules ``table`` (its reservation) and creates its online game,
    checked against the schedule like any creation; the answer as the API gives it."""
    club, organiser_id = "club", "0" * 32
    assert table.league_id and table.season_id and table.tournament_id and table.round and table.table
    await reserve(
        twin.resources.pool,
        Reservation(
            game_id=game_id, league_id=table.league_id, club_id=club, season_id=table.season_id,
            tournament_id=table.tournament_id, round=table.round, table=table.table, mode="online",
            members=tuple(m for m, _ in PEOPLE), sheriff=None, scorekeeper=None, scheduled_by=organiser_id,
        ),
    )  # fmt: skip
    organises = (clubs.Grant(role=clubs.Role.ORGANISER),)
    account = clubs.Principal(account_id=organiser_id, display_name="Olga", roles={club: organises})
    spec = NewGame(
        mode=GameMode.ONLINE,
        player_count=5,
        members=tuple(Member(member_id=m, name=name) for m, name in PEOPLE),
        context=table,
        game_id=game_id,
    )
    gateway = twin.resources.gateway
    created = await gateway.create_game(Principal.of_account(account), spec, f"create-{game_id}")
    return msgspec.to_builtins(created)  # type: ignore[no-any-return]


SPECIAL_SEATS = tuple(
    msgspec.structs.replace(seat, special=card)
    for seat, card in zip(
        TABLE_SEATS,
        (
            SpecialRole.L_OURS,
            SpecialRole.MAIN_GAUCHE,
            SpecialRole.LE_JOUEUR,
            SpecialRole.LE_VILAIN,
            SpecialRole.LE_DOC,
        ),
        strict=True,
    )
)
"""TABLE_SEATS with OS3's cards: the two Outlaws' cards (Le Joueur, Le Vilain) are the hidden
difference below; their base role is the same, so only the card is hidden."""


async def test_an_os3_table_game_shows_nothing_of_two_swapped_special_roles_until_one_is_revealed(
    twins: tuple[Twin, Twin],
) -> None:
    # the role windows are asked to the table whoever holds what, every other player's powers
    # are used as the bots like, and no channel may tell the two Outlaws' cards apart
    outlaws = tuple(s.player for s in SPECIAL_SEATS if s.role is Role.OUTLAW)
    assert len(outlaws) == 2
    swapped = (outlaws[0], outlaws[1])
    rules = rules_of(ruleset_of(["OS3"]))
    script = write_script(
        SPECIAL_SEATS, swapped, bot_seed=31, dice=dice_for("os3-31"), server_rolls=False, rules=rules
    )
    assert any(isinstance(m, PassWindow) for m in script.prefix), "no role window before the reveal"
    create, play = _table_game("twin-os3", {"A": script.seats, "B": script.swapped_seats()}, modules=("OS3",))
    await _prove(twins, "twin-os3", script, create, play, revealed_live=False)


async def test_an_online_game_shows_nothing_of_two_swapped_roles_until_one_is_revealed(
    twins: tuple[Twin, Twin], monkeypatch: pytest.MonkeyPatch
) -> None:
    seated, script = _online_script()
    create, play = _online_game("twin-online", seated, script, monkeypatch)
    await _prove(twins, "twin-online", script, create, play)
    assert all(twin.created and twin.refusals for twin in twins)


async def test_a_league_export_shows_nothing_of_two_swapped_roles(
    twins: tuple[Twin, Twin], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`bang-league export-league` without seeds, on a league with an online game under way."""
    seated, script = _online_script()
    table = GameContext(league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, round=1, table=1)
    create, play = _online_game("twin-league", seated, script, monkeypatch, league=table)
    files = {}
    for twin in twins:
        await found_league(LeagueService(PostgresEventStore(twin.resources.pool)))
        await create(twin)
        for n, move in enumerate(script.prefix[:12]):
            await play(twin, n, move)
        out = tmp_path / twin.label / "league.jsonl"
        out.parent.mkdir()
        answer = await twin.cli("export-league", LEAGUE, str(out))
        assert answer.startswith("exit 0"), answer
        files[twin.label] = out.read_text(encoding="utf-8")
        assert '"stream":"league-' in files[twin.label], "the league itself is exported"
    _assert_same({"export-league": files["A"]}, {"export-league": files["B"]}, "export-league")


# --- the comparison can fail --------------------------------------------------------------------


async def test_the_comparison_sees_a_role_leaked_through_a_name_or_the_redaction(
    twins: tuple[Twin, Twin], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Deputy named "Eve (Law)" passes the role-word search of ``check_body``; the twins
    (whose tagged names follow the swapped roles) differ. So do twins served by a redaction
    that shows the Deputy's role to everybody."""
    seats = {"A": TABLE_SEATS, "B": swap_roles(TABLE_SEATS, *hidden_pair(TABLE_SEATS))}
    tags = {Role.DEPUTY: "Law", Role.OUTLAW: "Gang", Role.SHERIFF: "Law", Role.RENEGADE: "Lone"}
    looks: dict[str, dict[str, str]] = {}
    for twin in twins:
        names = {
            m: f"{name} ({tags[s.role]})" for (m, name), s in zip(PEOPLE, seats[twin.label], strict=True)
        }
        token = await _table_viewers(twin)
        body = {
            "command_id": "tagged",
            "mode": "table",
            "player_count": 5,
            "game_id": "tagged",
            "seats": _table_seats_json(seats[twin.label], names),
        }
        assert (await twin.client.post("/games", json=body, headers=bearer(token))).status_code == 201
        looks[twin.label] = await twin.look("tagged")
        session: GameSession = await twin.resources.gateway.service.load("tagged")
        check_body(
            looks[twin.label]["anonymous GET /games/tagged"].partition(" ")[2],
            secrets_for(session, None, None),
            "anonymous",
        )
    assert any(d.startswith("anonymous GET /games/tagged: ") for d in differences(looks["A"], looks["B"]))

    real = visibility.role_visible

    def leaky(session: GameSession, viewer: visibility.Viewer, seat: PlayerId) -> bool:
        game = session.game
        return real(session, viewer, seat) or (
            game is not None and game.state.by_id[seat].role is Role.DEPUTY
        )

    monkeypatch.setattr(visibility, "role_visible", leaky)
    create, _ = _table_game("leaky", seats)
    for twin in twins:
        await create(twin)
        looks[twin.label] = await twin.look("leaky")
    leaked = differences(looks["A"], looks["B"])
    assert any(d.startswith("rival organiser graphql GameEvents: ") for d in leaked), leaked
