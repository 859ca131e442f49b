"""Accessibility and polish, in a real browser: every page fits a phone's screen, the game views
work from the keyboard alone, the dice are drawn (not emoji) and named, a finished game shows its
result rather than whose turn it is, and the replay's event list never names a role the table
beside it still hides."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Browser, Page, expect

from services.game.edge.tokens import TokenVault
from tests.browser.conftest import PAGE_TIMEOUT_MS, SCREENSHOTS, Person, screenshot, sign_in
from tests.browser.seed import Season

PHONE = {"width": 390, "height": 844}


@asynccontextmanager
async def phone_page(chromium: Browser, base_url: str) -> AsyncIterator[Page]:
    """A page in a context of its own, the size of a phone held upright."""
    context = await chromium.new_context(
        base_url=base_url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1
    )
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        await context.close()
    assert not errors, f"JavaScript errors on the phone: {errors}"


async def _loaded(page: Page) -> None:
    """The page has drawn its answer: a heading, and nothing still loading."""
    await expect(page.locator("main h1").first).to_be_visible()
    await expect(page.locator("main .notice.loading")).to_have_count(0)


async def _overflow(page: Page) -> dict[str, int]:
    """The page's width against the screen's. A phone widens its layout viewport to fit a page
    that is too wide (innerWidth grows with it), so the screen is also the phone's own width."""
    sizes: dict[str, int] = await page.evaluate(
        """() => ({
          scroll: document.documentElement.scrollWidth,
          inner: Math.min(window.innerWidth, screen.width),
        })"""
    )
    return sizes


def _pages(season: Season) -> list[tuple[str, str]]:
    game = season.games[0]
    league, tournament = season.league_id, season.tournament_id
    return [
        ("leaderboard", "/#/leaderboard"),
        ("standings", f"/#/standings?league={league}&season={season.season_id}"),
        ("tournament", f"/#/tournament?league={league}&tournament={tournament}"),
        ("games", "/#/games"),
        ("player", f"/#/player/{season.members[0]}"),
        ("live", f"/#/game/{game}/live"),
        ("replay", f"/#/game/{game}/replay?v=100000"),
        ("verify", f"/#/game/{game}/verify"),
        ("signin", "/#/signin"),
    ]


