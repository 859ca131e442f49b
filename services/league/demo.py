"""A demo club and its league, played by bots, so a fresh `bang-league serve --demo` has
something to show and somebody to sign in as.

The club is a real one (`services/clubs`): an organiser account whose login name is
`DEMO_LOGIN` and whose password is given at start (`serve --demo` makes a new one at every start
and prints it; a seeding without one makes one), founding the club (its admin and organiser),
and the members registered by name (accounts nobody logs in as until they claim them: their
member id is the account id, their name the display name). The league, season and tournament
are founded for that club, and rounds are played by bots through the league and game services
(`services/league/bot_league.py`). A small card league (`DEMO_CARD_LEAGUE`, the same members)
has one round played by the card bots, so a fresh demo shows card games too.

So that a new user can do everything from the browser alone, the first members registered by
name are claimed as the demo players (`DEMO_PLAYER_LOGINS`, the organiser's password), an online
game waits with the organiser and them seated (`DEMO_ONLINE_GAME`: sign in as each in a private
window to play every seat), and a table game (`DEMO_TABLE_GAME`) has the organiser as its
scorekeeper.

Everything is keyed by fixed names and command ids (`demo/…`): seeding twice changes nothing,
and a seeding that died half-way finishes what is missing. Only the passwords are set anew each
time (a demo's password is printed, never kept).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

import redis.asyncio as aioredis

from infra.postgres import database_name
from services.accounts.errors import InviteNotFound, InviteUsed, LoginNameTaken
from services.accounts.names import login_key
from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings
from services.clubs.roles import Principal, Role
from services.clubs.service import ClubService, InviteLink
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame, TableSeat
from services.game.edge.fanout import GameFanout, fanout_channel
from services.game.edge.gateway import GameGateway
from services.game.edge.tokens import TokenVault
from services.game.fairness.vault import SeedVault
from services.league.bot_league import play_bot_round, seat_next_round
from services.league.commands import (
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RegisterPlayer,
)
from services.league.organise import LeagueOrganiser
from services.league.schedule_guard import ScheduleGuard
from services.league.service import LeagueService
from services.league.standings import StandingsProjection
from services.league.vocabulary import PUBLIC, SeatingPolicy
from services.runtime.context import RuntimeContext
from services.runtime.serve import DEMO_PASSWORD_ENV

DEMO_LOGIN = "organiser"
DEMO_ORGANISER_NAME = "Olive Organiser"
DEMO_CLUB_NAME = "Demo Saloon"
DEMO_LEAGUE = "demo"
DEMO_SEASON = "season_1"
DEMO_TOURNAMENT = "opening_cup"
DEMO_CARD_LEAGUE = "demo_cards"
DEMO_CARD_TOURNAMENT = "card_night"
DEMO_CARD_PLAYERS = 8
"""The card league's entrants (the first members): two tables of four, one bot round."""
DEMO_PLAYER_LOGINS = ("ada", "bart", "calamity", "doc")
"""The first members, claimed with these logins and the organiser's password."""
DEMO_ONLINE_GAME = "demo-saloon-night"
DEMO_TABLE_GAME = "demo-table-1"
DEMO_LEAGUE_TABLE_GAME = "demo-open-round-table-1"
"""The open round's first table, scheduled at a table with the organiser keeping score and not
started: the organiser starts it from its schedule page (the seats dealt at the table, or by the
server), as a club's evening begins."""
# the table game's seats, as a scorekeeper enters them (members 5 to 9 of the club)
_TABLE_CARDS = (
    ("sheriff", "paul_regret"),
    ("renegade", "willy_the_kid"),
    ("outlaw", "black_jack"),
    ("outlaw", "lucky_duke"),
    ("deputy", "jesse_jones"),
)
PASSWORD_ENV = DEMO_PASSWORD_ENV
_NAMES = (
    "Ada",
    "Bart",
    "Calamity",
    "Doc",
    "El Gringo",
    "Jesse",
    "Kit",
    "Lucky",
    "Rose",
    "Sid",
    "Slab",
    "Suzy",
)

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class DemoReport:
    seeded: bool
    rounds: int
    games: int
    """The dice league's games played by bots."""
    login: str = DEMO_LOGIN
    password: str = ""
    club_id: str = ""
    members: tuple[tuple[str, str], ...] = ()
    """(member id, display name) of every member registered by name."""
    player_logins: tuple[str, ...] = ()
    """The demo players who sign in with the organiser's password."""
    card_games: int = 0
    """The card league's games played by bots (its one round)."""


