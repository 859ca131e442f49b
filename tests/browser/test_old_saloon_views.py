"""Old Saloon on the dashboard, in a real browser: the Saloon dice (OS1) and the Chief's Arrow
(OS2) in the live and replay views of a table game whose dice the scorekeeper enters."""

from __future__ import annotations

import random
import re
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Page, expect

from event_store import PostgresEventStore
from services.game.application.lifecycle import GameMode
from services.game.application.service import SYSTEM, Actor, ActorKind, GameService, Member, NewGame
from services.game.bots import HeuristicBot
from services.game.edge.tokens import TokenVault
from services.game.fairness.vault import SeedVault
from services.game.rules.dice.commands import PassWindow, UseRole
from services.game.rules.dice.vocabulary import SpecialRole
from services.game.rules.ruleset import ruleset_of
from tests.browser.conftest import screenshot

SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
    {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
]

CHIEF_TO_P1 = ["p1 saloon loudmouth", "p1 roll arrow arrow arrow arrow arrow", "p1 arrow chief"]
"""p1 rolls the Loudmouth die (the fifth) and five arrows: the first token is the Chief's."""
ATTACK = ["p1 reroll 0 1 2 3 4", "p1 roll arrow arrow arrow arrow arrow"]
"""Five more arrows empty the pile: the Indians attack and every token, the Chief's too, goes back."""
DOUBLE_FACE = ["p1 reroll 0 1 2 3 4", "p1 roll beer dynamite shoot2 gatling shoot1x2"]
"""The last roll: the Loudmouth die shows a double face (two shoot1 symbols)."""
P2_TAKES_THE_CHIEF = ["p2 saloon coward", "p2 roll arrow beer shoot1 dynamite beerx2", "p2 arrow chief"]


class Table:
    """A table game with Old Saloon's OS1 and OS2, entered by its scorekeeper over REST."""

    def __init__(self, client: httpx.AsyncClient, token: str, game_id: str) -> None:
        self.client, self.auth, self.game_id = client, {"Authorization": f"Bearer {token}"}, game_id
        self.entered = 0

    async def create(self) -> None:
        response = await self.client.post(
            "/games",
            json={
                "command_id": f"create-{self.game_id}",
                "game_id": self.game_id,
                "mode": "table",
                "player_count": 4,
                "seats": SEATS,
                "ruleset": {"modules": ["OS1", "OS2"]},
            },
            headers=self.auth,
        )
        assert response.status_code == 201, response.text

    async def enter(self, command: str) -> dict[str, Any]:
        self.entered += 1
        response = await self.client.post(
            f"/games/{self.game_id}/commands",
            json={"command": command, "command_id": f"{self.game_id}-{self.entered}"},
            headers=self.auth,
        )
        assert response.status_code == 200, (command, response.text)
        state: dict[str, Any] = response.json()["state"]
        return state

    async def play_until(self, player: str, decision: str) -> dict[str, Any]:
        """Enter the first legal choice (and plain beers for a roll) until ``player`` is asked
        ``decision``."""
        for _ in range(60):
            read = await self.client.get(f"/games/{self.game_id}", headers=self.auth)
            state: dict[str, Any] = read.json()
            asked = state["awaiting"]
            if asked["player"] == player and asked["decision"] == decision:
                return state
            if asked["decision"] == "roll":
                await self.enter(f"{asked['player']} roll {' '.join(['beer'] * len(asked['dice']))}")
            else:
                await self.enter(state["legal_commands"][0])
        raise AssertionError(f"{player} was never asked {decision}")


async def _organiser(browser_dsn: str) -> str:
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        return await TokenVault(pool).issue_organiser("browser-old-saloon")
    finally:
        await pool.close()


async def _shows_version(page: Page, state: dict[str, Any]) -> None:
    await expect(page.get_by_test_id("version")).to_have_text(str(state["version"]))


