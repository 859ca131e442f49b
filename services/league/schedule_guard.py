"""The league's schedule as the game server must respect it: the ``LeagueSchedule`` that the
API hands to the game gateway (``services/game/edge/gateway.py``).

The game service sits below the league and never imports it; the league's rule reaches it
from above, here: on every creation (REST, GraphQL, record import) the game's id is looked up
in ``league_game_reservations`` and ``check_new_game`` (services/league/integrity.py) decides;
for a table game's moves and view, the reservation names the club whose scorekeeper grant
counts. A table game's creation also asks who holds that grant now: none of them may sit at it.
"""

from __future__ import annotations

import asyncpg

from services.clubs.roles import Principal, Role
from services.clubs.service import scorekeepers_of
from services.game.application.service import NewGame
from services.league.integrity import Creator, check_new_game
from services.league.reservations import reservation


class ScheduleGuard:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def check_new_game(self, game_id: str, spec: NewGame, account: Principal | None) -> None:
        """Raise unless ``account`` (None: an operator's organiser token, which has no club) may
        create ``spec`` as ``game_id``: ``GameNotScheduled``, ``ScheduleMismatch``,
        ``RoleRequired`` naming the club, or ``ScorekeeperSeated`` naming the seat."""
        held = await reservation(self._pool, game_id)
        if held is None or account is None:
            creator = Creator(account_id=None if account is None else account.account_id, organises=False)
            check_new_game(held, spec, creator)
            return
        club = held.club_id
        creator = Creator(
            account_id=account.account_id,
            organises=account.holds(club, Role.ORGANISER) or account.holds(club, Role.ADMIN),
            referees=account.holds(club, Role.REFEREE),
            keeps_score=any(
                g.role is Role.SCOREKEEPER and g.game_id == game_id for g in account.roles.get(club, ())
            ),
        )
        check_new_game(held, spec, creator, await scorekeepers_of(self._pool, club, game_id))

    async def club_of(self, game_id: str) -> str | None:
        held = await reservation(self._pool, game_id)
        return None if held is None else held.club_id

    async def seat_of(self, game_id: str, account_id: str) -> str | None:
        """Where ``account_id`` sits at the league table of ``game_id``, in words (None: not
        seated there, or no league's game): what ``ClubService`` asks before granting a
        ``scorekeeper`` role for that game."""
        held = await reservation(self._pool, game_id)
        if held is None or account_id not in held.members:
            return None
        return f"seat {held.members.index(account_id) + 1} at {held.where()}"
