"""Which environment variables does bang-league read? Asked of the code, not written down.

Every settings loader reads a mapping (`from_env(env)`); handing it a `RecordingEnv` that
remembers each key asked for gives the exact names, so a deployment file (compose, a k8s
manifest) can be checked against what the code really reads and a renamed variable is caught.
A loader that should be covered is listed in `SETTINGS_LOADERS` as "module:Class.method" (or
"module:function"); one whose module is not there yet is skipped.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

SETTINGS_LOADERS: tuple[str, ...] = (
    "infra.settings:InfraSettings.from_env",
    "services.runtime.settings:RuntimeSettings.from_env",
    "services.api.settings:ApiSettings.from_env",
)


class RecordingEnv(Mapping[str, str]):
    """An empty environment that remembers every key it was asked for."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return default

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _resolve(target: str) -> Callable[[Mapping[str, str]], object] | None:
    module_name, _, attribute_path = target.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and module_name.startswith(error.name):
            return None  # that service has no settings module (yet)
        raise
    for part in attribute_path.split("."):
        found = getattr(found, part, None)
        if found is None:
            return None
    return found  # type: ignore[no-any-return]


def env_vars_read(loaders: tuple[str, ...] = SETTINGS_LOADERS) -> set[str]:
    """The names of every environment variable the listed settings loaders read."""
    env = RecordingEnv()
    for target in loaders:
        loader = _resolve(target)
        if loader is not None:
            loader(env)
    return env.asked
