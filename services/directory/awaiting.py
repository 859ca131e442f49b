"""Your move: the caller's online games that await a decision of the caller's own seat.

The home page lists them and the tab's title counts them ("(1) Your move — bang-league"). A game
is listed when the caller's own view of it (``GameGateway.state``, the very answer of
``GET /games/{id}`` to this caller, redacted for them by services/game/edge/visibility.py)
offers legal commands: what the seat page shows as "Your decision". Each item says only what that
view says already to the caller (the game, their seat, the decision's name, its deadline) and the
players' names the games lists show to everyone; never a role, a card or a seed, so the list
tells the caller nothing their own seat page would not.

Which games are the caller's comes from the directory's read model (``/me/games``): the newest
``CHECKED`` that are not over are read, each one through the gateway, so a game that started or
moved on since the projection's last event is still judged as it stands now.
"""

from __future__ import annotations

import msgspec

from services.clubs.roles import Principal as Caller
from services.directory import queries
from services.directory.queries import Executor, GameLeague, GamePlayer, GameState
from services.game.edge.gateway import GameGateway
from services.game.edge.tokens import Principal

CHECKED = 30
"""How many of the caller's newest games not over are read (a player has a few at a time)."""


class AwaitedGame(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game_type: str
    """``dice`` or ``cards``: which words the page uses for the decision."""
    seat: str
    """The caller's seat (p1…)."""
    decision: str
    """The engine's name of the decision awaited (``shot_target``); the page puts it in words."""
    version: int
    """The game's version the decision is awaited at: a new one is a new decision."""
    deadline: str | None
    """When the default answer is played (a game with a time limit), ISO 8601."""
    league: GameLeague | None
    players: list[GamePlayer]
    """Everyone at the table by display name, as the public games lists show them."""


class AwaitedGames(msgspec.Struct, frozen=True, kw_only=True):
    items: list[AwaitedGame]
    """Newest game first."""


async def awaited_games(
    db: Executor, caller: Caller, principal: Principal | None, gateway: GameGateway
) -> AwaitedGames:
    page = await queries.my_games(db, caller, None, 100, 0)
    active = [
        g for g in page.items if g.mode == "online" and g.status in (GameState.LOBBY, GameState.ONGOING)
    ][:CHECKED]
    items = []
    for game in active:
        view = await gateway.state(principal, game.game_id)
        if view.get("status") != "ongoing" or not view.get("legal_commands"):
            continue
        seat = next((p["id"] for p in view["players"] if p.get("member_id") == caller.account_id), None)
        awaiting = view.get("awaiting") or {}
        if seat is None or not awaiting:
            continue
        items.append(
            AwaitedGame(
                game_id=game.game_id,
                game_type=game.game_type,
                seat=seat,
                decision=str(awaiting["decision"]),
                version=int(view["version"]),
                deadline=view.get("deadline"),
                league=game.league,
                players=game.players,
            )
        )
    return AwaitedGames(items=items)
