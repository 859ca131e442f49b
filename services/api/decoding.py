"""Request bodies decoded with one more refusal: JSON nested too deeply to decode is a 400.

msgspec (REST bodies) and ``json`` (GraphQL bodies) decode recursively and stop with a
``RecursionError`` at some depth (about a thousand levels): a 20,000-deep ``[[[…]]]`` body was a
500. Only the decoder's own ``RecursionError`` is a client error; one from anywhere else is a bug
and stays a 500, so the refusal is made here, around the decode, not in the error mapping.
"""

from __future__ import annotations

import json
from typing import Any

from cross_web import HTTPException as GraphQLHTTPException
from litestar import Request
from litestar.exceptions import ClientException

TOO_DEEP = "the JSON body nests too deeply to be read"


class BoundedJsonRequest(Request[Any, Any, Any]):
    """litestar's request, refusing a too-deep JSON body with a 400 (``bad-request``)."""

    async def json(self) -> Any:
        try:
            return await super().json()
        except RecursionError:
            raise ClientException(TOO_DEEP) from None


def decode_graphql_json(data: str | bytes) -> object:
    """strawberry's ``decode_json`` (``json.loads``), refusing a too-deep body with a 400."""
    try:
        return json.loads(data)
    except RecursionError:
        raise GraphQLHTTPException(400, TOO_DEEP) from None
