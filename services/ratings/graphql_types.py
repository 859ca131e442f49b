"""The ratings service's GraphQL types: leaderboards, a player's profile, the fitted offsets
(per ruleset, table size and side), each of one pool (``global`` or ``club:<club id>``,
docs/ratings.md "What is rated: pools"; ``global`` unless the query names another).

Context keys the resolvers read:

* ``info.context["pool"]``: an ``asyncpg.Pool`` on the database the ratings consumer writes.

Every answer comes from the current generation of the read model (``store.py``), so a rebuild
in progress is invisible until it swaps in. The root schema merges ``RatingsQuery`` with the
other services' query types (``services/api/schema.py``); the type names start with
``Rating`` so they cannot clash with theirs.
"""

from __future__ import annotations

import re
import typing
from datetime import datetime
from enum import Enum

import asyncpg
import strawberry
from strawberry.types import Info

from services.clubs.names import names_of
from services.clubs.readers import reader
from services.game.edge.bounds import (
    Identifier,
    InvalidArgument,
    LeaderboardLimit,
    PageOffset,
    TablePlayers,
    bounded,
)
from services.game.results import Role
from services.league.visibility import readable_league
from services.ratings import store
from services.ratings.pools import CLUB_PREFIX

NAME = "The member's display name (member ids are for links, not for reading)."
POOL = (
    "The pool the rating is of: 'global' (online games on this server, every seat played by its "
    "own account) or 'club:<club id>' (that club's league games)."
)
POOL_ARGUMENT = strawberry.argument(
    description="Which pool: 'global' (the default) or 'club:<club id>' (that club's league games)."
)
LEADERBOARD_POOL_ARGUMENT = strawberry.argument(
    description="Which pool: 'global' or 'club:<club id>' (that club's league games); left out, the "
    "league's club's pool when leagueId names a league (its games are rated there), else 'global'."
)


@strawberry.enum(
    description="A game type: a player has one rating per game type, and side offsets are "
    "fitted per ruleset of each."
)
class RatingGameType(Enum):
    DICE = "dice"
    CARDS = "cards"


@strawberry.enum(description="A role of BANG! The Dice Game, for role ratings.")
class RatingRole(Enum):
    SHERIFF = "sheriff"
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    RENEGADE = "renegade"


@strawberry.type(description="One line of a leaderboard, overall or for one role.")
class RatingLeaderboardEntry:
    rank: int
    member_id: str
    pool: str = strawberry.field(description=POOL)
    game_type: RatingGameType = strawberry.field(description="The game type this rating is of.")
    display_name: str = strawberry.field(description=NAME)
    role: RatingRole | None = strawberry.field(description="Null on the overall leaderboard.")
    rating: float = strawberry.field(description="The overall rating, or the role rating on a role's board.")
    games: int = strawberry.field(description="Rated games (in the role, on a role's board).")
    wins: int
    provisional: bool = strawberry.field(
        description="Still provisional: fewer than 30 rated games (a role: or fewer than 5 in the role)."
    )
    overall_rating: float


@strawberry.type(description="A player's rating in one role: the overall rating plus the shrunk deviation.")
class RatingRoleRating:
    role: RatingRole
    rating: float
    games: int
    wins: int
    provisional: bool


@strawberry.type(description="A rating right after a game.")
class RatingHistoryPoint:
    game_number: int = strawberry.field(description="The game's number among all rated games (1-based).")
    game_id: str
    rating: float
    ended_at: datetime | None = strawberry.field(
        default=None,
        description="When the game's end was recorded (UTC): the x axis of a rating history by date. "
        "Null for a game rated before this was kept, until the ratings are rebuilt.",
    )


@strawberry.type(description="How one rating moved: the overall rating (role null) or one role's.")
class RatingHistory:
    role: RatingRole | None
    points: list[RatingHistoryPoint]


