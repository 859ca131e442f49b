"""A finished online game's hash chain, published so that anybody can re-check it (the
dashboard's "verify a game yourself" recomputes every link in the browser).

What is published, per event, is exactly what ``event_store.hashing.event_hash`` covers: the
stream, version, event id, type, stored schema version, the stored ``data`` and ``metadata``
JSON text (the hashed bytes are its UTF-8), and the stored ``prev_hash`` and ``hash``; beside
them the stream head (``streams.last_hash``), which makes a deleted tail visible.

Only for an online game that has ended and revealed its seed. Before that, a hash over an
event that hides a role could be matched by trying the few possible roles, and the seed is
secret: an ongoing, abandoned or lobby game is refused (``ChainNotPublished``, a 409 naming
only its public status), the same refusal to every caller whatever the hidden roles. A table
game is refused whatever its status: its events' metadata names the scheduled scorekeeper's
account, which its events do not. Nothing else is hidden in a finished online game: its
metadata names the actor (the ``created_by`` organiser, a joined member or ``system``), the
command id and the command's fingerprint (sha256 of what was asked, by whom: all public by
then); no token and no digest of a token is ever stored in a game's stream.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from event_store import EventStoreError, PostgresEventStore, StoreUnavailable
from event_store.hashing import GENESIS_HASH, HASH_FORMAT_TAG
from event_store.postgres_store import CONNECTION_ERRORS
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.errors import GameServiceError
from services.game.application.lifecycle import GameMode
from services.game.application.service import GameService
from services.game.application.session import GameSession, GameStatus
from services.game.edge.visibility import PUBLIC, redact_event

CHAIN_PAGE_LIMIT = 1_000

_EVENTS = """
    SELECT version, event_id, type, schema_version, data::text, metadata::text, prev_hash, hash
      FROM events WHERE stream_name = $1 AND version >= $2 ORDER BY version LIMIT $3
"""
_HEAD = "SELECT version, last_hash FROM streams WHERE name = $1"


class ChainNotPublished(GameServiceError):
    """The game's chain is not published (yet): the message says why, in public words."""

    def __init__(self, game_id: str, why: str) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id} {why}")


def _refusal(
    game_id: str, mode: GameMode, status: GameStatus, seed_revealed: bool
) -> ChainNotPublished | None:
    if mode is not GameMode.ONLINE:
        return ChainNotPublished(
            game_id,
            "is a table game: a hash chain is published for finished online games only "
            "(a table game's events name its scorekeeper's account)",
        )
    if status is not GameStatus.ENDED:
        return ChainNotPublished(
            game_id,
            f"is {status.value}: its hash chain is published once the game has ended and revealed its "
            "seed (a hash over an event that hides a role could be matched by trying the few roles)",
        )
    if not seed_revealed:
        return ChainNotPublished(game_id, "ended without revealing its seed: its hash chain is not published")
    return None


def hides_something(session: GameSession, stored: list[tuple[str, int, str]]) -> bool:
    """Whether any of these stored events ``(type, schema version, data text)`` shows the public
    less than it holds (``redact_event`` for ``PUBLIC``, the one redaction of every channel): a
    guard beside the status, so that whatever a later game keeps hidden after its end is never
    published in its stored bytes. An event that no longer decodes (an edited row) is not a
    reason to hide the chain that shows the edit."""
    for event_type, schema_version, data in stored:
        try:
            stored_event = _Stored(event_type, schema_version, msgspec.json.decode(data))
            event = GAME_MAPPER.to_domain(stored_event)  # reads type, schema_version, data
        except (EventStoreError, msgspec.DecodeError):
            continue
        if redact_event(session, PUBLIC, event) != msgspec.to_builtins(event):
            return True
    return False


class _Stored(NamedTuple):
    """The part of a ``RecordedEvent`` that ``Mapper.to_domain`` reads."""

    type: str
    schema_version: int
    data: Any
    stream: str = "game"
    version: int = 0


async def published_chain(
    service: GameService, store: PostgresEventStore, game_id: str, from_version: int, limit: int
) -> dict[str, Any]:
    """Events ``from_version`` … (at most ``limit``) of a finished online game's stream as stored,
    with their hashes and the stream head (docs/audit.md, "Checking the chain in the browser")."""
    session = await service.load(game_id)  # GameNotFound: 404
    refused = _refusal(game_id, session.mode, session.status, session.seed_revealed is not None)
    if refused is not None:
        raise refused
    stream = game_stream(game_id)
    try:
        # one snapshot: the events and the head they are checked against
        async with (
            store.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            rows = await connection.fetch(_EVENTS, stream, from_version, limit)
            head = await connection.fetchrow(_HEAD, stream)
    except CONNECTION_ERRORS as error:
        raise StoreUnavailable(f"event store database unavailable ({type(error).__name__})") from error
    if hides_something(session, [(row["type"], row["schema_version"], row["data"]) for row in rows]):
        raise ChainNotPublished(
            game_id, "has ended, but its events still hide something: no chain is published"
        )
    head_view = None if head is None else {"version": head["version"], "hash": bytes(head["last_hash"]).hex()}
    return {
        "game_id": game_id,
        "stream": stream,
        "format": HASH_FORMAT_TAG.decode(),
        "genesis": GENESIS_HASH.hex(),
        "head": head_view,
        "events": [
            {
                "version": row["version"],
                "event_id": str(row["event_id"]),
                "type": row["type"],
                "schema_version": row["schema_version"],
                "data": row["data"],
                "metadata": row["metadata"],
                "prev_hash": bytes(row["prev_hash"]).hex(),
                "hash": bytes(row["hash"]).hex(),
            }
            for row in rows
        ],
    }
