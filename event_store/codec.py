"""The one place events are serialised: canonical JSON bytes and the Struct ↔ event mapping.

Canonical JSON is msgspec's compact JSON encoding (UTF-8, no whitespace) with object keys
sorted. The store keeps these exact bytes (PostgreSQL `json` keeps its input text verbatim),
and hashes them, so an audit never has to re-encode anything to check a hash.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgspec

from event_store.errors import PayloadDecodeError, UnknownEventType
from event_store.records import EventMetadata, NewEvent, RecordedEvent

_canonical_encoder = msgspec.json.Encoder(order="sorted")
_object_decoder = msgspec.json.Decoder()
_metadata_decoder = msgspec.json.Decoder(EventMetadata)


def canonical_json(value: Any) -> bytes:
    return _canonical_encoder.encode(value)


def canonical_data(data: dict[str, Any] | bytes) -> bytes:
    """The canonical bytes of an event's data, which must be a JSON object."""
    if isinstance(data, bytes | bytearray | memoryview):
        data = decode_object(bytes(data), "event data")
    elif not isinstance(data, dict):
        raise PayloadDecodeError(f"event data must be a dict or JSON bytes, not {type(data)}")
    try:
        return _canonical_encoder.encode(data)
    except (TypeError, msgspec.EncodeError) as error:
        raise PayloadDecodeError(f"event data is not JSON-encodable: {error}") from error


def canonical_metadata(metadata: EventMetadata) -> bytes:
    return _canonical_encoder.encode(metadata)


def decode_object(raw: bytes | str, what: str) -> dict[str, Any]:
    """Decode JSON that must be an object; PayloadDecodeError otherwise."""
    try:
        value = _object_decoder.decode(raw)
    except msgspec.DecodeError as error:
        raise PayloadDecodeError(f"{what} is not valid JSON: {error}") from error
    if not isinstance(value, dict):
        raise PayloadDecodeError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


def decode_metadata(raw: bytes | str) -> EventMetadata:
    try:
        return _metadata_decoder.decode(raw)
    except msgspec.DecodeError as error:
        raise PayloadDecodeError(f"event metadata does not decode: {error}") from error


StructT = TypeVar("StructT", bound=type[msgspec.Struct])


class _Registration(msgspec.Struct, frozen=True):
    cls: type[msgspec.Struct]
    type_name: str
    schema_version: int


class Mapper:
    """Maps domain event classes (msgspec Structs) to stored events and back.

    The store itself stays generic: services register their own classes here.

        mapper = Mapper()
        mapper.register(DiceRolled, schema_version=2)
        new = mapper.to_new_event(DiceRolled(...), event_id=..., metadata=...)
        event = mapper.to_domain(recorded)     # after the store's upcasters ran
    """

    def __init__(self) -> None:
        self._by_type: dict[str, _Registration] = {}
        self._by_class: dict[type[msgspec.Struct], _Registration] = {}

    def register(
        self, cls: StructT, *, type_name: str | None = None, schema_version: int = 1
    ) -> StructT:
        """Register `cls` under `type_name` (default: the class name); returns `cls`."""
        name = type_name or cls.__name__
        registration = _Registration(cls, name, schema_version)
        self._by_type[name] = registration
        self._by_class[cls] = registration
        return cls

    def registering(
        self, *, type_name: str | None = None, schema_version: int = 1
    ) -> Callable[[StructT], StructT]:
        """The decorator form of `register`."""
        return lambda cls: self.register(cls, type_name=type_name, schema_version=schema_version)

    @property
    def known_types(self) -> list[str]:
        return sorted(self._by_type)

    def type_of(self, event: msgspec.Struct) -> str:
        return self._registration_of(event).type_name

    def to_new_event(
        self,
        event: msgspec.Struct,
        *,
        event_id: uuid.UUID | None = None,
        metadata: EventMetadata | None = None,
    ) -> NewEvent:
        registration = self._registration_of(event)
        return NewEvent(
            type=registration.type_name,
            data=_canonical_encoder.encode(event),
            schema_version=registration.schema_version,
            event_id=event_id or uuid.uuid4(),
            metadata=metadata or EventMetadata(),
        )

    def to_new_events(
        self, events: Iterable[msgspec.Struct | NewEvent], metadata: EventMetadata | None = None
    ) -> list[NewEvent]:
        return [
            event if isinstance(event, NewEvent) else self.to_new_event(event, metadata=metadata)
            for event in events
        ]

    def to_domain(self, recorded: RecordedEvent) -> msgspec.Struct:
        """The domain event for a recorded one.

        Raises UnknownEventType for an unregistered type and PayloadDecodeError when the
        data (after upcasting) is at another schema version or does not fit the class.
        """
        registration = self._by_type.get(recorded.type)
        if registration is None:
            raise UnknownEventType(recorded.type, self.known_types)
        if recorded.schema_version != registration.schema_version:
            raise PayloadDecodeError(
                f"{recorded.stream} version {recorded.version}: {recorded.type} is stored at "
                f"schema version {recorded.schema_version} but {registration.cls.__name__} "
                f"expects {registration.schema_version} and no upcaster bridges the gap"
            )
        try:
            return msgspec.convert(recorded.data, registration.cls)
        except msgspec.ValidationError as error:
            raise PayloadDecodeError(
                f"{recorded.stream} version {recorded.version}: {recorded.type} data does not "
                f"fit {registration.cls.__name__}: {error}"
            ) from error

    def _registration_of(self, event: msgspec.Struct) -> _Registration:
        registration = self._by_class.get(type(event))
        if registration is None:
            raise UnknownEventType(type(event).__name__, self.known_types)
        return registration