def new_password() -> str:
    return secrets.token_urlsafe(12)


def member_names(players: int) -> list[str]:
    """Display names, unique within the club: the second Ada is "Ada 2"."""
    names = []
    for n in range(players):
        name = _NAMES[n % len(_NAMES)]
        names.append(name if n < len(_NAMES) else f"{name} {n // len(_NAMES) + 1}")
    return names


async def demo_exists(context: RuntimeContext) -> bool:
    return (await LeagueService(context.store).load_league(DEMO_LEAGUE)).exists


async def _set_password(context: RuntimeContext, accounts: AccountService, login: str, password: str) -> None:
    # an operator's reset of a demo account, not a user's change (no old password to ask for);
    # its sessions stay, as the demo is a local server
    hashed = await accounts.passwords.hash(password)
    await context.pool.execute(
        "UPDATE accounts SET password_hash = $2 WHERE login_key = $1", login_key(login), hashed
    )


async def ensure_organiser(context: RuntimeContext, accounts: AccountService, password: str) -> None:
    """The organiser's account with this password: made on first use, its password set anew
    after (the operator was shown only the new one)."""
    try:
        invite = await accounts.issue_invite(DEMO_ORGANISER_NAME, login=DEMO_LOGIN, issued_by="demo")
        await accounts.accept_invite(invite.token, login=None, display_name=None, password=password)
    except LoginNameTaken:
        await _set_password(context, accounts, DEMO_LOGIN, password)


async def _club(clubs: ClubService, principal: Principal) -> str:
    """The organiser's demo club, founded on first use; they are its admin and organiser."""
    mine = [c for c in await clubs.my_clubs(principal) if c.name == DEMO_CLUB_NAME]
    club_id = mine[0].club_id if mine else (await clubs.found(principal, DEMO_CLUB_NAME)).club_id
    return club_id


async def seed_demo(
    context: RuntimeContext,
    *,
    players: int = 10,
    rounds: int = 3,
    progress: Progress | None = None,
    password: str | None = None,
    accounts: AccountSettings | None = None,
) -> DemoReport:
    say = progress or (lambda _message: None)
    password = password or new_password()
    account_service = AccountService(context.pool, accounts or AccountSettings.from_env())
    clubs = ClubService(context.pool, account_service)
    await ensure_organiser(context, account_service, password)
    opened = await account_service.login(DEMO_LOGIN, password, address="demo")
    bearer = f"Bearer {opened.token}"
    try:
        principal = await clubs.principal(bearer)
        club_id = await _club(clubs, principal)
        principal = await clubs.principal(bearer)  # now holding the club's admin role
        await clubs.grant(principal, club_id, principal.account_id, Role.ORGANISER, None)
        members: list[tuple[str, str]] = []
        logins: list[str] = []
        for n, name in enumerate(member_names(players)):
            command_id = f"demo/member/{n + 1}"
            registered, _ = await clubs.register_member(principal, club_id, name, None, command_id)
            members.append((registered.member_id, registered.display_name))
            if n < len(DEMO_PLAYER_LOGINS):
                login = DEMO_PLAYER_LOGINS[n]
                await _claim(context, account_service, registered.invite, login, password)
                logins.append(login)
        say(f"club {DEMO_CLUB_NAME!r}: {len(members)} members registered by name, {len(logins)} claimed")
        played = await _league(context, club_id, principal.account_id, members, rounds, say)
        await _open_round(context, clubs, principal, rounds + 1, say)
        card_games = await _card_league(context, principal.account_id, members, say)
        await _games(context, clubs, principal, club_id, members, len(logins))
        say(f"games {DEMO_ONLINE_GAME!r} (online) and {DEMO_TABLE_GAME!r} (table) are waiting")
    finally:
        await account_service.logout(await account_service.authenticate(bearer))
    return DemoReport(
        True, rounds, played, DEMO_LOGIN, password, club_id, tuple(members), tuple(logins), card_games
    )