async def test_every_page_fits_a_phone_screen_without_scrolling_sideways(
    chromium: Browser, base_url: str, season: Season, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    person = await people("phone-reader", "Phoebe Small")
    async with phone_page(chromium, base_url) as page:
        for name, path in _pages(season):
            await page.goto(path)
            await _loaded(page)
            sizes = await _overflow(page)
            await screenshot(page, f"phone-{name}")
            assert sizes["scroll"] <= sizes["inner"], (name, sizes)
            # the header's links wrap onto the screen, none is pushed off its right edge
            for link in await page.locator("header a, header button").all():
                box = await link.bounding_box()
                assert box is not None, name
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (name, box)

        # the measure sees a page too wide for the screen (a phone would zoom out to fit it)
        await page.evaluate(
            "() => { const wide = document.createElement('div'); wide.style.width = '600px';"
            " wide.style.height = '10px'; wide.id = 'too-wide'; document.body.append(wide); }"
        )
        sizes = await _overflow(page)
        assert sizes["scroll"] > PHONE["width"] and sizes["inner"] == PHONE["width"], sizes
        await page.evaluate("() => document.getElementById('too-wide').remove()")

        # a wide table scrolls inside its own box, not the page
        await page.goto(f"/#/standings?league={season.league_id}&season={season.season_id}")
        await _loaded(page)
        table = page.locator("table.data").first
        await expect(table).to_be_visible()
        assert await table.evaluate("t => getComputedStyle(t).overflowX") == "auto"

        await sign_in(page, person)
        await page.goto("/#/home")
        await _loaded(page)
        sizes = await _overflow(page)
        await screenshot(page, "phone-home")
        assert sizes["scroll"] <= sizes["inner"], ("home", sizes)


CONTROLS = {"A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"}
"""What the keyboard may stop on: real controls, never a div made clickable."""
SCROLL_REGIONS = {"game-log"}
"""Labelled boxes that scroll on their own (the game log): they take the focus so that the
keyboard can scroll them (WCAG 2.1.1), and are never clickable."""


def _stop_allowed(focused: dict[str, Any]) -> bool:
    return focused["tag"] in CONTROLS or (focused["testid"] in SCROLL_REGIONS and bool(focused["text"]))

REAL_CONTROLS = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {
    tag: el.tagName,
    id: el.id,
    type: el.getAttribute("type"),
    href: el.getAttribute("href"),
    testid: el.dataset.testid ?? null,
    text: (el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 60),
    outline: style.outlineStyle === "none" ? 0 : parseFloat(style.outlineWidth),
    version: el.closest("li[data-version]")?.dataset.version ?? null,
  };
}"""


async def _focused(page: Page) -> dict[str, Any]:
    focused: dict[str, Any] = await page.evaluate(REAL_CONTROLS)
    return focused


async def _tab_to(
    page: Page, wanted: Callable[[dict[str, Any]], bool], *, back: bool = False
) -> dict[str, Any]:
    """Press Tab (Shift+Tab) until ``wanted`` holds for the focused element; every element on
    the way is a real control with a visible focus ring."""
    for _ in range(80):
        await page.keyboard.press("Shift+Tab" if back else "Tab")
        focused = await _focused(page)
        assert _stop_allowed(focused), focused
        assert focused["tag"] != "A" or focused["href"], focused
        assert focused["outline"] >= 2, f"no visible focus on {focused}"
        if wanted(focused):
            return focused
    raise AssertionError("never reached the control by keyboard")


async def test_every_page_is_walked_with_tab_and_shows_where_the_focus_is(page: Page, season: Season) -> None:
    """Tab from the top of each page to its end: every stop is a real control (a link with an
    address, a button, a field, a summary) and wears a visible focus ring."""
    for name, path in _pages(season):
        if name == "replay":
            continue  # its hundreds of events are walked in the test below
        await page.goto("about:blank")
        await page.goto(path)
        await _loaded(page)
        await page.wait_for_load_state("networkidle")  # nothing redrawn under the focus
        stops: list[dict[str, Any]] = []
        for _ in range(150):
            await page.keyboard.press("Tab")
            focused = await _focused(page)
            if focused["tag"] == "BODY":
                break
            assert _stop_allowed(focused), (name, focused)
            assert focused["tag"] != "A" or focused["href"], (name, focused)
            assert focused["outline"] >= 2, f"no visible focus on {focused} ({name})"
            stops.append(focused)
        if name == "signin":  # the sign-in page puts the focus in its first field itself
            assert [s["tag"] for s in stops][-1:] == ["BUTTON"], stops
            continue
        assert stops and stops[0]["text"] == "Skip to content", (name, stops[:1])
        assert any(s["text"] == "Games" for s in stops), (name, "the header's links are reached")

    # the leaderboard's tabs are links: Enter on one shows that role's board
    await page.goto("/#/leaderboard")
    await _loaded(page)
    await _tab_to(page, lambda f: f["testid"] == "tab-sheriff")
    await page.keyboard.press("Enter")
    await expect(page.get_by_test_id("tab-sheriff")).to_have_attribute("aria-selected", "true")
    assert "role=sheriff" in page.url


async def test_the_live_and_replay_views_work_from_the_keyboard_alone(page: Page, season: Season) -> None:
    game = season.games[0]
    await page.goto(f"/#/game/{game}/live")
    await expect(page.get_by_test_id("board")).to_be_visible()

    # the first Tab shows the skip link; Enter puts the focus on the page's content, same address
    await page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    await expect(skip).to_be_focused()
    box = await skip.bounding_box()
    assert box is not None and box["x"] >= 0, box
    await screenshot(page, "keyboard-skip-link")
    await page.keyboard.press("Enter")
    await expect(page.locator("main")).to_be_focused()
    assert page.url.endswith(f"#/game/{game}/live")
    await expect(page.get_by_test_id("board")).to_be_visible()

    # from the content, Tab reaches the link to the replay; Enter follows it
    await _tab_to(page, lambda f: f["text"] == "Replay and audit")
    await page.keyboard.press("Enter")
    await expect(page.get_by_test_id("replay-position")).to_contain_text("Event 1 of ")
    last = int(await page.get_by_test_id("replay-slider").get_attribute("max") or 0)
    position = page.get_by_test_id("replay-position")

    # the step buttons and the slider, by keyboard only
    await _tab_to(page, lambda f: f["testid"] == "replay-next")
    await page.keyboard.press("Enter")
    await expect(position).to_have_text(f"Event 2 of {last}")
    await page.keyboard.press("Space")
    await expect(position).to_have_text(f"Event 3 of {last}")
    await screenshot(page, "keyboard-replay-next")
    await _tab_to(page, lambda f: f["testid"] == "replay-slider", back=True)
    await page.keyboard.press("ArrowRight")
    await expect(position).to_have_text(f"Event 4 of {last}")
    await page.keyboard.press("End")
    await expect(position).to_have_text(f"Event {last} of {last}")
    await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(last))
    await _tab_to(page, lambda f: f["testid"] == "replay-previous", back=True)
    await page.keyboard.press("Enter")
    await expect(position).to_have_text(f"Event {last - 1} of {last}")
    await _tab_to(page, lambda f: f["testid"] == "replay-first", back=True)
    await page.keyboard.press("Enter")
    await expect(position).to_have_text(f"Event 1 of {last}")
    await _tab_to(page, lambda f: f["testid"] == "replay-last")
    await page.keyboard.press("Enter")
    await expect(position).to_have_text(f"Event {last} of {last}")

    # an event of the timeline is a button: Enter jumps there
    focused = await _tab_to(page, lambda f: f["version"] is not None and int(f["version"]) > 1)
    await page.keyboard.press("Enter")
    await expect(position).to_have_text(f"Event {focused['version']} of {last}")
    table = page.get_by_test_id("replay-table")
    await expect(table).to_have_attribute("data-version", str(focused["version"]))
    await screenshot(page, "keyboard-replay-timeline")


FACES = [
    ("arrow", "base", "Arrow"),
    ("dynamite", "base", "Dynamite"),
    ("shoot1", "base", "1"),
    ("shoot2", "base", "2"),
    ("beer", "base", "Beer"),
    ("gatling", "base", "Gatling"),
    ("broken_arrow", "coward", "Broken arrow"),
    ("bullet", "loudmouth", "Bullet"),
    ("shoot1x2", "loudmouth", "1 ×2"),
    ("shoot2x2", "coward", "2 ×2"),
    ("beerx2", "coward", "Beer ×2"),
    ("gatlingx2", "loudmouth", "Gatling ×2"),
    ("whiskey", "duel", "Whiskey"),
    ("duel", "duel", "Duel"),
    ("tumbleweed", "base", "Tumbleweed"),
]
"""Every face the page knows, on a die of a kind that has it, and its accessible name; the last
is a face no module has yet: it shows its name."""

DRAW_ALL = """async (faces) => {
  const { die } = await import("/dashboard/assets/js/board.js");
  const list = document.createElement("ul");
  list.className = "dice";
  list.dataset.testid = "every-face";
  for (const [face, kind] of faces) list.append(die(face, kind));
  document.body.append(list);
}"""

RASTERISE = """async (svg) => {
  // draw the SVG on a canvas with the styles the page gave it: what a reader sees, pixel by pixel
  const clone = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")];
  const to = [clone, ...clone.querySelectorAll("*")];
  from.forEach((node, i) => {
    const style = getComputedStyle(node);
    for (const p of ["fill", "stroke", "stroke-width", "font-family", "font-size", "font-weight"]) {
      to[i].style.setProperty(p, style.getPropertyValue(p));
    }
  });
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  clone.setAttribute("width", w * 2);
  clone.setAttribute("height", h * 2);
  const image = new Image();
  const markup = new XMLSerializer().serializeToString(clone);
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(markup);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = w * 2;
  canvas.height = h * 2;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] > 200) {
      painted += 1;
      colours.add(`${data[i] >> 5},${data[i + 1] >> 5},${data[i + 2] >> 5}`);
    }
  }
  return { share: painted / (canvas.width * canvas.height), colours: colours.size };
}"""


async def test_every_die_face_is_drawn_and_named(page: Page, season: Season) -> None:
    await page.goto("/#/games")
    await _loaded(page)
    await page.evaluate(DRAW_ALL, [[face, kind] for face, kind, _ in FACES])
    dice = page.get_by_test_id("every-face")
    await dice.scroll_into_view_if_needed()
    for face, kind, name in FACES:
        die = dice.locator(f'li[data-face="{face}"]')
        await expect(die).to_have_attribute("data-kind", kind)
        drawing = die.get_by_role("img", name=name, exact=True)
        await expect(drawing).to_be_visible()
        assert await drawing.evaluate("svg => svg.tagName") == "svg"
        box = await drawing.bounding_box()
        assert box is not None and box["width"] >= 30 and box["height"] >= 30, (face, box)
        if face == "tumbleweed":
            await expect(die).to_contain_text("Tumbleweed")
            continue
        # drawn: shapes fill a good part of the box, in several colours (never an empty box)
        seen = await drawing.evaluate(RASTERISE)
        assert seen["share"] > 0.12 and seen["colours"] >= 3, (face, seen)
        if face.endswith("x2"):
            await expect(die).to_have_class(re.compile(r"\bdie-double\b"))
        if kind != "base":
            await expect(die).to_have_class(re.compile(rf"\bdie-kind-{kind}\b"))
            await expect(die.get_by_test_id("die-kind")).to_have_text(kind.title())
    beer = await dice.locator('li[data-face="beer"]').get_by_role("img").evaluate(RASTERISE)
    assert beer["share"] > 0.25, beer  # the mug, its foam and handle
    await dice.screenshot(path=str(SCREENSHOTS / "dice-every-face.png"))

    # the dice of a real game are drawn the same way: every die on the table is a named drawing
    await page.goto(f"/#/game/{season.games[0]}/replay?v=100000")
    table_dice = page.get_by_test_id("replay-table").get_by_test_id("dice").locator("li")
    await expect(table_dice.first).to_be_visible()
    for index in range(await table_dice.count()):
        face = await table_dice.nth(index).get_attribute("data-face")
        if face is not None:
            drawing = table_dice.nth(index).get_by_role("img")
            await expect(drawing).to_have_attribute("aria-label", _name_of(face))


def _name_of(face: str) -> str:
    return next(name for f, _, name in FACES if f == face)


async def test_a_finished_game_shows_its_result_and_no_whose_turn(page: Page, season: Season) -> None:
    game = season.games[0]
    await page.goto(f"/#/game/{game}/live")
    board = page.get_by_test_id("board")
    await expect(board.get_by_test_id("status")).to_have_text("Ended")
    outcome = board.get_by_test_id("outcome")
    await expect(outcome).to_have_text(re.compile(r"^(Law wins|Outlaws win|Renegade wins|Nobody wins)$"))
    await expect(board.get_by_test_id("active-player")).to_have_count(0)
    await expect(board).not_to_contain_text("Whose turn")
    await expect(board).not_to_contain_text("Their turn")
    await expect(page.get_by_test_id("connection")).to_have_text("game over")
    await expect(page.get_by_test_id("feed")).to_contain_text("the game is over")
    await screenshot(page, "live-finished")

    # the replay: the last step has the result too, a step in the middle still says whose turn
    await page.goto(f"/#/game/{game}/replay?v=100000")
    table = page.get_by_test_id("replay-table")
    await expect(table.get_by_test_id("outcome")).to_have_text(await outcome.inner_text())
    await expect(table).not_to_contain_text("Whose turn")
    await page.get_by_test_id("replay-slider").fill("20")
    await expect(table).to_have_attribute("data-version", "20")
    await expect(table.get_by_test_id("active-player")).not_to_have_text("—")
    await expect(table.get_by_test_id("outcome")).to_have_count(0)


# --- the replay's event list and hidden roles ------------------------------------------------

SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
    {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
]
SWAP = {"bob": "renegade", "dee": "outlaw"}
SWAPPED = [{**seat, "role": SWAP.get(seat["member_id"], seat["role"])} for seat in SEATS]
"""The same table with p2's and p4's hidden roles swapped: nothing else differs."""


class _TableGame:
    """A base-game table game its scorekeeper enters over REST: p1 (the Sheriff) shoots p2 with
    every die until p2 is out; everyone else rolls five dynamite (a life each, nothing else)."""

    def __init__(self, client: httpx.AsyncClient, token: str, game_id: str) -> None:
        self.client, self.auth, self.game_id = client, {"Authorization": f"Bearer {token}"}, game_id
        self.entered: list[str] = []

    async def create(self, seats: list[dict[str, str]]) -> None:
        response = await self.client.post(
            "/games",
            json={"command_id": f"create-{self.game_id}", "game_id": self.game_id, "mode": "table",
                  "player_count": 4, "seats": seats},
            headers=self.auth,
        )  # fmt: skip
        assert response.status_code == 201, response.text

    async def enter(self, command: str) -> dict[str, Any]:
        self.entered.append(command)
        response = await self.client.post(
            f"/games/{self.game_id}/commands",
            json={"command": command, "command_id": f"{self.game_id}-{len(self.entered)}"},
            headers=self.auth,
        )
        assert response.status_code == 200, (command, response.text)
        state: dict[str, Any] = response.json()["state"]
        return state

    async def play_until_p2_is_out(self) -> dict[str, Any]:
        for _ in range(200):
            read = await self.client.get(f"/games/{self.game_id}", headers=self.auth)
            state: dict[str, Any] = read.json()
            if not next(p for p in state["players"] if p["id"] == "p2")["alive"]:
                return state
            asked = state["awaiting"]
            if asked["decision"] == "roll":
                face = "shoot1" if asked["player"] == "p1" else "dynamite"
                await self.enter(f"{asked['player']} roll {' '.join([face] * len(asked['dice']))}")
                continue
            legal: list[str] = state["legal_commands"]
            at_p2 = [c for c in legal if c.endswith(" p2") and " target " in c]
            keep = [c for c in legal if " reroll" not in c]
            await self.enter((at_p2 or keep or legal)[0])
        raise AssertionError("p2 was never eliminated")


async def _timeline_at(page: Page, game_id: str, version: int) -> list[str]:
    await page.goto("about:blank")
    await page.goto(f"/#/game/{game_id}/replay?v={version}")
    await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(version))
    lines: list[str] = await page.get_by_test_id("timeline").locator("li").all_inner_texts()
    return [*lines, await page.get_by_test_id("current-event").inner_text()]


async def test_the_replay_names_no_role_the_table_still_hides(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        token = await TokenVault(pool).issue_organiser("browser-accessibility")
    finally:
        await pool.close()
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        first, second = _TableGame(client, token, "a11y-roles-a"), _TableGame(client, token, "a11y-roles-b")
        await first.create(SEATS)
        await second.create(SWAPPED)
        end = await first.play_until_p2_is_out()
        for command in first.entered:
            await second.enter(command)  # the same commands are legal: the roles are all that differs
        assert (await client.get(f"/games/{second.game_id}")).json()["version"] == end["version"]
        events = (await client.get(f"/games/{first.game_id}/events", params={"limit": 500})).json()
        out = next(
            e["version"] for e in events if e["type"] == "PlayerEliminated" and e["data"]["player"] == "p2"
        )
        # the last step whose table is from before the elimination (a step shows the table after
        # its command's whole batch of events, and the shot that kills is in the same batch)
        before = out - 1
        while (await client.get(f"/games/{first.game_id}/versions/{before}")).json()["version"] >= out:
            before -= 1

    # at every step before p2 is out, the two replays read the same, all events listed
    steps = sorted({1, 2, 3, before // 2, before})
    for version in steps:
        a = await _timeline_at(page, first.game_id, version)
        b = await _timeline_at(page, second.game_id, version)
        assert a == b, (version, [(x, y) for x, y in zip(a, b, strict=True) if x != y])
        assert any("p2 (?) eliminated" in line for line in a), a
        assert not any(word in line for line in a for word in ("outlaw", "renegade")), a
    await screenshot(page, "replay-roles-hidden")

    # from the elimination on, the table shows p2's role and so do the lines (they differ now)
    a = await _timeline_at(page, first.game_id, end["version"])
    b = await _timeline_at(page, second.game_id, end["version"])
    assert any("p2 (outlaw) eliminated" in line for line in a), a
    assert any("p2 (renegade) eliminated" in line for line in b), b
    assert any("game started: p1 sheriff" in line and "p2 outlaw" in line for line in a), a
    await screenshot(page, "replay-roles-revealed")
