"""The REST edge of token revocation (policy in docs/api.md, the vault in tokens.py).

- ``DELETE /tokens/current``: the caller's own token (whoever holds a token may end it);
- ``POST /tokens/revoke`` ``{game_id, member_id?}``: a game's player tokens, by the organiser
  who created the game (a lost or passed-on token; a member who left).

Each handler makes one gateway call; a revoked token is refused by every API process within
seconds (``TokenVault``: Redis for at once, the cache TTL for sure).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, post
from litestar.params import JSONBody

from services.accounts.http import SECURED
from services.game.edge.gateway import GameGateway, Revoked
from services.game.edge.tokens import Principal

GameId = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:-]+$")]
MemberId = Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.:@-]+$")]


class RevokePlayersRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game_id: GameId
    member_id: MemberId | None = None
    """Only this member's tokens; all the game's player tokens when absent."""


class TokenController(Controller):
    path = "/tokens"
    tags = ["tokens"]

    @delete(
        "/current",
        operation_id="revokeCurrentToken",
        status_code=200,
        summary="Revoke the token this request is made with",
        security=SECURED,
    )
    async def revoke_current(self, request: Request[Any, Any, Any], gateway: GameGateway) -> Revoked:
        return await gateway.revoke_own(request.headers.get("authorization"))

    @post(
        "/revoke",
        operation_id="revokePlayerTokens",
        status_code=200,
        summary="Revoke a game's player tokens (the organiser who created it)",
        security=SECURED,
    )
    async def revoke_players(
        self, data: JSONBody[RevokePlayersRequest], gateway: GameGateway, principal: Principal | None
    ) -> Revoked:
        return await gateway.revoke_players(principal, data.game_id, data.member_id)
