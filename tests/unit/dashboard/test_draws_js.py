"""The dashboard's ``draws-1`` (services/dashboard/static/js/fairness.js) and its copy of the draws
table (draw-decks.js) against the server's (services/game/fairness/draws.py; the engine's
``undead.draws``), so "verify a game yourself" checks every card of an Undead or Alive game as the
audit does: the same card for every seed, deck, draw number and list of cards (any deck: UA4's
Boneyard draws through the same derivation); the same deck, number and cards for every draw of
real online UA1+UA2(+UA3) games; and on a re-hashed forgery of a Rage card, a wound token or a
duel throw, the same first bad event as the audit, named in words."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any

import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import GameMode
from services.game.application.service import SYSTEM, Actor, ActorKind, GameService, Member, NewGame
from services.game.audit import audit_game
from services.game.audit.draws import check_draws
from services.game.audit.report import ROLLS, AuditCheck, passed
from services.game.audit.stream import decode_stream, parse_stream
from services.game.bots import HeuristicBot
from services.game.fairness.draws import draw
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.fairness.versions import DRAWS_1
from services.game.rules.dice import Awaiting, Game, GameStarted
from services.game.rules.dice.commands import PassWindow
from services.game.rules.dice.evolve import evolve, initial_state
from services.game.rules.dice.flow import next_move
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.undead.draws import draw_need, drawn_card
from services.game.rules.dice.undead.duels import DUEL_FACES, DUEL_THROWS, WOUND_DECK, WOUND_TOKENS
from services.game.rules.dice.undead.rage import RAGE_1, RAGE_DECKS
from services.game.rules.ruleset import Ruleset, ruleset_of
from tests.unit.dashboard.test_chain_js import _forged, published
from tests.unit.dashboard.test_chain_js import run_js as run_chain_js
from tests.unit.dashboard.test_fairness_js import run_js, seeds

RAGE_CARDS = [card for card, _ in RAGE_DECKS[RAGE_1]]
TOKENS = [face.value for face, n in WOUND_TOKENS for _ in range(n)]
DECKS = [RAGE_1, WOUND_DECK, DUEL_THROWS, "boneyard-1", "a club's own deck ☠ v2"]


def _cards(rng: random.Random, deck: str) -> list[str]:
    """What a draw from ``deck`` could be among: a part of the deck, kept in its order."""
    if deck == RAGE_1:
        return [c for c in RAGE_CARDS if rng.random() < 0.6] or ["r07"]
    if deck == WOUND_DECK:
        return [t for t in TOKENS if rng.random() < 0.7] or ["dynamite"]
    if deck == DUEL_THROWS:
        return list(DUEL_FACES)
    if deck == "boneyard-1":  # 2 no-hands, 6 one-hand, 3 two-hand cards, some revealed already
        return [c for c in ["b0"] * 2 + ["b1"] * 6 + ["b2"] * 3 if rng.random() < 0.8] or ["b2"]
    return [f"c{i}" for i in range(rng.choice((1, 2, 3, 7, 100, 1000)))]


def test_every_draw_gives_the_same_card_in_both() -> None:
    rng = random.Random(DRAWS_1)
    cases, wanted = [], []
    for seed in seeds(100, rng):
        draws: list[dict[str, Any]] = []
        for _ in range(rng.randint(1, 30)):
            deck = rng.choice(DECKS)
            number = rng.choice((0, 1, 2, rng.randint(3, 200), 2**32 + 5, 2**53 - 1))
            draws.append({"deck": deck, "number": number, "cards": _cards(rng, deck)})
        cases.append({"kind": "draws", "version": DRAWS_1, "seed": seed.hex(), "draws": draws})
        wanted.append([draw(seed, str(d["deck"]), int(d["number"]), list(d["cards"])) for d in draws])
    answers = run_js(cases)
    assert answers == wanted
    assert sum(len(w) for w in wanted) > 1500
    # not a constant: across seeds, the first draw of the Rage deck gives most of its cards
    firsts = {draw(s, RAGE_1, 0, RAGE_CARDS) for s in seeds(100, random.Random(2))}
    assert len(firsts) >= 15


def test_a_draw_among_nothing_an_unknown_version_and_a_negative_number_are_refused() -> None:
    seed = bytes(range(32)).hex()
    one = [{"deck": RAGE_1, "number": 0, "cards": ["r01"]}]
    answers = run_js(
        [
            {
                "kind": "draws",
                "version": DRAWS_1,
                "seed": seed,
                "draws": [{**one[0], "number": 3, "cards": []}],
            },
            {"kind": "draws", "version": "draws-9", "seed": seed, "draws": one},
            {"kind": "draws", "version": DRAWS_1, "seed": seed, "draws": [{**one[0], "number": -1}]},
        ]
    )
    assert answers[0] == {"error": "draws-1: draw 3 from rage-1 has no card to draw"}
    assert answers[1] == {"error": "unknown draws derivation 'draws-9' (known: draws-1)"}
    assert answers[2] == {"error": "draw number -1 is not a whole number from 0"}
    with pytest.raises(ValueError):
        draw(bytes(range(32)), RAGE_1, -1, ["r01"])


# --- real games -----------------------------------------------------------------------------------


async def _online_game(game_id: str, ruleset: Ruleset, players: int, seed: int) -> MemoryEventStore:
    """An online game of ``ruleset`` played to its end by bots through the game service (the
    server draws every card from the seed)."""
    store = MemoryEventStore(mapper=GAME_MAPPER)
    vault = MemorySeedVault()
    # the same game every run: the seed the service would draw at random, kept before it asks
    await vault.keep(game_id, hashlib.sha256(f"{game_id}:{seed}".encode()).digest())
    games = GameService(store, vault)  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"{game_id}-{i}", name=f"Drawer {i}") for i in range(1, players + 1))
    spec = NewGame(
        mode=GameMode.ONLINE, player_count=players, members=members, game_id=game_id, ruleset=ruleset
    )
    await games.create_game(spec, command_id="create", actor=Actor(kind=ActorKind.ORGANISER, id="o"))
    bot, rng = HeuristicBot(0.8), random.Random(seed)
    for move in range(6000):
        session = await games.load(game_id)
        game = session.game
        assert isinstance(game, Game)
        if game.is_over:
            return store
        assert game.awaiting is not None
        command = bot.choose(game, game.awaiting, rng)
        seat = Actor(kind=ActorKind.PLAYER, id=session.seat_members[command.player])
        actor = SYSTEM if isinstance(command, PassWindow) else seat
        await games.play(game_id, command, actor=actor, command_id=f"move/{move}")
    raise AssertionError(f"{game_id} did not end in 6000 moves")


async def python_draws(store: MemoryEventStore, game_id: str, ruleset: Ruleset) -> list[dict[str, Any]]:
    """Every draw of a stored game as the engine lists it (the audit's fold, ``audit/draws.py``)."""
    stream = parse_stream(decode_stream(await store.read_stream(f"game-{game_id}"), GAME_MAPPER))
    started = stream.engine[0].event
    assert isinstance(started, GameStarted)
    state = initial_state(started, rules_of(ruleset))
    found = []
    for stored in stream.engine[1:]:
        event = stored.event
        card = drawn_card(event)  # type: ignore[arg-type]
        if card is not None:
            question = next_move(state)
            assert isinstance(question, Awaiting)
            need = draw_need(state, question)
            assert need is not None
            player = getattr(event, "player", None)
            found.append(
                {"event": stored.number, "type": type(event).__name__, "player": player, "card": card,
                 "deck": need.deck, "number": need.number, "cards": list(need.cards)}
            )  # fmt: skip
        evolve(state, event)  # type: ignore[arg-type]
    return found


async def audit_draws(store: MemoryEventStore, game_id: str, ruleset: Ruleset) -> AuditCheck:
    stream = parse_stream(decode_stream(await store.read_stream(f"game-{game_id}"), GAME_MAPPER))
    revealed = stream.revealed
    assert revealed is not None
    seed = bytes.fromhex(revealed.event.seed)  # type: ignore[attr-defined]
    return check_draws(stream.engine, seed, DRAWS_1, ruleset, passed(ROLLS, "rolls"))


GAMES = [
    ("draws-ua12", ruleset_of(["UA1", "UA2"]), 5, 1),
    ("draws-ua123", ruleset_of(["UA1", "UA2", "UA3"]), 4, 2),
    ("draws-ua2", ruleset_of(["UA2"]), 7, 3),
    ("draws-all", ruleset_of(["OS1", "OS2", "OS3", "OS4", "OS5", "UA1", "UA2", "UA3"]), 8, 4),
    ("draws-ua4", ruleset_of(["UA1", "UA2", "UA3", "UA4"]), 6, 5),
    ("draws-ua4-alone", ruleset_of(["UA4"]), 7, 6),
    # Pixie Pete keeps one of two Rage cards, the Boneyard's no-hands cards go back, an outbreak
    ("draws-pixie", ruleset_of(["UA1", "UA2", "UA3", "UA4"]), 8, 32),
]
DECK_MOVES = {"RageKept", "RageMoved", "RageReturned", "WoundsReturned", "BoneyardShuffled", "OutbreakBegan"}
"""Events that change what a later draw is among without being a draw: each must have happened
in the games compared, so that the page's following of it was compared with the engine's."""


@pytest.fixture(scope="module")
def played() -> list[tuple[str, Ruleset, MemoryEventStore, dict[str, Any]]]:
    import asyncio

    async def play_all() -> list[tuple[str, Ruleset, MemoryEventStore, dict[str, Any]]]:
        out = []
        for game_id, ruleset, players, seed in GAMES:
            store = await _online_game(game_id, ruleset, players, seed)
            out.append((game_id, ruleset, store, await published(store, game_id)))
        return out

    return asyncio.run(play_all())


async def test_the_browser_follows_every_draw_as_the_engine_does(
    played: list[tuple[str, Ruleset, MemoryEventStore, dict[str, Any]]],
) -> None:
    follows = run_js([{"kind": "follow", "seed": "00", "chain": chain} for _, _, _, chain in played])
    types: set[str] = set()
    for (game_id, ruleset, store, _), answer in zip(played, follows, strict=True):
        wanted = await python_draws(store, game_id, ruleset)
        assert answer == {"draws": wanted, "stop": None}, game_id
        types |= {d["type"] for d in wanted}
    # every kind of draw was compared, and every event that moves cards between draws happened
    assert types == {"RageDrawn", "WoundDrawn", "DuelThrown", "BoneyardRevealed"}
    happened = {e["type"] for _, _, _, chain in played for e in chain["events"]}
    assert happened >= DECK_MOVES, DECK_MOVES - happened
    assert any('"reshuffled":true' in e["data"] for _, _, _, chain in played for e in chain["events"])


async def test_verify_checks_every_card_and_names_the_first_forged_draw_where_the_audit_does(
    played: list[tuple[str, Ruleset, MemoryEventStore, dict[str, Any]]],
) -> None:
    cases: list[dict[str, Any]] = []
    expected: list[tuple[str, int | None, str]] = []
    for game_id, ruleset, store, chain in played:
        draws = await python_draws(store, game_id, ruleset)
        report = await audit_game(store, game_id)  # type: ignore[arg-type]
        assert report.clean
        cases.append({"kind": "verify", "chain": chain, "gameId": game_id})
        expected.append((game_id, None, f"{len(draws)} draws re-derived from the seed (draws-1)"))
        # a forger who changed one drawn card to another the draw was among, and re-hashed
        for kind in ("RageDrawn", "WoundDrawn", "DuelThrown", "BoneyardRevealed"):
            target = next((d for d in draws if d["type"] == kind and len(set(d["cards"])) > 1), None)
            if target is None:
                continue
            other = next(c for c in target["cards"] if c != target["card"])
            field = "face" if kind == "DuelThrown" else "card"

            def edit(
                version: int, data: dict[str, Any], at: int = target["event"], to: str = other, f: str = field
            ) -> None:
                if version == at:
                    data[f] = to

            forged_store = await _forged(store, game_id, edit)
            forged_report = await audit_game(forged_store, game_id)  # type: ignore[arg-type]
            assert forged_report.checks[0].passed and not forged_report.clean
            # the audit's draw check (audit/draws.py) names the same event
            audited = await audit_draws(forged_store, game_id, ruleset)
            assert not audited.passed and audited.detail.startswith(f"event {target['event']}: "), audited
            cases.append(
                {"kind": "verify", "chain": await published(forged_store, game_id), "gameId": game_id}
            )
            expected.append((game_id, target["event"], f"{target['player']} "))
    answers = run_chain_js(cases)
    forged = 0
    for (game_id, event, words), answer in zip(expected, answers, strict=True):
        checks = {c["name"]: c for c in answer["checks"]}
        if event is None:
            assert answer["ok"] is True, (game_id, answer["verdict"])
            assert checks["draws"]["passed"] is True and checks["draws"]["detail"].startswith(words)
            assert " draws are the ones it gives" in answer["verdict"]
        else:
            forged += 1
            assert answer["ok"] is False and checks["hash chain"]["passed"] is True
            assert checks["draws"]["passed"] is False, game_id
            detail = checks["draws"]["detail"]
            assert detail.startswith(f"event {event}: {words}"), detail
            assert ", but the seed gives " in detail and detail.endswith("(draws-1)")
            assert answer["verdict"].startswith(f"does not match: event {event}: ")
    assert forged >= 6  # a Rage card, a wound token and a throw forged, in two games or more


async def test_a_deck_this_page_cannot_follow_is_refused_by_name(
    played: list[tuple[str, Ruleset, MemoryEventStore, dict[str, Any]]],
) -> None:
    _, _, _, chain = played[0]
    events = [
        {"version": e["version"], "type": e["type"], "data": json.loads(e["data"])} for e in chain["events"]
    ]
    ruleset = copy.deepcopy(events[0]["data"]["ruleset"])
    boneyard = {**ruleset, "data": {**ruleset["data"], "graveyard": "graveyard-1"}}
    new_rage = {**ruleset, "data": {**ruleset["data"], "rage-deck": "rage-2"}}
    answers = run_js(
        [
            {"kind": "follow", "seed": "00", "events": events, "ruleset": boneyard},
            {"kind": "follow", "seed": "00", "events": events, "ruleset": new_rage},
        ]
    )
    assert answers[0]["stop"].startswith(
        "this page cannot follow the draws of the graveyard deck (graveyard-1) yet"
    )
    assert answers[1]["stop"] == "this page knows the rage-deck deck rage-1 only, not rage-2"
