"""What resolving a service gives back: an address, where it came from, how to let it go."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal, Self

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
