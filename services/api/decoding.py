"""Every JSON request body, REST and GraphQL, is decoded here, and refused with a 400 that says why.

litestar decodes a REST body with msgspec and strawberry a GraphQL body with ``json.loads``;
both stopped short of the client's mistakes in ways that were answered as crashes or taken in:

- invalid UTF-8 raised ``UnicodeDecodeError`` (a 500 with a traceback); it is refused naming the
  byte and its offset in the body;
- a key given twice was taken silently (the last one won), so ``{"password": "a", "password":
  "b"}`` meant something other than what one reader of it sees; it is refused naming the key;
- an empty body said only ``'data'`` (REST) or "Unable to parse request body as JSON" (GraphQL);
- JSON nested too deeply made the decoder's ``RecursionError`` (about a thousand levels: a
  20,000-deep ``[[[…]]]`` body was a 500). Only the decoder's own ``RecursionError`` is a client
  error; one from anywhere else is a bug and stays a 500, so the refusal is made here, around the
  decode, not in the error mapping.

Duplicate keys cost little to look for. msgspec cannot report them, and the stdlib's
``object_pairs_hook`` that can costs 1.3 to 9 times msgspec's decode. So the keys are counted in C
first, by their colons: outside strings a JSON text has one colon per key, and the colons inside
strings are the same in the body and in msgspec's encoding of the decoded value (which holds each
key once), unless the body writes one as ``\\u003a``. So when the body's colons outnumber the
encoding's, a key was repeated (or a colon escaped), and only then is the body read again with the
stdlib hook, which names the key. Measured in docs/api.md ("Errors").
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException
from litestar.types import Empty

TOO_DEEP = "the JSON body nests too deeply to be read"
EMPTY = "the body is empty: a JSON object was expected"
_ESCAPED_COLON = (b"\\u003a", b"\\u003A")


class DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def not_utf8(body: bytes, error: UnicodeDecodeError) -> str:
    return f"the body is not valid UTF-8 (byte 0x{body[error.start]:02x} at offset {error.start})"


def decode_json_body(body: bytes | str) -> Any:
    """The body's JSON value, or a ``ClientException`` (400 ``bad-request``) naming what is wrong."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    try:
        value = msgspec.json.decode(body)
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        if not body.strip():
            raise ClientException(EMPTY) from None
        # msgspec checks UTF-8 inside strings only, and counts from the string's start: the
        # offset is taken from the whole body
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise ClientException(not_utf8(body, bad)) from None
        raise ClientException(f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ClientException(TOO_DEEP) from None
    if _may_repeat_a_key(body, value):
        _refuse_duplicate_keys(body)
    return value


def _may_repeat_a_key(body: bytes, value: Any) -> bool:
    if not isinstance(value, (dict, list)):
        return False
    if any(colon in body for colon in _ESCAPED_COLON):
        return True
    return body.count(b":") != msgspec.json.encode(value).count(b":")


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return value


def _refuse_duplicate_keys(body: bytes) -> None:
    try:
        json.loads(body, object_pairs_hook=_unique_pairs)
    except DuplicateKey as duplicate:
        raise ClientException(f"duplicate key {duplicate.key!r} in the JSON body") from None
    except RecursionError:
        raise ClientException(TOO_DEEP) from None


class BoundedJsonRequest(Request[Any, Any, Any]):
    """litestar's request, its JSON body decoded by ``decode_json_body`` (litestar's own decodes
    without a type too: the handler's signature converts the value afterwards)."""

    async def json(self) -> Any:
        if self._json is Empty:
            if (cached := self._connection_state.json) is not Empty:
                self._json = cached
            else:
                body = await self.body()
                # an absent body is no value, as litestar has it (a route's body is then required
                # or not by its signature: services/api/errors.py says an empty one in words)
                self._json = self._connection_state.json = decode_json_body(body) if body else None
        return self._json


def decode_graphql_json(data: str | bytes) -> object:
    """strawberry's ``decode_json``: the same decoding and refusals as a REST body."""
    return decode_json_body(data)
