"""The projection registry: discovery, one name one checkpoint."""

from __future__ import annotations

import pytest

from event_store import Subscription
from services.runtime.context import RuntimeContext
from services.runtime.projections import (
    DuplicateProjection,
    ProjectionSpec,
    UnknownProjection,
    build_registry,
    registered,
    select,
    service_modules,
)


async def _reset(_connection: object) -> None:
    return None


def _spec(name: str, description: str = "") -> ProjectionSpec:
    def build(context: RuntimeContext) -> Subscription:
        return Subscription(context.store, name, lambda *_: None)  # type: ignore[arg-type, return-value]

    return ProjectionSpec(name=name, build=build, reset=_reset, description=description)  # type: ignore[arg-type]


def test_two_specs_under_one_name_are_refused() -> None:
    with pytest.raises(DuplicateProjection):
        build_registry([_spec("standings"), _spec("standings")])


def test_select_names_the_unknown_projection_and_the_known_ones() -> None:
    registry = build_registry([_spec("a"), _spec("b")])
    assert [s.name for s in select(registry, ["b"])] == ["b"]
    with pytest.raises(UnknownProjection, match=r"'c'.*a, b"):
        select(registry, ["c"])


def test_discovery_finds_every_service_projections_module() -> None:
    modules = service_modules("projections")
    registry = registered()
    assert all(m.startswith("services.") and m.endswith(".projections") for m in modules)
    assert {"league-standings", "ratings"} <= set(registry)
    for spec in registry.values():
        assert spec.name and callable(spec.build) and callable(spec.reset)