async def test_live_view_shows_the_saloon_die_double_faces_and_the_chiefs_arrow_moving(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        table = Table(client, await _organiser(browser_dsn), "os-live")
        await table.create()
        await page.goto("/#/game/os-live/live")
        await expect(page.get_by_test_id("connection")).to_have_text("live")
        await expect(page.get_by_test_id("ruleset")).to_have_text("dice OS1 OS2")
        await expect(page.get_by_test_id("ruleset-detail")).to_contain_text("OS2 the Chief's Arrow")
        # a table game's anonymous viewer sees the Sheriff's role only
        roles = await page.get_by_test_id("role").all_inner_texts()
        assert roles.count("?") == 3, roles
        await expect(page.get_by_test_id("chief-arrow")).to_have_text("in the pile")

        # the Saloon die is the fifth, drawn apart from the base dice before it is rolled
        state = await table.enter(CHIEF_TO_P1[0])
        await _shows_version(page, state)
        dice = page.get_by_test_id("dice").locator("li")
        await expect(dice).to_have_count(5)
        assert await dice.evaluate_all("ds => ds.map(d => d.dataset.kind)") == ["base"] * 4 + ["loudmouth"]
        await expect(dice.nth(4).get_by_test_id("die-kind")).to_have_text("Loudmouth")
        await expect(dice.nth(0).get_by_test_id("die-kind")).to_have_count(0)

        # p1 takes the Chief's Arrow: the fact and his seat say so, and no one else's
        for command in CHIEF_TO_P1[1:]:
            state = await table.enter(command)
        await _shows_version(page, state)
        await expect(page.get_by_test_id("chief-arrow")).to_have_text("p1 Ann")
        await expect(page.get_by_test_id("seat-p1").get_by_test_id("chief-badge")).to_be_visible()
        await expect(page.get_by_test_id("seat-p1").get_by_test_id("arrows")).to_have_text("5")
        await expect(page.get_by_test_id("chief-badge")).to_have_count(1)
        await expect(page.get_by_test_id("feed")).to_contain_text("p1 took the Chief's Arrow (roll)")

        # the Indian attack sends it back to the pile
        for command in ATTACK:
            state = await table.enter(command)
        await _shows_version(page, state)
        await expect(page.get_by_test_id("chief-arrow")).to_have_text("in the pile")
        await expect(page.get_by_test_id("chief-badge")).to_have_count(0)

        # a double face on the Loudmouth die: one die, two symbols
        for command in DOUBLE_FACE:
            state = await table.enter(command)
        await _shows_version(page, state)
        double = page.get_by_test_id("dice").locator("li").nth(4)
        await expect(double).to_have_attribute("data-face", "shoot1x2")
        await expect(double).to_have_attribute("data-double", "true")
        await expect(double.get_by_role("img", name="1 ×2")).to_be_visible()
        await expect(page.locator("[data-double]")).to_have_count(1)
        await screenshot(page, "live-old-saloon")

        # on p2's turn the Chief's Arrow moves to him
        await table.play_until("p2", "saloon_die")
        for command in P2_TAKES_THE_CHIEF:
            state = await table.enter(command)
        await _shows_version(page, state)
        await expect(page.get_by_test_id("chief-arrow")).to_have_text("p2 Bob")
        await expect(page.get_by_test_id("seat-p2").get_by_test_id("chief-badge")).to_be_visible()
        await expect(page.get_by_test_id("chief-badge")).to_have_count(1)
        coward = page.get_by_test_id("dice").locator("li").nth(4)
        await expect(coward).to_have_attribute("data-kind", "coward")
        await expect(coward).to_have_attribute("data-face", "beerx2")
        await expect(coward).to_have_attribute("data-double", "true")


async def _version_of(page: Page, words: str) -> int:
    await expect(page.get_by_test_id("timeline")).to_contain_text(words)  # loaded
    versions: list[int] = await (
        page.get_by_test_id("timeline")
        .locator("li", has_text=words)
        .evaluate_all("items => items.map(item => Number(item.dataset.version))")
    )
    assert versions, f"no event reads {words!r}"
    return versions[0]


async def _step_to(page: Page, version: int) -> None:
    await page.get_by_test_id("replay-slider").fill(str(version))
    await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(version))


