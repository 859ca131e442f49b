"""A command id names one command: the one rule by which league and club writes tell a retry
from another command sent under an id already spent.

A write's caller sends a ``command_id`` so that a lost answer can be asked for again: the same
command (same kind, same content) from the same caller under the same id is a *retry*, answered
as the first time with nothing stored. Anything else under a spent id - other content, another
kind of command, another caller - is ``CommandIdReused`` (409 ``command-id-reused``) and stores
nothing: answering it with the first command's answer would tell the caller a write was stored
that never was (void table 1, then table 2 under the same id: table 2 stays counted).

``command_fingerprint`` is what is kept with the first write (the league's first event's
metadata, ``EventMetadata.command_fingerprint``) and compared with the fingerprint of whatever
arrives later under the id. The game service keeps its own per-game fingerprints
(``services.game.application.service.command_fingerprint``) in the same shape.
"""

from __future__ import annotations

import hashlib

import msgspec


class CommandIdReused(Exception):
    """A command id already spent on another command, or by another caller (409; nothing is
    stored)."""

    def __init__(self, command_id: str, where: str) -> None:
        self.command_id = command_id
        self.field = "command_id"
        super().__init__(
            f"command id {command_id!r} was used in {where} for another command (or by another "
            "caller); a retry repeats the same command, anything new needs a new command id"
        )


def command_fingerprint(kind: str, asked: object, actor: str | None) -> str:
    """sha256 of what was asked (``kind`` of command and its content, as the caller asked it:
    nothing the server chose for it, such as a random seed) and by whom, as canonical JSON."""
    canonical = msgspec.json.encode(
        {"kind": kind, "actor": actor, "asked": msgspec.to_builtins(asked)}, order="sorted"
    )
    return hashlib.sha256(canonical).hexdigest()


def is_retry(
    command_id: str,
    where: str,
    fingerprint: str,
    *,
    stored: str | None,
    stored_actor: str | None,
    actor: str | None,
) -> bool:
    """True: the command spent under ``command_id`` (``stored``: its fingerprint) is this very
    one, a retry. ``CommandIdReused`` when it is another command or another caller's. A command
    stored before fingerprints were kept (``stored`` None) is a retry of its own caller only."""
    if stored_actor != actor or (stored is not None and stored != fingerprint):
        raise CommandIdReused(command_id, where)
    return True
