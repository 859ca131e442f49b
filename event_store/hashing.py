"""The per-stream hash chain that lets a disputed game prove nobody edited its history.

Each event stores `prev_hash` (the hash of the event before it in its stream; 32 zero bytes
for version 1) and `hash` = SHA-256 over this exact byte string:

    b"bang-event-v1"                       format tag, 13 bytes
    prev_hash                              32 bytes
    u32(len(stream))     stream            UTF-8
    u64(version)                           1 for the stream's first event
    event_id                               16 bytes, UUID in network order
    u32(len(type))       type              UTF-8
    u32(schema_version)                    as stored (before any upcasting)
    u32(len(data))       data              the canonical JSON bytes stored in `events.data`
    u32(len(metadata))   metadata          the canonical JSON bytes stored in `events.metadata`

Integers are unsigned big-endian. Length prefixes make the encoding unambiguous (no two
different events give the same bytes). The global position and `recorded_at` are not
covered: the server assigns them inside the insert, after the hash is computed.
"""

from __future__ import annotations

import hashlib
import struct
import uuid

HASH_FORMAT_TAG = b"bang-event-v1"
GENESIS_HASH = bytes(32)

_U32 = struct.Struct(">I")
_U64 = struct.Struct(">Q")


def event_hash(
    *,
    prev_hash: bytes,
    stream: str,
    version: int,
    event_id: uuid.UUID,
    event_type: str,
    schema_version: int,
    data: bytes,
    metadata: bytes,
) -> bytes:
    stream_bytes = stream.encode()
    type_bytes = event_type.encode()
    digest = hashlib.sha256(HASH_FORMAT_TAG)
    digest.update(prev_hash)
    digest.update(_U32.pack(len(stream_bytes)))
    digest.update(stream_bytes)
    digest.update(_U64.pack(version))
    digest.update(event_id.bytes)
    digest.update(_U32.pack(len(type_bytes)))
    digest.update(type_bytes)
    digest.update(_U32.pack(schema_version))
    digest.update(_U32.pack(len(data)))
    digest.update(data)
    digest.update(_U32.pack(len(metadata)))
    digest.update(metadata)
    return digest.digest()