async def test_replay_shows_the_saloon_dice_and_the_chiefs_arrow_at_each_step(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        table = Table(client, await _organiser(browser_dsn), "os-replay")
        await table.create()
        for command in [*CHIEF_TO_P1, *ATTACK, *DOUBLE_FACE]:
            await table.enter(command)
        await table.play_until("p2", "saloon_die")
        for command in P2_TAKES_THE_CHIEF:
            await table.enter(command)

    await page.goto("/#/game/os-replay/replay")
    await expect(page.get_by_test_id("audit-verdict")).to_have_text(re.compile(r"^clean: "))
    await expect(page.get_by_test_id("audit-ruleset")).to_contain_text("replayed with dice OS1 OS2")
    timeline = page.get_by_test_id("timeline")
    await expect(timeline).to_contain_text("game created (table, 4 players, dice OS1 OS2)")
    await expect(timeline).to_contain_text("p1 rolls the loudmouth die")
    await expect(timeline).to_contain_text("p2 rolls the coward die")

    board = page.get_by_test_id("replay-table")
    await _step_to(page, await _version_of(page, "p1 took the Chief's Arrow"))
    await expect(board.get_by_test_id("chief-arrow")).to_have_text("p1 Ann")
    await expect(board.get_by_test_id("seat-p1").get_by_test_id("chief-badge")).to_be_visible()
    await expect(board.locator("[data-kind=loudmouth]")).to_have_count(1)

    await _step_to(page, await _version_of(page, "all arrows back to the pile"))
    await expect(board.get_by_test_id("chief-arrow")).to_have_text("in the pile")

    await _step_to(page, await _version_of(page, "Shoot 1 ×2"))
    double = board.locator("[data-face=shoot1x2][data-double=true][data-kind=loudmouth]")
    await expect(double).to_have_count(1)

    await _step_to(page, await _version_of(page, "p2 took the Chief's Arrow"))
    await expect(board.get_by_test_id("chief-arrow")).to_have_text("p2 Bob")
    await expect(board.get_by_test_id("seat-p2").get_by_test_id("chief-badge")).to_be_visible()
    await expect(board.locator("[data-kind=coward]")).to_have_count(1)
    await screenshot(page, "replay-old-saloon")


GHOST_RECORD: dict[str, Any] = {
    "format": "bang-dice-record",
    "version": 2,
    "game_type": "dice",
    "ruleset": {"modules": ["OS5"]},
    "seats": [
        {"player": "p1", "role": "sheriff", "character": "paul_regret"},
        {"player": "p2", "role": "outlaw", "character": "el_gringo"},
        {"player": "p3", "role": "outlaw", "character": "black_jack"},
        {"player": "p4", "role": "renegade", "character": "lucky_duke"},
        {"player": "p5", "role": "deputy", "character": "rose_doolan"},
    ],
    "position": {"players": [{"player": "p2", "life": 1}]},
    "inputs": [
        # p1 shoots p2, the first out, who becomes the Ghost
        "p1 roll shoot1 beer beer beer beer",
        "p1 stop",
        "p1 target 0 p2",
        *(f"p1 target {die} p1" for die in range(1, 5)),
        # the Ghost's turn: two dice, then the beer token and x2 to p3, which set two of his dice
        "p2 roll beer beer",
        "p2 ghost-give beer p3 x2",
        "p3 roll shoot1 shoot2 dynamite",
    ],
}


async def test_replay_shows_the_ghost_his_tokens_and_the_dice_they_set(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    members = [{"member_id": f"ghost-{i}", "name": f"Spook {i}"} for i in range(1, 6)]
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        imported = await client.post(
            "/records",
            json={
                "command_id": "os5-import",
                "record": GHOST_RECORD,
                "members": members,
                "game_id": "os5-replay",
            },
            headers={"Authorization": f"Bearer {await _organiser(browser_dsn)}"},
        )
        assert imported.status_code == 201, imported.text

    await page.goto("/#/game/os5-replay/replay")
    await expect(page.get_by_test_id("audit-verdict")).to_have_text(re.compile(r"^clean: "))
    board = page.get_by_test_id("replay-table")

    # before the shot nobody is the Ghost
    await _step_to(page, await _version_of(page, "p1's final dice"))
    await expect(board.get_by_test_id("ghost")).to_have_count(0)

    await _step_to(page, await _version_of(page, "p2 becomes the Ghost"))
    ghost = board.get_by_test_id("seat-p2")
    await expect(ghost.get_by_test_id("ghost")).to_have_text("Ghost")
    await expect(ghost).not_to_contain_text("Eliminated")
    await expect(board.get_by_test_id("ghost")).to_have_count(1)

    # the tokens the Ghost gives are on p3's seat, and set two of his dice before he rolls
    await _step_to(page, await _version_of(page, "p2 gives the Beer Ghost token and the ×2 token to p3"))
    await expect(board.get_by_test_id("seat-p3").get_by_test_id("ghost-tokens")).to_have_text(
        "Ghost tokens: Beer, Beer"
    )
    await expect(board.get_by_test_id("ghost-tokens")).to_have_count(1)
    await _step_to(page, await _version_of(page, "p3's roll 1"))
    dice = board.get_by_test_id("dice").locator("li")
    preset = await dice.evaluate_all("ds => ds.map(d => d.dataset.preset ?? null)")
    assert preset == ["true", "true", None, None, None]
    faces = await dice.evaluate_all("ds => ds.map(d => d.dataset.face)")
    assert faces == ["beer", "beer", "shoot1", "shoot2", "dynamite"]
    await expect(page.get_by_test_id("timeline")).to_contain_text("p3's Ghost token sets dice 1, 2 to Beer")
    await screenshot(page, "replay-ghost")


OS3 = ruleset_of(["OS3"])
OS3_GAME = "os3-replay"
OS3_SEED = bytes(range(32))
"""Pinned before the game is created (the vault keeps a game's first seed), so the deal of
roles and special roles, and so the game below, is the same on every run."""


async def _play_online_until_a_power_is_used(browser_dsn: str) -> tuple[str, str, set[str]]:
    """An online game with OS3, its seed pinned, played through the game service by bots until
    a player other than the Sheriff uses his power (the first use legal at a window is taken);
    (that player, his card, the cards still face down)."""
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        await pool.execute("INSERT INTO game_seeds (game_id, seed) VALUES ($1, $2)", OS3_GAME, OS3_SEED)
        games = GameService(PostgresEventStore(pool), SeedVault(pool))
        members = tuple(Member(member_id=f"card-{i}", name=f"Card {i}") for i in range(1, 6))
        organiser = Actor(kind=ActorKind.ORGANISER, id="browser-os3")
        await games.create_game(
            NewGame(mode=GameMode.ONLINE, player_count=5, members=members, game_id=OS3_GAME, ruleset=OS3),
            command_id="create-os3",
            actor=organiser,
        )
        bot, rng = HeuristicBot(0.9), random.Random(3)
        for move in range(400):
            session = await games.load(OS3_GAME)
            game = session.game
            assert game is not None and game.awaiting is not None, "the game ended before any power was used"
            use = next((c for c in game.legal_commands() if isinstance(c, UseRole)), None)
            command = use if use is not None else bot.choose(game, game.awaiting, rng)
            # a window nobody uses is closed by the server (online, after its pause), not a player
            seat = Actor(kind=ActorKind.PLAYER, id=session.seat_members[command.player])
            actor = SYSTEM if isinstance(command, PassWindow) else seat
            await games.play(OS3_GAME, command, actor=actor, command_id=f"os3/{move}")
            if use is not None and use.role is not SpecialRole.L_OURS:
                after = (await games.load(OS3_GAME)).game
                assert after is not None and after.state.special is not None
                special, alive = after.state.special, {p.id for p in after.state.players if p.alive}
                face_down = alive - set(special.revealed)
                hidden = {c.value for seat, c in special.cards.items() if seat in face_down}
                assert hidden, "every card is face up already"
                return use.player, use.role.value, hidden
        raise AssertionError("no power was used in 400 moves")
    finally:
        await pool.close()


CARD_NAMES = {
    "le_bien": "Le Bien",
    "le_doc": "Le Doc",
    "le_juge": "Le Juge",
    "le_joueur": "Le Joueur",
    "le_mauvais": "Le Mauvais",
    "le_vilain": "Le Vilain",
    "main_droite": "La Main Droite du Diable",
    "main_gauche": "La Main Gauche du Diable",
}


async def test_a_special_role_shows_once_revealed_and_the_hidden_ones_never_reach_the_browser(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    player, card, hidden = await _play_online_until_a_power_is_used(browser_dsn)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        # what the dashboard is sent, anonymously: no card still face down, in any form
        for answer in (
            await client.get(f"/games/{OS3_GAME}/events", params={"limit": 500}),
            await client.get(f"/games/{OS3_GAME}"),
        ):
            assert answer.status_code == 200
            assert not any(c in answer.text for c in hidden), hidden

    # opened at its last event (v past the end stops there), where the card is face up
    await page.goto(f"/#/game/{OS3_GAME}/replay?v=100000")
    board = page.get_by_test_id("replay-table")
    revealed = await _version_of(page, f"{player} reveals {CARD_NAMES[card]} and uses it")
    await _step_to(page, revealed - 1)
    # before: only L'Ours, the Sheriff's card, public from the start; the event list beside the
    # table does not name the card either, though the event that reveals it is in the list
    await expect(board.get_by_test_id("special-role")).to_have_text(["L'Ours"])
    await expect(board.get_by_test_id(f"seat-{player}").get_by_test_id("special-role")).to_have_count(0)
    timeline = page.get_by_test_id("timeline")
    await expect(timeline.locator(f'li[data-version="{revealed}"]')).to_contain_text(
        f"{player} reveals a special role and uses it"
    )
    await expect(timeline).not_to_contain_text(CARD_NAMES[card])

    await _step_to(page, revealed)
    await expect(board.get_by_test_id(f"seat-{player}").get_by_test_id("special-role")).to_have_text(
        CARD_NAMES[card]
    )
    await expect(board.get_by_test_id("special-role")).to_have_count(2)
    for name in (CARD_NAMES[c] for c in hidden):
        await expect(page.locator("body")).not_to_contain_text(name)
    await screenshot(page, "replay-special-role")