@strawberry.type(description="A player's ratings: overall, per role, and their history.")
class RatingProfile:
    member_id: str
    pool: str = strawberry.field(description=POOL)
    game_type: RatingGameType = strawberry.field(description="The game type these ratings are of.")
    display_name: str = strawberry.field(description=NAME)
    rating: float
    games: int
    wins: int
    provisional: bool
    roles: list[RatingRoleRating]
    history: list[RatingHistory] = strawberry.field(
        description="Overall first, then Sheriff, Deputy, Outlaw, Renegade; an unplayed role has no points."
    )


@strawberry.type(description="A side's fitted advantage at one table size under one ruleset, in Elo points.")
class RatingFactionOffset:
    pool: str = strawberry.field(description="The pool whose games fitted it.")
    ruleset: str = strawberry.field(
        description="The module set it is fitted for, as a game records it: 'dice', 'dice OS1 OS3'."
    )
    players: int
    faction: str = strawberry.field(
        description="law, outlaws, renegade; at 3 players deputy, outlaw, renegade (each Renegade alone); "
        "after an Undead or Alive outbreak survivors and zombies (the Zombie Master with the zombies)."
    )
    offset: float = strawberry.field(
        description="Centred: the mean over the table's factions (of this ruleset) is 0; survivors and "
        "zombies are centred on their own mean."
    )
    raw: float = strawberry.field(description="The fitted value before centring.")
    games: int


@strawberry.type(
    description="A ruleset a pool has rated games of: a value the leaderboard's ruleset filter answers for."
)
class RatingRuleset:
    ruleset: str = strawberry.field(
        description="As games record it: 'dice' (the base game), 'dice OS1 OS3', 'dice UA4', 'cards'."
    )
    games: int = strawberry.field(description="Rated games under it in the pool.")
    players: int = strawberry.field(description="Members with a rated game under it in the pool.")


@strawberry.type(description="Which computation of the ratings answers: it changes when a rebuild swaps in.")
class RatingsStatus:
    generation: int
    games: int = strawberry.field(description="Games rated so far.")
    activated_at: datetime | None


@strawberry.type(description="One player's overall rating in one pool, before and right after one game.")
class GameRatingMove:
    member_id: str
    display_name: str = strawberry.field(description=NAME)
    pool: str = strawberry.field(description=POOL)
    game_type: RatingGameType
    before: float = strawberry.field(
        description="After the member's previous rated game in this pool (the initial rating at first)."
    )
    after: float
    change: float = strawberry.field(description="after - before: what this game did to the rating.")


@strawberry.type(description="How one game moved its players' ratings, or why it moved none.")
class GameRatingChange:
    game_id: str
    rated: bool
    reason: str | None = strawberry.field(
        description="Why the game moved no rating, in plain words (a friendly table game, an imported "
        "record, a game not over yet…); null when it is rated."
    )
    changes: list[GameRatingMove] = strawberry.field(
        description="Every seat's overall rating in every pool the game was rated in; empty when not rated."
    )


def _pool(info: Info) -> asyncpg.Pool:
    return info.context["pool"]


_RULESET = re.compile(r"[a-z]{1,20}( ([A-Z]{2}[0-9]{1,2}|[a-z][a-z_]{0,30})){0,20}")
RULESET_RULE = (
    "a ruleset as games record it: the game type, then its modules or options, e.g. 'dice' or "
    "'dice OS1 OS3' or 'cards eight_players'"
)


def _ruleset(argument: str, value: str | None) -> str | None:
    """A ruleset filter in ``Ruleset.text`` form, or InvalidArgument naming the rule. Module ids
    are checked for shape only: a ruleset no game used simply matches nothing."""
    if value is not None and _RULESET.fullmatch(value) is None:
        raise InvalidArgument(argument, RULESET_RULE)
    return value


def _game_type(game_type: RatingGameType | None, ruleset: str | None) -> str:
    """The game type asked about: the given one, else the ruleset's, else the dice game; a
    ruleset of another game type than the one given is refused by name."""
    of_ruleset = None if ruleset is None else ruleset.split(maxsplit=1)[0]
    if game_type is not None and of_ruleset is not None and of_ruleset != game_type.value:
        raise InvalidArgument("ruleset", f"a ruleset of gameType {game_type.value}, not {ruleset!r}")
    if game_type is not None:
        return game_type.value
    return of_ruleset or RatingGameType.DICE.value


