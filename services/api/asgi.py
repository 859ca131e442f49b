"""The ASGI entry point for servers (`uvicorn services.api.asgi:app`): settings from the
environment, read once when a worker imports this module; every worker logs JSON lines
through the same redacting processors as the other processes."""

from services.api.app import create_app
from services.runtime.logging import configure_logging
from services.runtime.settings import RuntimeSettings

configure_logging("api", level=RuntimeSettings.from_env().log_level)
app = create_app()
