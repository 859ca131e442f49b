"""The API application: composes the services' REST controllers and GraphQL types into one
litestar app (``create_app``). Thin: no rules, no SQL — see docs/api.md."""

from services.api.app import create_app
from services.api.settings import ApiSettings

__all__ = ["ApiSettings", "create_app"]