async def _claim(
    context: RuntimeContext, accounts: AccountService, invite: InviteLink | None, login: str, password: str
) -> None:
    """A member registered by name claimed as a demo player; on a later seeding (the invite
    used, or none given any more) only the password is set anew."""
    if invite is not None:
        try:
            await accounts.accept_invite(invite.token, login=login, display_name=None, password=password)
            return
        except (InviteUsed, InviteNotFound, LoginNameTaken):
            pass  # claimed by an earlier seeding
    await _set_password(context, accounts, login, password)


async def _games(
    context: RuntimeContext,
    clubs: ClubService,
    principal: Principal,
    club_id: str,
    members: list[tuple[str, str]],
    claimed: int,
) -> None:
    """The online game the organiser and the demo players sit at, and the table game the
    organiser keeps score of (its scorekeeper, so the browser offers "Keep score")."""
    games = GameService(context.store, SeedVault(context.pool))
    organiser = Actor(kind=ActorKind.ORGANISER, id=principal.account_id)
    seated = [Member(member_id=principal.account_id, name=principal.display_name)]
    seated += [Member(member_id=m, name=n) for m, n in members[:claimed]]
    if len(seated) >= 4:
        online = NewGame(
            mode=GameMode.ONLINE, player_count=len(seated), members=tuple(seated), game_id=DEMO_ONLINE_GAME
        )
        await games.create_game(online, command_id="demo/online-game", actor=organiser)
    at_table = members[claimed : claimed + len(_TABLE_CARDS)]
    if len(at_table) == len(_TABLE_CARDS):
        seats = tuple(
            TableSeat(member_id=m, name=n, role=role, character=character)
            for (m, n), (role, character) in zip(at_table, _TABLE_CARDS, strict=True)
        )
        table = NewGame(mode=GameMode.TABLE, player_count=len(seats), seats=seats, game_id=DEMO_TABLE_GAME)
        await games.create_game(table, command_id="demo/table-game", actor=organiser)
        await clubs.grant(principal, club_id, principal.account_id, Role.SCOREKEEPER, DEMO_TABLE_GAME)


async def _league(
    context: RuntimeContext,
    club_id: str,
    organiser: str,
    members: list[tuple[str, str]],
    rounds: int,
    say: Progress,
) -> int:
    league = LeagueService(context.store)
    games = GameService(context.store, SeedVault(context.pool))

    async def run(command: object, key: str) -> None:
        await league.execute(command, command_id=f"demo/{key}", actor=organiser)  # type: ignore[arg-type]

    await run(FoundClub(club_id=club_id, name=DEMO_CLUB_NAME), "club")
    for member_id, name in members:
        await run(RegisterPlayer(club_id=club_id, member_id=member_id, name=name), f"register/{member_id}")
    # public, as a demo is for showing: its pages read without signing in
    await run(
        FoundLeague(league_id=DEMO_LEAGUE, club_id=club_id, name="Demo League", visibility=PUBLIC), "league"
    )
    await run(OpenSeason(league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, name="Season 1"), "season")
    for member_id, _ in members:
        await run(
            EnrollPlayer(league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, member_id=member_id),
            f"enrol/{member_id}",
        )
    await run(
        OpenTournament(
            league_id=DEMO_LEAGUE, season_id=DEMO_SEASON, tournament_id=DEMO_TOURNAMENT, name="Opening Cup"
        ),
        "tournament",
    )
    say(f"league {DEMO_LEAGUE!r}: {len(members)} members enrolled")
    projection = StandingsProjection(context.store)
    played = 0
    try:
        for number in range(1, rounds + 1):
            report = await play_bot_round(
                league, games, DEMO_LEAGUE, DEMO_TOURNAMENT, number, seed="demo", projection=projection
            )
            played += len(report.games)
            say(f"round {number}: {len(report.games)} games played")
    finally:
        await projection.close()
    return played


async def _open_round(
    context: RuntimeContext, clubs: ClubService, principal: Principal, number: int, say: Progress
) -> None:
    """The round after the bots' seated (Swiss on their standings) and its first table scheduled
    at a table, the organiser its scorekeeper: a new organiser's evening starts there, from the
    league's page ("Keep score" opens the table's schedule page, "Start this game")."""
    league = LeagueService(context.store)
    projection = StandingsProjection(context.store)
    try:
        await projection.run_until_idle()  # the Swiss pairing reads the standings
    finally:
        await projection.close()
    await seat_next_round(league, DEMO_LEAGUE, DEMO_TOURNAMENT, number, seed="demo")
    organiser = LeagueOrganiser(league, clubs, demo_gateway(context), context.pool)
    await organiser.schedule(
        principal,
        DEMO_LEAGUE,
        DEMO_TOURNAMENT,
        number,
        1,
        mode=GameMode.TABLE,
        game_id=DEMO_LEAGUE_TABLE_GAME,
        scorekeeper=principal.account_id,
        command_id="demo/open-round/table-1",
    )
    say(f"round {number}: seated; table 1 ({DEMO_LEAGUE_TABLE_GAME!r}) waits to be started at its table")


