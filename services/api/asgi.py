"""The ASGI entry point for servers (`uvicorn services.api.asgi:app`): settings from the
environment, read once when a worker imports this module."""

from services.api.app import create_app

app = create_app()
