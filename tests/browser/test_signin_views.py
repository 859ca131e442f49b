"""Signing in and out, and accepting an invite, in the browser against the real API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from playwright.async_api import Browser, expect

from tests.browser.conftest import PASSWORD, Person, person_page, screenshot, sign_in


async def test_sign_in_shows_who_you_are_and_sign_out_ends_the_session(
    chromium: Browser, base_url: str, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    rosa = await people("rosa.signin", "Rosa Quick")
    async with person_page(chromium, base_url, "rosa") as page:
        await page.goto("/#/signin")
        await page.get_by_label("Login name").fill("rosa.signin")
        await page.get_by_label("Password").fill("not her password at all")
        await page.get_by_role("button", name="Sign in").click()
        # the API's own words, and still signed out
        await expect(page.get_by_test_id("form-error")).to_contain_text("login")
        await expect(page.get_by_test_id("signed-in-as")).to_have_count(0)
        await screenshot(page, "signin-refused")

        await sign_in(page, rosa)
        await expect(page.get_by_role("heading", name="Rosa Quick")).to_be_visible()
        await screenshot(page, "home-signed-in")
        token = await page.evaluate("JSON.parse(localStorage.getItem('bang-league.session')).token")

        await page.get_by_role("button", name="Sign out").click()
        await expect(page.get_by_role("button", name="Sign in")).to_be_visible()
        await expect(page.get_by_test_id("signed-in-as")).to_have_count(0)
    # signing out ended the session on the server, not only in the page
    async with httpx.AsyncClient(base_url=base_url) as client:
        assert (await client.get("/me", headers={"Authorization": f"Bearer {token}"})).status_code == 401


async def test_an_invite_link_opens_a_page_that_makes_the_account_and_signs_in(
    chromium: Browser, base_url: str, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    ada = await people("ada.founder", "Ada Founder")
    async with httpx.AsyncClient(base_url=base_url) as client:
        club = await client.post("/clubs", json={"name": "Invite Saloon"}, headers=ada.auth)
        assert club.status_code == 201, club.text
        club_id = club.json()["club_id"]
        issued = await client.post(
            f"/clubs/{club_id}/invites", json={"display_name": "Ben Newcomer"}, headers=ada.auth
        )
        assert issued.status_code == 201, issued.text
    secret = issued.json()["token"]
    async with person_page(chromium, base_url, "ben") as page:
        await page.goto(f"/#/invite/{secret}")
        await page.get_by_label("Login name").fill("ben.newcomer")
        await page.get_by_label("Choose a password").fill("short")
        await page.get_by_role("button", name="Create my account").click()
        # the browser's own minlength check stops it before the API is asked
        await expect(page.get_by_test_id("signed-in-as")).to_have_count(0)
        await page.get_by_label("Choose a password").fill(PASSWORD)
        await page.get_by_role("button", name="Create my account").click()
        await expect(page.get_by_test_id("signed-in-as")).to_have_text("Ben Newcomer")
        await expect(page.get_by_test_id("my-clubs")).to_contain_text("Invite Saloon")
        await screenshot(page, "invite-accepted-home")
        # the same link cannot make a second account
        await page.get_by_role("button", name="Sign out").click()
        await expect(page.get_by_role("button", name="Sign in")).to_be_visible()
        await page.goto(f"/#/invite/{secret}")
        await page.get_by_label("Login name").fill("ben.again")
        await page.get_by_label("Choose a password").fill(PASSWORD)
        await page.get_by_role("button", name="Create my account").click()
        await expect(page.get_by_test_id("form-error")).to_be_visible()
        await expect(page.get_by_test_id("signed-in-as")).to_have_count(0)
