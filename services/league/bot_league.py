"""A league round played by bots: seat it, create each table's game on the game server, play
every game to its end with bots of the league's game type (the dice game's ``HeuristicBot``, the
card game's ``HeuristicCardBot``), let the standings projection consume them.

A card league's tables are created with the card game's ruleset (the two-Renegade option at a
table of eight, as a scheduled online game is); each seat gets its own card bot, which decides
from its own seat's view only (``services.game.bots.cards.view.SeatView``); the shuffles and
random picks are the server's, from the game's committed seed, as in any online card game.

Every step is idempotent, so running a round again (a Celery task delivered twice, a worker
that died half-way) finishes what is missing and changes nothing else:

* the seating command's id is derived from (league, tournament, round): a repeat answers with
  the recorded ``RoundSeated``;
* a table's game id is derived from (league, tournament, round, table), and creating it again
  is a duplicate append of the same events;
* each bot move's command id is derived from (game, version it was decided at), and the bot's
  generator is seeded the same way, so the same position always gets the same move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from services.game.application.codec import game_stream
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.application.session import GameStatus
from services.game.bots.seats import SeatBots
from services.game.edge.http import RulesetIn
from services.game.results import GameResult, GameType
from services.game.results.decoder import game_result
from services.league.commands import ScheduleGame, SeatRound
from services.league.errors import InvalidCommand
from services.league.events import RoundSeated
from services.league.read_model import season_scores
from services.league.result_sheet import EIGHT_PLAYERS
from services.league.service import LeagueService, derived_command_id
from services.league.standings import StandingsProjection

MAX_MOVES = 20_000
"""Far beyond any real game; a bot game that goes past it is a bug, and fails loudly."""
BOT_GAME_TYPES = (GameType.DICE.value, GameType.CARDS.value)
"""The game types bots play a league round of."""


@dataclass(frozen=True, slots=True)
class BotRoundReport:
    seated: RoundSeated
    games: tuple[str, ...]
    results: tuple[GameResult, ...]
    moves: int
    """Bot moves sent now (0 when the round had been played already)."""


def table_options(game_type: str, players: int) -> list[str]:
    """A bot table's ruleset options: none for the dice game (its base ruleset, as bot tables were
    created before rulesets existed: same fingerprint); for the card game at eight, the
    two-Renegade set, as the league schedules an online card game of eight."""
    return [EIGHT_PLAYERS] if game_type == GameType.CARDS and players == 8 else []


def table_game_id(league_id: str, tournament_id: str, round_number: int, table: int) -> str:
    return f"{league_id}.{tournament_id}.r{round_number}.t{table}"


async def seat_next_round(
    league: LeagueService,
    league_id: str,
    tournament_id: str,
    round_number: int,
    *,
    seed: str,
    entrants: tuple[str, ...] | None = None,
) -> RoundSeated:
    """Seat a round with the season's current standings as the Swiss scores (idempotent)."""
    state = await league.load_league(league_id)
    tournament = state.tournament(tournament_id)
    scores = await season_scores(league.store.pool, league_id, tournament.season_id)
    result = await league.execute(
        SeatRound(
            league_id=league_id,
            tournament_id=tournament_id,
            round=round_number,
            seed=seed,
            entrants=entrants,
            scores=scores,
        ),
        command_id=derived_command_id("seat-round", [league_id, tournament_id, round_number]),
        actor=f"league:{league_id}",
    )
    seated = result.events[0]
    assert isinstance(seated, RoundSeated)
    return seated


async def play_bot_round(
    league: LeagueService,
    games: GameService,
    league_id: str,
    tournament_id: str,
    round_number: int,
    *,
    seed: str,
    care: Mapping[str, float] | None = None,
    projection: StandingsProjection | None = None,
) -> BotRoundReport:
    """Seat round ``round_number`` (if not yet), create and play each table's game with bots of
    the league's game type (dice bots of per-member ``care``, default ``bots.seats.DEFAULT_CARE``; card bots
    have no such knob), and catch the projection up before (for the Swiss scores) and after (for
    the standings)."""
    game_type = (await league.load_league(league_id)).game_type
    if game_type not in BOT_GAME_TYPES:
        raise InvalidCommand(
            f"bot rounds play {' or '.join(BOT_GAME_TYPES)}; league {league_id!r} plays {game_type}"
        )
    if projection is not None:
        await projection.run_until_idle()
    seated = await seat_next_round(league, league_id, tournament_id, round_number, seed=seed)
    state = await league.load_league(league_id)
    names = (await league.load_club(state.club_id)).members
    organiser = Actor(kind=ActorKind.ORGANISER, id=f"league:{league_id}")
    game_ids: list[str] = []
    results: list[GameResult] = []
    moves = 0
    for table in seated.tables:
        game_id = table_game_id(league_id, tournament_id, round_number, table.table)
        await games.create_game(
            NewGame(
                mode=GameMode.ONLINE,
                player_count=len(table.members),
                members=tuple(Member(member_id=m, name=names.get(m, m)) for m in table.members),
                sheriff_member=table.sheriff,
                context=GameContext(
                    league_id=league_id,
                    season_id=seated.season_id,
                    tournament_id=tournament_id,
                    round=round_number,
                    table=table.table,
                ),
                game_id=game_id,
                # read through the edge's RulesetIn, as organise.py does: the league knows no engine
                ruleset=RulesetIn(
                    game_type=game_type, options=table_options(game_type, len(table.members))
                ).to_ruleset(),
            ),
            command_id=f"league-game/{game_id}",
            actor=organiser,
        )
        await league.execute(
            ScheduleGame(
                league_id=league_id,
                tournament_id=tournament_id,
                round=round_number,
                table=table.table,
                game_id=game_id,
            ),
            command_id=derived_command_id("schedule-game", [game_id]),
            actor=f"league:{league_id}",
        )
        played, ended = await play_out(games, game_id, care or {}, seed=seed)
        moves += played
        game_ids.append(game_id)
        results.append(ended)
    if projection is not None:
        await projection.run_until_idle()
    return BotRoundReport(seated, tuple(game_ids), tuple(results), moves)


async def play_out(
    games: GameService, game_id: str, care: Mapping[str, float], *, seed: str
) -> tuple[int, GameResult]:
    """Play ``game_id`` from wherever it stands to its end; (moves sent, the result)."""
    session = await games.load(game_id)
    bots = SeatBots(care)
    moves = 0
    while session.status is GameStatus.ONGOING:
        rng = random.Random(f"{seed}:{game_id}:{session.version}")
        member, command = bots.move(session.game, session.seat_members, rng)
        await games.play(
            game_id,
            command,
            actor=Actor(kind=ActorKind.PLAYER, id=member),
            command_id=f"bot/{game_id}/{session.version}",
        )
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"bot game {game_id} did not end after {MAX_MOVES} moves")
        session = await games.load(game_id)
    assert session.status is GameStatus.ENDED, f"{game_id} is {session.status}"
    result = game_result(await games.store.read_stream(game_stream(game_id)))
    assert result is not None, f"{game_id} has no recorded end"
    return moves, result
