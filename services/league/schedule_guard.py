"""The league's schedule as the game server must respect it: the ``LeagueSchedule`` that the
API hands to the game gateway (``services/game/edge/gateway.py``).

The game service sits below the league and never imports it; the league's rule reaches it
from above, here: on every creation (REST, GraphQL, record import) the game's id is looked up
in ``league_game_reservations`` and ``check_new_game`` (services/league/integrity.py) decides;
for a table game's moves and view, the reservation names the club whose scorekeeper grant
counts.
"""

from __future__ import annotations

import asyncpg

from services.clubs.roles import Principal, Role
from services.game.application.service import NewGame
from services.league.integrity import Creator, check_new_game
from services.league.reservations import reservation


class ScheduleGuard:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def check_new_game(self, game_id: str, spec: NewGame, account: Principal | None) -> None:
        """Raise unless ``account`` (None: an operator's organiser token, which has no club) may
        create ``spec`` as ``game_id``: ``GameNotScheduled``, ``ScheduleMismatch`` or
        ``RoleRequired`` naming the club."""
        held = await reservation(self._pool, game_id)
        organises = (
            held is not None
            and account is not None
            and (account.holds(held.club_id, Role.ORGANISER) or account.holds(held.club_id, Role.ADMIN))
        )
        creator = Creator(account_id=None if account is None else account.account_id, organises=organises)
        check_new_game(held, spec, creator)

    async def club_of(self, game_id: str) -> str | None:
        held = await reservation(self._pool, game_id)
        return None if held is None else held.club_id
