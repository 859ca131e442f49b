"""What resolving a service gives back (an address, where it came from, how to let it go),
and the one order every service is resolved in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal, Self, TypeVar

from infra.docker import docker_engine_answers
from infra.settings import DockerSettings

Source = Literal["env", "container", "embedded"]


@dataclass(slots=True)
class Resolved:
    """A running service: `url` to connect to, the `source` it came from.

    `close()` releases what resolving started (a container, this process's hold on an
    embedded server); it is idempotent and a no-op for a URL taken from the environment.
    """

    url: str
    source: Source
    _release: Callable[[], None] | None = field(default=None, repr=False)

    def close(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


R = TypeVar("R", bound=Resolved)


def resolve_in_order(
    kind: type[R],
    env_url: str | None,
    docker: DockerSettings,
    start_container: Callable[[], R],
    hold_embedded: Callable[[], R],
) -> R:
    """The project's one resolution order: 1. `env_url` (from the environment), verbatim;
    2. `start_container()` when containers are enabled and a Docker engine answers;
    3. `hold_embedded()`."""
    if env_url:
        return kind(env_url, "env")
    if docker.enabled and docker_engine_answers(docker.host, docker.probe_timeout_seconds):
        return start_container()
    return hold_embedded()