def demo_gateway(context: RuntimeContext) -> GameGateway:
    """The API's game gateway on this process's store (its fan-out never started: nobody watches
    a seeding), so the demo's league games are made as the API makes them."""
    fanout = GameFanout(aioredis.from_url(context.redis_url), fanout_channel(database_name(context.dsn)))
    service = GameService(context.store, SeedVault(context.pool))
    schedule = ScheduleGuard(context.pool)
    return GameGateway(service, TokenVault(context.pool), fanout, context.store, schedule=schedule)


async def _card_league(
    context: RuntimeContext, organiser: str, members: list[tuple[str, str]], say: Progress
) -> int:
    """The card league (after the dice league has founded the club's league record): the first
    ``DEMO_CARD_PLAYERS`` members (all, with fewer; none below a card table's four), one
    round played by the card bots. Returns its games."""
    entrants = [m for m, _ in members[:DEMO_CARD_PLAYERS]]
    if len(entrants) < 4:
        return 0
    league = LeagueService(context.store)
    games = GameService(context.store, SeedVault(context.pool))
    club_id = (await league.load_league(DEMO_LEAGUE)).club_id

    async def run(command: object, key: str) -> None:
        await league.execute(command, command_id=f"demo/cards/{key}", actor=organiser)  # type: ignore[arg-type]

    seating = SeatingPolicy(allowed_sizes=(4, 5, 6), preferred_size=4)
    await run(
        FoundLeague(
            league_id=DEMO_CARD_LEAGUE,
            club_id=club_id,
            name="Demo Card League",
            game_type="cards",
            seating=seating,
            visibility=PUBLIC,
        ),
        "league",
    )
    await run(OpenSeason(league_id=DEMO_CARD_LEAGUE, season_id=DEMO_SEASON, name="Season 1"), "season")
    for member_id in entrants:
        await run(
            EnrollPlayer(league_id=DEMO_CARD_LEAGUE, season_id=DEMO_SEASON, member_id=member_id),
            f"enrol/{member_id}",
        )
    await run(
        OpenTournament(
            league_id=DEMO_CARD_LEAGUE,
            season_id=DEMO_SEASON,
            tournament_id=DEMO_CARD_TOURNAMENT,
            name="Card Night",
        ),
        "tournament",
    )
    projection = StandingsProjection(context.store)
    try:
        report = await play_bot_round(
            league, games, DEMO_CARD_LEAGUE, DEMO_CARD_TOURNAMENT, 1, seed="demo-cards", projection=projection
        )
    finally:
        await projection.close()
    say(f"card league {DEMO_CARD_LEAGUE!r}: {len(entrants)} enrolled, {len(report.games)} card games played")
    return len(report.games)


def demo_pages(base: str) -> list[tuple[str, str]]:
    """The dashboard's pages on the demo's league (docs/dashboard.md, "Pages")."""
    league = f"league={DEMO_LEAGUE}"
    return [
        ("Sign in", f"{base}/#/signin"),
        ("Play (signed in)", f"{base}/#/game/{DEMO_ONLINE_GAME}/play"),
        ("Keep score", f"{base}/#/game/{DEMO_TABLE_GAME}/table"),
        ("League (organise)", f"{base}/#/league/{DEMO_LEAGUE}"),
        ("Start tonight's table", f"{base}/#/game/{DEMO_LEAGUE_TABLE_GAME}/table"),
        ("Leaderboard", f"{base}/#/leaderboard"),
        ("Standings", f"{base}/#/standings?{league}&season={DEMO_SEASON}"),
        ("Tournament", f"{base}/#/tournament?{league}&tournament={DEMO_TOURNAMENT}"),
        (
            "Card tournament",
            f"{base}/#/tournament?league={DEMO_CARD_LEAGUE}&tournament={DEMO_CARD_TOURNAMENT}",
        ),
        ("Games", f"{base}/#/games"),
    ]