POOL_RULE = "'global' or 'club:<club id>' (a club id as its page shows it)"


def _pool_argument(value: str) -> str:
    """The pool asked about, or InvalidArgument naming the rule."""
    if value == store.GLOBAL_POOL:
        return value
    club = value.removeprefix(CLUB_PREFIX)
    if club == value:
        raise InvalidArgument("pool", POOL_RULE)
    try:
        bounded("pool", club, Identifier)
    except InvalidArgument:
        raise InvalidArgument("pool", POOL_RULE) from None
    return value


def _role(role: RatingRole | None) -> Role | None:
    return None if role is None else Role(role.value)


def _rating_role(role: Role | str) -> RatingRole:
    return RatingRole(role.value if isinstance(role, Role) else role)


@strawberry.type
class RatingsQuery:
    @strawberry.field(
        description="Best first, the ratings of one game type (gameType; else the ruleset's; else "
        "dice), in one pool (the global pool unless pool names a club's). A role's board lists who "
        "played the role at least once, each with their rated games in the role. With league_id (and "
        "season_id) only members with a rated game there, with ruleset ('dice OS1 OS3') only members "
        "with a rated game under it (on a role's board: a game rated in that role); a rating is one "
        "across leagues and rulesets of its game type and pool."
    )
    async def rating_leaderboard(
        self,
        info: Info,
        role: RatingRole | None = None,
        league_id: str | None = None,
        season_id: str | None = None,
        ruleset: str | None = None,
        include_provisional: bool = True,
        limit: int = 50,
        offset: int = 0,
        game_type: RatingGameType | None = None,
        pool: typing.Annotated[str | None, LEADERBOARD_POOL_ARGUMENT] = None,
    ) -> list[RatingLeaderboardEntry]:
        connections = _pool(info)
        readers = None
        if league_id is not None:  # who played in a league is the league's to show
            league_id = bounded("leagueId", league_id, Identifier)
            readers = await readable_league(connections, await reader(info), league_id, unknown=True)
        if pool is None:  # a league's games are rated in its club's pool only
            pool = store.GLOBAL_POOL if readers is None else f"{CLUB_PREFIX}{readers.club_id}"
        rows = await store.leaderboard(
            connections,
            pool=_pool_argument(pool),
            game_type=_game_type(game_type, _ruleset("ruleset", ruleset)),
            role=_role(role),
            league_id=bounded("leagueId", league_id, Identifier),
            season_id=bounded("seasonId", season_id, Identifier),
            ruleset=_ruleset("ruleset", ruleset),
            include_provisional=include_provisional,
            limit=bounded("limit", limit, LeaderboardLimit),
            offset=bounded("offset", offset, PageOffset),
        )
        names = await names_of(connections, (row.member_id for row in rows))
        return [
            RatingLeaderboardEntry(
                rank=row.rank,
                member_id=row.member_id,
                pool=row.pool,
                game_type=RatingGameType(row.game_type),
                display_name=names[row.member_id],
                role=None if row.role is None else _rating_role(row.role),
                rating=row.rating,
                games=row.games,
                wins=row.wins,
                provisional=row.provisional,
                overall_rating=row.overall_rating,
            )
            for row in rows
        ]

    @strawberry.field(
        description="A member's ratings and history in one game type (dice unless gameType says) and "
        "one pool (the global pool unless pool names a club's); null before their first rated game there."
    )
    async def player_rating(
        self,
        info: Info,
        member_id: str,
        game_type: RatingGameType = RatingGameType.DICE,
        pool: typing.Annotated[str, POOL_ARGUMENT] = store.GLOBAL_POOL,
    ) -> RatingProfile | None:
        connections = _pool(info)
        found = await store.profile(
            connections, bounded("memberId", member_id, Identifier), game_type.value, _pool_argument(pool)
        )
        if found is None:
            return None
        names = await names_of(connections, [found.member_id])
        histories: dict[str, list[RatingHistoryPoint]] = {store.OVERALL: []}
        histories |= {role.value: [] for role in RatingRole}
        for point in found.history:
            histories[point.role].append(
                RatingHistoryPoint(
                    game_number=point.game_number,
                    game_id=point.game_id,
                    rating=point.rating,
                    ended_at=point.ended_at,
                )
            )
        return RatingProfile(
            member_id=found.member_id,
            pool=found.pool,
            game_type=RatingGameType(found.game_type),
            display_name=names[found.member_id],
            rating=found.rating,
            games=found.games,
            wins=found.wins,
            provisional=found.provisional,
            roles=[
                RatingRoleRating(
                    role=_rating_role(r.role),
                    rating=r.rating,
                    games=r.games,
                    wins=r.wins,
                    provisional=r.provisional,
                )
                for r in found.roles
            ],
            history=[
                RatingHistory(role=None if key == store.OVERALL else RatingRole(key), points=points)
                for key, points in histories.items()
            ],
        )

    @strawberry.field(
        description="The side offsets fitted in one pool (the global pool unless pool names a club's) "
        "per ruleset, table size and faction (optionally one size, one ruleset, or the rulesets of one "
        "game type)."
    )
    async def rating_offsets(
        self,
        info: Info,
        players: int | None = None,
        ruleset: str | None = None,
        game_type: RatingGameType | None = None,
        pool: typing.Annotated[str, POOL_ARGUMENT] = store.GLOBAL_POOL,
    ) -> list[RatingFactionOffset]:
        rows = await store.offsets(
            _pool(info),
            bounded("players", players, TablePlayers),
            _ruleset("ruleset", ruleset),
            None if game_type is None else _game_type(game_type, ruleset),
            pool=_pool_argument(pool),
        )
        return [
            RatingFactionOffset(
                pool=row.pool,
                ruleset=row.ruleset,
                players=row.players,
                faction=row.faction.value,
                offset=row.offset,
                raw=row.raw,
                games=row.games,
            )
            for row in rows
        ]

    @strawberry.field(
        description="The rulesets one pool (the global pool unless pool names a club's) has rated games "
        "of, in one game type (dice unless gameType says), most played first: what ratingLeaderboard's "
        "ruleset filter can narrow to (ratings are kept across rulesets, not per ruleset)."
    )
    async def rating_rulesets(
        self,
        info: Info,
        game_type: RatingGameType = RatingGameType.DICE,
        pool: typing.Annotated[str, POOL_ARGUMENT] = store.GLOBAL_POOL,
    ) -> list[RatingRuleset]:
        rows = await store.rulesets(_pool(info), game_type=game_type.value, pool=_pool_argument(pool))
        return [RatingRuleset(ruleset=r.ruleset, games=r.games, players=r.players) for r in rows]

    @strawberry.field(
        description="How a game moved its players' overall ratings (each pool it was rated in), or why "
        "it is not rated. As public as a player's rating history, which holds the same numbers."
    )
    async def game_rating_change(self, info: Info, game_id: str) -> GameRatingChange:
        connections = _pool(info)
        found = await store.game_changes(connections, bounded("gameId", game_id, Identifier))
        names = await names_of(connections, (c.member_id for c in found.changes))
        return GameRatingChange(
            game_id=found.game_id,
            rated=found.rated,
            reason=found.reason,
            changes=[
                GameRatingMove(
                    member_id=c.member_id,
                    display_name=names[c.member_id],
                    pool=c.pool,
                    game_type=RatingGameType(c.game_type),
                    before=c.before,
                    after=c.after,
                    change=c.after - c.before,
                )
                for c in found.changes
            ],
        )

    @strawberry.field(description="The generation of the ratings that answers; null before any game.")
    async def ratings_status(self, info: Info) -> RatingsStatus | None:
        current = await store.current_generation(_pool(info))
        if current is None:
            return None
        return RatingsStatus(
            generation=current.generation, games=current.games, activated_at=current.activated_at
        )
