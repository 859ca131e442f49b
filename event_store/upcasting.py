"""Schema evolution: upcasters turn old stored payloads into the current shape on read.

Stored events are never rewritten (their hashes cover the stored bytes); instead each read
runs the chain `(type, v) → v+1 → …` until no upcaster is registered for the next step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from event_store.errors import PayloadDecodeError

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Upcasters:
    """Registry of `(event type, from schema version) -> function(dict) -> dict`."""

    def __init__(self) -> None:
        self._steps: dict[tuple[str, int], Upcaster] = {}

    def register(self, event_type: str, from_version: int, upcaster: Upcaster) -> None:
        key = (event_type, from_version)
        if key in self._steps:
            raise ValueError(f"an upcaster for {event_type} v{from_version} is registered already")
        self._steps[key] = upcaster

    def upcaster(self, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator form: `@upcasters.upcaster("DiceRolled", 1)`."""

        def decorate(function: Upcaster) -> Upcaster:
            self.register(event_type, from_version, function)
            return function

        return decorate

    def __bool__(self) -> bool:
        return bool(self._steps)

    def upcast(
        self, event_type: str, schema_version: int, data: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """Apply every registered step from `schema_version`; return (new version, data)."""
        while (step := self._steps.get((event_type, schema_version))) is not None:
            data = step(data)
            if not isinstance(data, dict):
                raise PayloadDecodeError(
                    f"upcaster for {event_type} v{schema_version} returned "
                    f"{type(data).__name__}, not a dict"
                )
            schema_version += 1
        return schema_version, data
