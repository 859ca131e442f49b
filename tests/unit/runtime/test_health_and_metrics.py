"""The health/metrics endpoint of consumers and workers, and the API's /metrics handler."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from services.runtime.health import HealthServer, probe
from services.runtime.metrics import count_command, metrics_handler, record_lag


def test_health_server_answers_health_and_metrics() -> None:
    state = {"healthy": True}
    server = HealthServer(0, lambda: (state["healthy"], {"projections": {"x": {"lag": 0}}}), host="127.0.0.1")
    server.start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        record_lag("unit-test-projection", checkpoint=7, head=10)
        healthy, body = probe(f"{base}/health")
        assert healthy and '"status": "ok"' in body
        ok, metrics = probe(f"{base}/metrics", limit=1_000_000)
        assert ok and 'bang_projection_lag_events{projection="unit-test-projection"} 3.0' in metrics
        state["healthy"] = False
        healthy, body = probe(f"{base}/health")
        assert not healthy and "503" in body
    finally:
        server.close()


def test_probe_reports_an_unreachable_server() -> None:
    healthy, said = probe("http://127.0.0.1:9/health", timeout=0.5)
    assert not healthy and said


def test_metrics_handler_serves_the_registry_in_litestar() -> None:
    count_command("play", "ok")
    with TestClient(Litestar(route_handlers=[metrics_handler()])) as client:
        response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert 'bang_commands_total{command="play",outcome="ok"}' in response.text
