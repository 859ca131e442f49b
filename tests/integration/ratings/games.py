"""Bot games for the ratings tests, played through the GameService like real ones.

Each game is played first by the simulation harness (heuristic bots of mixed care, seeded
dice), then entered through the service's table-game path as a scorekeeper would: the seats
with roles and characters, then every command, dice included. So the streams are exactly what
the server records, and producing them costs only the appends.

A table game is rated only as a club's league game its league scheduled, entered by the
scorekeeper the schedule names (docs/ratings.md, "What is rated: pools"): ``enter_games``
writes the league's facts first (``schedule``: every league founded by ``CLUB``, each game
scheduled with ``SCOREKEEPER``), so these games are rated in ``POOL``.
"""

from __future__ import annotations

from dataclasses import dataclass

from event_store import ANY, PostgresEventStore
from services.game.application.codec import GAME_MAPPER, game_id_of
from services.game.application.lifecycle import GameContext, GameCreated, GameMode, SeatsDealt, seat_id
from services.game.application.service import Actor, ActorKind, GameService, NewGame, TableSeat
from services.game.bots.heuristic import HeuristicBot
from services.game.results.decoder import dice_finish
from services.game.rules.dice import GameCommand, PlayerId
from services.game.rules.dice.events import GameEnded
from services.game.simulation import deal, game_seeds, play_game
from services.league.events import LEAGUE_MAPPER, GameScheduled, LeagueFounded
from services.league.vocabulary import PUBLIC, PointsScheme, SeatingPolicy
from services.ratings import GameOutcome, LeaguePlayerId, from_finish

SCOREKEEPER = Actor(kind=ActorKind.ORGANISER, id="scorekeeper")
CLUB = "club-a"
"""The club every test league belongs to."""
POOL = f"club:{CLUB}"
"""The pool the test leagues' games are rated in."""
MEMBERS = tuple(f"member-{i}" for i in range(1, 9))
CARE = {m: i / (len(MEMBERS) - 1) for i, m in enumerate(MEMBERS)}
"""Distinct strengths, so the ratings have something to find."""


@dataclass(frozen=True, slots=True)
class PlannedGame:
    game_id: str
    seats: tuple[TableSeat, ...]
    commands: tuple[GameCommand, ...]
    context: GameContext


def plan_games(count: int, seed: int, *, prefix: str = "g", league_id: str = "league-a") -> list[PlannedGame]:
    """``count`` finished bot games at tables of 3 to 8 drawn from ``MEMBERS``."""
    planned = []
    for index in range(count):
        rng, dice = game_seeds(seed, index)
        size = rng.randint(3, 8)
        members = rng.sample(MEMBERS, size)
        engine_seats = deal(size, rng)
        bots = {PlayerId(seat_id(i)): HeuristicBot(CARE[m]) for i, m in enumerate(members)}
        record: list[GameCommand] = []
        play_game(engine_seats, bots, dice, rng, record=record)
        seats = tuple(
            TableSeat(member_id=m, name=m.title(), role=s.role, character=s.character)
            for m, s in zip(members, engine_seats, strict=True)
        )
        season = "spring" if index % 2 == 0 else "autumn"
        planned.append(
            PlannedGame(
                game_id=f"{prefix}{seed}-{index}",
                seats=seats,
                commands=tuple(record),
                context=GameContext(league_id=league_id, season_id=season),
            )
        )
    return planned


async def schedule(store: PostgresEventStore, games: list[PlannedGame], *, club: str = CLUB) -> None:
    """The league facts of ``games``, as the league records them: each game's league founded by
    ``club`` (once, public), each game scheduled at a table with ``SCOREKEEPER`` as its scorekeeper."""
    for game in games:
        league_id = game.context.league_id
        if league_id is None:
            continue
        stream = f"league-{league_id}"
        founded = LEAGUE_MAPPER.to_new_event(
            LeagueFounded(
                league_id=league_id,
                club_id=club,
                name=league_id.title(),
                points=PointsScheme(),
                seating=SeatingPolicy(),
                visibility=PUBLIC,  # the ratings' tests read its boards signed out
            )
        )
        scheduled = LEAGUE_MAPPER.to_new_event(
            GameScheduled(
                league_id=league_id,
                tournament_id="cup",
                round=1,
                table=1,
                game_id=game.game_id,
                mode="table",
                scorekeeper=SCOREKEEPER.id,
                scheduled_by="organiser",
            )
        )
        first = await store.stream_version(stream) == 0
        await store.append(stream, [founded, scheduled] if first else [scheduled], expected_version=ANY)


async def enter_games(
    service: GameService, games: list[PlannedGame], *, stop_after: int | None = None
) -> None:
    """Scorekeepers enter the games side by side, one command of each in turn, so their
    streams interleave and they end in another order than they began (only the first
    ``stop_after`` commands of each when given: games still running). Their leagues schedule
    them first (``schedule``)."""
    assert isinstance(service.store, PostgresEventStore)
    await schedule(service.store, games)
    for game in games:
        spec = NewGame(
            mode=GameMode.TABLE,
            player_count=len(game.seats),
            seats=game.seats,
            context=game.context,
            game_id=game.game_id,
        )
        await service.create_game(spec, command_id=f"create-{game.game_id}", actor=SCOREKEEPER)
    longest = max(len(g.commands) for g in games)
    for n in range(longest if stop_after is None else stop_after):
        for game in games:
            if n < len(game.commands):
                await service.play(
                    game.game_id, game.commands[n], actor=SCOREKEEPER, command_id=f"{game.game_id}/{n}"
                )


async def recorded_outcomes(store: PostgresEventStore) -> list[GameOutcome]:
    """Every finished game as the ratings see it, in the order the games ended, read straight
    from the store: the expectation the consumer is compared against. The ruleset is the one
    ``GameCreated`` recorded, and the end is read from the payload as recorded (so the
    expansion fields a newer engine writes are read too)."""
    seats: dict[str, tuple[str, ...]] = {}
    rulesets: dict[str, str] = {}
    outcomes = []
    async for recorded in store.iter_all(categories=["game"]):
        if recorded.type == "GameCreated":
            created = GAME_MAPPER.to_domain(recorded)
            assert isinstance(created, GameCreated)
            rulesets[recorded.stream] = created.ruleset.text
        elif recorded.type == "SeatsDealt":
            dealt = GAME_MAPPER.to_domain(recorded)
            assert isinstance(dealt, SeatsDealt)
            seats[recorded.stream] = dealt.members
        elif recorded.type == "GameEnded":
            ended = GAME_MAPPER.to_domain(recorded)
            assert isinstance(ended, GameEnded)
            players = {seat_id(i): LeaguePlayerId(m) for i, m in enumerate(seats[recorded.stream])}
            finish = dice_finish(ended, recorded.data)
            game_id = game_id_of(recorded.stream)
            outcomes.append(from_finish(finish, players, game_id, ruleset=rulesets[recorded.stream]))
    return outcomes
