"""The page shell (issue 20, finding 10): the security headers on every answer; the explorers'
pages (GraphiQL, Swagger UI and Scalar) load only the API's own files, each with its integrity
hash; the Scalar page alone allows inline styles, on its own answer; ``X-Forwarded-For`` counts
only from a configured proxy; a request whose headers never finish is cut off."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx
import pytest

from services.api import ApiSettings, create_app
from services.api.docs import SCALAR_PATH, SWAGGER_PATH
from services.api.explorers import scalar_assets
from services.api.headers import CONTENT_SECURITY_POLICY, SCALAR_CONTENT_SECURITY_POLICY
from services.api.settings import LimitSettings
from tests.integration.api.conftest import uvicorn_serving

MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css"}


class _Refs(HTMLParser):
    """What a page loads (``src``/``href`` of scripts and style sheets, with their integrity),
    and whatever inline script, style element or style attribute it has."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[tuple[str, str | None]] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "style" in found or any(name.startswith("on") for name in found):
            self.inline.append(f"<{tag}> with {sorted(found)}")
        if tag == "style":
            self.inline.append("<style>")
        if tag == "script":
            self._in_script = found.get("src") is None
            if found.get("src"):
                self.loads.append((str(found["src"]), found.get("integrity")))
        if tag == "link" and found.get("rel") == "stylesheet":
            self.loads.append((str(found["href"]), found.get("integrity")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(f"<script>{data.strip()[:40]}")


def refs_of(page: str) -> _Refs:
    parser = _Refs()
    parser.feed(page)
    return parser


def assert_secured(response: httpx.Response) -> None:
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, (response.url, dict(headers))
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"


async def test_every_answer_carries_the_security_headers(client: httpx.AsyncClient) -> None:
    answers = [
        await client.get("/", headers={"Accept": "text/html"}),
        await client.get("/dashboard/assets/js/main.js"),
        await client.get("/health"),
        await client.get("/metrics"),
        await client.get("/games/no-such-game"),  # a handler's 404
        await client.get("/no/such/page"),  # no route at all
        await client.post("/graphql", json={"query": "{ __typename }"}),
        await client.post("/graphql", content=b"{not json", headers={"content-type": "application/json"}),
        await client.get("/graphql", headers={"Accept": "text/html"}),
        await client.get(SWAGGER_PATH),
        await client.get("/schema/openapi.json"),
    ]
    assert {a.status_code for a in answers} >= {200, 400, 404}
    for answer in answers:
        assert_secured(answer)


async def test_the_dashboard_page_needs_nothing_the_policy_forbids(client: httpx.AsyncClient) -> None:
    page = (await client.get("/", headers={"Accept": "text/html"})).text
    refs = refs_of(page)
    assert refs.inline == []
    assert refs.loads and all(urlsplit(url).netloc == "" for url, _ in refs.loads), refs.loads


@pytest.mark.parametrize("path", ["/graphql", SWAGGER_PATH, SCALAR_PATH])
async def test_each_explorer_loads_only_its_own_files_each_with_its_integrity(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path, headers={"Accept": "text/html"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "http://" not in response.text and "https://" not in response.text
    refs = refs_of(response.text)
    assert refs.inline == [], refs.inline
    assert len(refs.loads) >= 2, refs.loads  # a bundle and our start-up script at least
    for url, integrity in refs.loads:
        parts = urlsplit(url)
        assert parts.scheme == "" and parts.netloc == "" and url.startswith("/"), url
        asset = await client.get(url)
        assert asset.status_code == 200, url
        suffix = "." + url.rsplit(".", 1)[1]
        assert asset.headers["content-type"].startswith(MEDIA_TYPES[suffix]), (url, asset.headers)
        assert_secured(asset)
        digest = base64.b64encode(hashlib.sha384(asset.content).digest()).decode()
        assert integrity == f"sha384-{digest}", url
        again = await client.get(url, headers={"If-None-Match": asset.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    assert (await client.get(f"{refs.loads[0][0].rsplit('/', 1)[0]}/nothing.js")).status_code == 404


def _directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


async def test_the_scalar_page_alone_allows_inline_styles(client: httpx.AsyncClient) -> None:
    """Scalar's bundle adds a ``<style>`` element and ``style`` attributes: its page's answer
    allows inline styles and nothing else more (no inline script, no ``eval``, still no frame);
    its files, and every other page, keep the strict policy."""
    page = await client.get(SCALAR_PATH)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == SCALAR_CONTENT_SECURITY_POLICY
    relaxed, strict = _directives(SCALAR_CONTENT_SECURITY_POLICY), _directives(CONTENT_SECURITY_POLICY)
    assert relaxed.pop("style-src") == "'self' 'unsafe-inline'"
    assert strict.pop("style-src") == "'self'"
    assert relaxed == strict and relaxed["script-src"] == "'self'"
    assert page.headers["x-frame-options"] == "DENY" and page.headers["x-content-type-options"] == "nosniff"
    icon = scalar_assets().path + "/scalar.svg"
    assert f'href="{icon}"' in page.text
    for url in (icon, scalar_assets().path + "/scalar.standalone.js"):
        asset = await client.get(url)
        assert asset.status_code == 200, url
        assert_secured(asset)
    assert (await client.get(icon)).headers["content-type"].startswith("image/svg+xml")
    assert_secured(await client.get(SWAGGER_PATH))


# -- X-Forwarded-For ---------------------------------------------------------------------------

PER_ADDRESS = 4


async def _answered_before_429(base_url: str, forwarded: list[str]) -> int:
    async with httpx.AsyncClient(base_url=f"http://{base_url}", timeout=30) as client:
        for answered, address in enumerate(forwarded):
            response = await client.get("/games/no-such-game", headers={"X-Forwarded-For": address})
            if response.status_code == 429:
                return answered
            assert response.status_code == 404, response.text
    return len(forwarded)


def _limited(api_settings: ApiSettings, **server: object) -> ApiSettings:
    limits = LimitSettings(rate_limit="1000/second", anonymous_rate_limit=f"{PER_ADDRESS} per 30 seconds")
    return dataclasses.replace(
        api_settings, limits=limits, server=dataclasses.replace(api_settings.server, **server)
    )


async def test_x_forwarded_for_from_an_unconfigured_address_is_ignored(api_settings: ApiSettings) -> None:
    """The client (127.0.0.1, no proxy configured) names a new address on every request: it is
    still limited as 127.0.0.1."""
    settings = _limited(api_settings)
    async with uvicorn_serving(create_app(settings), settings.server) as address:
        forwarded = [f"203.0.113.{n}" for n in range(1, 3 * PER_ADDRESS)]
        assert await _answered_before_429(address, forwarded) == PER_ADDRESS


async def test_x_forwarded_for_from_a_configured_proxy_names_the_client(api_settings: ApiSettings) -> None:
    settings = _limited(api_settings, trusted_proxies=("127.0.0.1",))
    async with uvicorn_serving(create_app(settings), settings.server) as address:
        # a new address each time: nobody's budget runs out
        forwarded = [f"198.51.100.{n}" for n in range(1, 3 * PER_ADDRESS)]
        assert await _answered_before_429(address, forwarded) == len(forwarded)
        # one address: its own budget, and the proxy's other clients keep theirs
        assert await _answered_before_429(address, ["192.0.2.9"] * (2 * PER_ADDRESS)) == PER_ADDRESS
        assert await _answered_before_429(address, ["192.0.2.10"]) == 1


def test_a_trusted_proxy_that_is_no_address_is_refused_at_start_up() -> None:
    with pytest.raises(ValueError, match=r"'proxy\.example' is not an IP address"):
        ApiSettings.from_env({"BANG_TRUSTED_PROXIES": "10.0.0.5, proxy.example"})
    settings = ApiSettings.from_env({"BANG_TRUSTED_PROXIES": "10.0.0.5, 192.168.1.0/24"})
    assert settings.server.trusted_proxies == ("10.0.0.5", "192.168.1.0/24")
    assert ApiSettings.from_env({}).server.trusted_proxies == ()


# -- half-sent requests --------------------------------------------------------------------------

HEADER_TIMEOUT = 1.0


async def _read_until_closed(reader: asyncio.StreamReader, most: float) -> tuple[bytes, float]:
    started = time.monotonic()
    data = await asyncio.wait_for(reader.read(), most)  # b"" or the answer, then EOF
    while data and not reader.at_eof():
        data += await asyncio.wait_for(reader.read(), most)
    return data, time.monotonic() - started


@pytest.mark.parametrize(
    ("sends", "trickles"),
    [(b"", False), (b"GE", False), (b"GET /health HTTP/1.1\r\nHost: x\r\n", False),
     (b"GET /health HTTP/1.1\r\nHost: x\r\n", True)],
    ids=["nothing", "part of a line", "headers without their end", "a byte at a time"],
)  # fmt: skip
async def test_a_request_whose_headers_never_finish_is_cut_off(
    api_settings: ApiSettings, sends: bytes, trickles: bool
) -> None:
    """Nothing at all, headers without their end, one byte at a time: 408 and closed after the
    header timeout, while a whole request on another connection is answered."""
    settings = dataclasses.replace(
        api_settings, server=dataclasses.replace(api_settings.server, header_timeout=HEADER_TIMEOUT)
    )
    async with uvicorn_serving(create_app(settings), settings.server) as address:
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(sends)
            await writer.drain()
            trickle = asyncio.create_task(_trickle(writer) if trickles else asyncio.sleep(0))
            answer, waited = await _read_until_closed(reader, most=HEADER_TIMEOUT + 5)
            trickle.cancel()
        finally:
            writer.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert HEADER_TIMEOUT - 0.2 <= waited <= HEADER_TIMEOUT + 3, waited
        async with httpx.AsyncClient(base_url=f"http://{address}") as client:
            assert (await client.get("/health")).status_code == 200


async def _trickle(writer: asyncio.StreamWriter) -> None:
    """A header line a byte every 0.3 s: each byte resets nothing."""
    for byte in b"X-Slow: 1":
        await asyncio.sleep(0.3)
        writer.write(bytes([byte]))
        await writer.drain()


async def test_a_keep_alive_connection_gets_the_timeout_for_its_next_request(
    api_settings: ApiSettings,
) -> None:
    settings = dataclasses.replace(
        api_settings, server=dataclasses.replace(api_settings.server, header_timeout=HEADER_TIMEOUT)
    )
    async with uvicorn_serving(create_app(settings), settings.server) as address:
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            await writer.drain()
            first = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            assert first.startswith(b"HTTP/1.1 200 "), first
            length = int(next(line.split(b":")[1] for line in first.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))  # fmt: skip
            await reader.readexactly(length)
            writer.write(b"GET /health HTTP/1.1\r\n")  # the next request, never finished
            await writer.drain()
            answer, waited = await _read_until_closed(reader, most=HEADER_TIMEOUT + 5)
        finally:
            writer.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert waited <= HEADER_TIMEOUT + 3
