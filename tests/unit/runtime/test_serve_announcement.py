"""What ``bang-league serve --demo`` prints: every link whole, even in a narrow terminal (a link
cut short with "…" cannot be followed), and the demo's sign-in."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from bang_cli.serve import announcement
from services.league.demo import DEMO_LOGIN, demo_pages
from services.runtime.infra import Endpoints
from services.runtime.serve import Urls

API = "http://127.0.0.1:8000"


def printed(width: int) -> str:
    urls = Urls(
        api=API,
        graphql=f"{API}/graphql",
        dashboard=f"{API}/",
        metrics=f"{API}/metrics",
        consumer_health="http://127.0.0.1:40001/health",
        worker_health="http://127.0.0.1:40002/health",
        swagger=f"{API}/schema/swagger",
        scalar=f"{API}/schema/scalar",
        openapi=f"{API}/schema/openapi.json",
        demo_password="pw_Example-123",
    )
    endpoints = Endpoints(
        dsn="postgresql://postgres:@/postgres?host=/somewhere/long/enough/to/fold/.bang-data/pg",
        redis_url="unix:///somewhere/long/enough/to/fold/.bang-data/redis/redis.sock",
        postgres_source="embedded",  # type: ignore[arg-type]
        redis_source="embedded",  # type: ignore[arg-type]
        data_dir=Path("/somewhere"),
    )
    console = Console(width=width, record=True, color_system=None)
    console.print(announcement(urls, endpoints, demo=True))
    return console.export_text()


def unfolded(text: str) -> str:
    """The table's second column, its folded lines joined again."""
    cells = []
    for line in text.splitlines():
        parts = line.split("│")
        if len(parts) == 4:  # │ label │ value │
            label, value = parts[1].strip(), parts[2].strip()
            if label or not cells:
                cells.append(value)
            else:
                cells[-1] += value
    return "\n".join(cells)


def test_every_link_is_printed_whole_even_in_a_narrow_terminal() -> None:
    for width in (60, 80, 200):
        text = printed(width)
        assert "…" not in text, width
        values = unfolded(text).splitlines()
        for _, url in demo_pages(API):
            assert url in values, (width, url)
        for page in ("/graphql", "/schema/swagger", "/schema/scalar", "/schema/openapi.json"):
            assert API + page in values, (width, page)
        # words may fold at a space, which the table does not print
        assert f"login{DEMO_LOGIN}passwordpw_Example-123" in [v.replace(" ", "") for v in values], width
