"""The registry of catch-up consumers: every projection the system runs, by name.

A service registers its projections by exposing `PROJECTIONS: list[ProjectionSpec]` in
`services/<service>/projections.py`; `discover()` imports each such module it finds. A spec
says how to build the projection in a running process, how to create its tables, and how to
empty them for a rebuild. The name is the subscription's checkpoint key: one spec is one
checkpoint row, and two processes running the same spec take turns on that row (the
subscription reads it `FOR UPDATE`), so scaling a consumer out is safe, if not faster.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg

import services
from event_store import Subscription
from services.runtime.context import RuntimeContext


class HasSubscription(Protocol):
    """A projection object that owns resources besides its subscription (a Redis client)."""

    subscription: Subscription

    async def close(self) -> None: ...


Built = Subscription | HasSubscription
Reset = Callable[[asyncpg.Connection], Awaitable[None]]
Prepare = Callable[[asyncpg.Pool], Awaitable[None]]
Companion = Callable[[RuntimeContext, asyncio.Event], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ProjectionSpec:
    """One registered projection.

    * `build(context)`: its `Subscription` (named `name`), or an object holding one as
      `.subscription` with an async `close()` for whatever else it opened;
    * `reset(connection)`: empty its read model; a rebuild runs it in the transaction that
      also deletes the checkpoint, so the read model and its position go back to 0 together;
    * `prepare(pool)`: create its tables (idempotent), run before any consumer starts;
    * `companion(context, stop)`: optional work that acts on the read model, run beside the
      subscription in every process that follows it, until `stop` is set (the game deadlines'
      sweeper). Several copies may run at once, so it must be safe to run twice; a rebuild does
      not run it. Its failure stops the process like the projection's own would.
    """

    name: str
    build: Callable[[RuntimeContext], Built]
    reset: Reset
    prepare: Prepare | None = None
    companion: Companion | None = None
    description: str = ""


class DuplicateProjection(ValueError):
    """Two specs under one name would share a checkpoint and corrupt each other."""


class UnknownProjection(LookupError):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(f"no projection named {name!r}; registered: {', '.join(sorted(known)) or 'none'}")
        self.name = name


def service_modules(module: str) -> list[str]:
    """`services.<svc>.<module>` for every service package that has that module.

    Looks at the files instead of importing each package: a service that has no such module
    is never imported, so its own import-time problems do not stop the others."""
    found = set()
    for root in services.__path__:
        for info in pkgutil.iter_modules([root]):
            package = Path(root) / info.name
            if info.ispkg and ((package / f"{module}.py").is_file() or (package / module).is_dir()):
                found.add(f"services.{info.name}.{module}")
    return sorted(found)


def discover() -> list[ProjectionSpec]:
    """The specs the services register themselves (their `projections.PROJECTIONS`)."""
    specs: list[ProjectionSpec] = []
    for module_name in service_modules("projections"):
        specs.extend(getattr(importlib.import_module(module_name), "PROJECTIONS", ()))
    return specs


def build_registry(specs: Iterable[ProjectionSpec]) -> dict[str, ProjectionSpec]:
    """Specs by name; two under one name would share a checkpoint, so that is refused."""
    registry: dict[str, ProjectionSpec] = {}
    for spec in specs:
        if spec.name in registry:
            raise DuplicateProjection(f"two projections are registered as {spec.name!r}")
        registry[spec.name] = spec
    return dict(sorted(registry.items()))


def registered() -> dict[str, ProjectionSpec]:
    """Every projection this deployment runs, by name."""
    return build_registry(discover())


def select(registry: dict[str, ProjectionSpec], names: Iterable[str]) -> list[ProjectionSpec]:
    chosen = []
    for name in names:
        if name not in registry:
            raise UnknownProjection(name, registry)
        chosen.append(registry[name])
    return chosen


def subscription_of(built: Built) -> Subscription:
    return built if isinstance(built, Subscription) else built.subscription


async def close_built(built: Any) -> None:
    close = getattr(built, "close", None)
    if close is not None and not isinstance(built, Subscription):
        await close()
