"""The API explorers work with no internet (issue 20, finding 10): every request to a host other
than the API's is aborted, and GraphiQL at /graphql still shows its editor and answers a query,
and Swagger UI at /schema/swagger and Scalar at /schema/scalar still list the operations. The
``page`` fixture fails the test on a script error or on anything the Content-Security-Policy
refused."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Page, Route, expect

from tests.browser.conftest import PAGE_TIMEOUT_MS, screenshot


async def _offline(page: Page, base_url: str) -> list[str]:
    """Abort every request that is not to the API; the list of what was aborted."""
    api = urlsplit(base_url).netloc
    aborted: list[str] = []

    async def only_the_api(route: Route) -> None:
        if urlsplit(route.request.url).netloc == api:
            await route.continue_()
        else:
            aborted.append(route.request.url)
            await route.abort("internetdisconnected")

    await page.route("**/*", only_the_api)
    return aborted


async def test_graphiql_renders_its_editor_and_runs_a_query_offline(page: Page, base_url: str) -> None:
    aborted = await _offline(page, base_url)
    await page.goto("/graphql")
    editor = page.locator(".graphiql-query-editor .CodeMirror")
    await expect(editor).to_be_visible()
    await expect(page.get_by_text("Loading GraphiQL")).to_have_count(0)
    await editor.click()
    await page.keyboard.press("Control+A")
    await page.keyboard.type("{ __typename")
    await page.keyboard.press("Control+Enter")
    await expect(page.locator(".graphiql-response")).to_contain_text('"__typename": "Query"')
    await screenshot(page, "graphiql-offline")
    assert aborted == []


async def test_swagger_ui_shows_the_operations_offline(page: Page, base_url: str) -> None:
    aborted = await _offline(page, base_url)
    await page.goto("/schema/swagger")
    await expect(page.locator(".opblock").first).to_be_visible()
    await expect(page.locator(".opblock-summary-path", has_text="/health").first).to_be_visible()
    assert await page.locator(".opblock").count() > 20
    await screenshot(page, "swagger-offline")
    assert aborted == []


async def test_scalar_shows_the_operations_offline(page: Page, base_url: str) -> None:
    aborted = await _offline(page, base_url)
    await page.goto("/schema/scalar")
    await expect(page.locator("h1", has_text="bang-league API").first).to_be_visible(timeout=PAGE_TIMEOUT_MS)
    await expect(page.get_by_text("/health", exact=True).first).to_be_attached()
    paths = await page.eval_on_selector_all(
        "body *", "els => els.filter(e => !e.children.length && /^\\/[a-z]/.test(e.textContent)).length"
    )
    assert paths > 20, paths
    await screenshot(page, "scalar-offline")
    assert aborted == []
