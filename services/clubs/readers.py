"""Who is asking, over GraphQL: the caller of a read anyone may make of what is public.

Below the league, ratings and directory packages that each decide what a caller may read (a
league's readers: services/league/visibility.py), so each finds its caller in one way.
"""

from __future__ import annotations

from typing import Any

from strawberry.types import Info

from services.clubs.roles import Principal


def authorization(info: Info) -> str | None:
    """The request's bearer token, else the WebSocket's connection params' (None: anonymous)."""
    request = info.context.get("request")
    header = request.headers.get("authorization") if request is not None else None
    if header is None:
        params = info.context.get("connection_params") or {}
        given = params.get("Authorization") or params.get("authorization")
        header = given if isinstance(given, str) else None
    return header if isinstance(header, str) else None


async def reader(info: Info) -> Principal | None:
    """The caller of a read anyone may make of what is public (a public league): None when
    anonymous; a token sent is checked as anywhere else (``ClubService.reader``)."""
    header = authorization(info)
    if header is None:
        return None
    clubs: Any = info.context["clubs"]
    caller: Principal | None = await clubs.reader(header)
    return caller
