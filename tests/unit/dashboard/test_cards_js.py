"""The card views' JavaScript (static/js/cards/) under node, on states and events of real card
games played at random by the card engine: the 80 cards are the engine's (ids, names, suits,
ranks); every decision the engine asks of a seat gets words, every legal command a control in
words of its own (never its bare text), grouped as the seat page shows it (one group per card
played in phase 2); and every card event reads as a line of its own (no generic fallback), a
card hidden from the viewer reading "a card"."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from services.game.engines import engine_for
from services.game.engines.cards import STORED_PREFIX, CardEngine, redact_card_event
from services.game.fairness.shuffles import shuffle
from services.game.rules.cards import EVENT_TYPES, CharacterId, Role, Seat
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import DECK
from services.game.rules.ruleset import ruleset_of

JS = Path(__file__).parents[3] / "services" / "dashboard" / "static" / "js"
SCRIPT = """
import { DECK, cardWords } from %s;
import { cardControls, commandWords, decisionWords, parseCommand } from %s;
import { describeCardEvent } from %s;
const input = JSON.parse(await new Promise((done) => {
  let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => done(text));
}));
const answer = { deck: DECK.slice(1).map((c) => [c.id, c.text, cardWords(c)]), states: {}, events: [] };
for (const [decision, state] of Object.entries(input.states)) {
  const c = cardControls(state);
  answer.states[decision] = {
    asks: decisionWords(decision),
    cards: c.cards.map((g) => [g.card.id, g.options.map((o) => o.text)]),
    controls: [...c.cards.flatMap((g) => g.options), ...c.others]
      .map((o) => [o.text, commandWords(o, state)]),
    discard: c.discard && { count: c.discard.count, hand: c.discard.hand.map((card) => card.id) },
    words: state.legal_commands.map((t) => [t, commandWords(parseCommand(t), state)]),
  };
}
for (const event of input.events) answer.events.push([event.type, describeCardEvent(event)]);
console.log(JSON.stringify(answer));
"""


def _play(seed: int, players: int) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """One random card game: the view of each first-asked decision (as its seat sees it) and
    every event, as p1 sees it (others' hand cards null)."""
    engine = engine_for(ruleset_of(game_type="cards"))
    assert isinstance(engine, CardEngine)
    rng = random.Random(seed)
    roles = ["sheriff", "renegade", "outlaw", "outlaw", "deputy", "outlaw", "deputy"][:players]
    characters = rng.sample(
        [
            "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
            "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
            "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
        ],
        players,
    )  # fmt: skip
    game = engine.start(
        [
            Seat(player=f"p{i + 1}", role=Role(r), character=CharacterId(c))
            for i, (r, c) in enumerate(zip(roles, characters, strict=True))
        ]  # type: ignore[arg-type]
    )
    states: dict[str, dict[str, Any]] = {}
    for _ in range(3000):
        need = engine.random_need(game)
        if need is not None:
            if need.shuffle:
                order = list(need.shuffle)
                rng.shuffle(order)
                engine.play(game, engine.supply(game, need, order))
            else:
                engine.play(game, engine.supply(game, need, [rng.choice(list(need.pick or need.cards))]))
            continue
        q = engine.question(game)
        if q is None:
            break
        legal = list(engine.legal_commands(game)) if q.decision != "discard" else []
        if q.decision not in states or (
            q.decision == "play" and len(legal) > len(states["play"]["legal_commands"])
        ):
            me = q.player
            view = engine.view(game, lambda s, me=me: s == me, own=lambda s, me=me: s == me)
            view["legal_commands"] = [str(c) for c in legal]
            view["status"] = "ongoing"
            states[q.decision] = view
        if q.decision == "discard":
            hand = list(game.state.player(q.player).hand)
            command: cmd.Command = cmd.Discard(
                player=q.player, cards=tuple(rng.sample(hand, q.detail["count"]))
            )
        else:
            plays = [c for c in legal if not isinstance(c, cmd.EndPlay)]
            command = rng.choice(plays if plays and rng.random() < 0.7 else legal)
        engine.play(game, command)
    events = [
        {
            "type": STORED_PREFIX + type(e).__name__,
            "data": redact_card_event(e, lambda s: s != "p1", lambda s: s == "p1"),
        }
        for e in game.events
    ]
    return states, events


def _run(states: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    script = SCRIPT % tuple(
        json.dumps((JS / "cards" / name).as_uri()) for name in ("deck.js", "decisions.js", "events.js")
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps({"states": states, "events": events}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_the_card_views_word_every_card_decision_command_and_event_of_random_games() -> None:
    states: dict[str, dict[str, Any]] = {}
    events: list[dict[str, Any]] = []
    for seed in range(6):
        found, played = _play(seed, 4 + seed % 4)
        for decision, view in found.items():
            states.setdefault(decision, view)
        events += played
    assert {"play", "discard", "respond_shot", "respond_indians", "respond_duel", "dying"} <= set(states)
    answer = _run(states, events)
    # the deck: the engine's 80 cards, id for id
    assert [[c, text] for c, text, _ in answer["deck"]] == [[c.id, c.text] for c in DECK]
    assert answer["deck"][0][2] == "BANG! A♠" and answer["deck"][-1][2] == "Winchester 8♠"
    for decision, got in answer["states"].items():
        legal = states[decision]["legal_commands"]
        assert "_" not in got["asks"], (
            decision,
            got["asks"],
        )
        # one control per legal command, in words (a phase-3 discard goes through the picker)
        assert sorted(text for text, _ in got["controls"]) == sorted(t for t in legal if " discard " not in t)
        for text, words in got["controls"] + got["words"]:
            assert words and words != text and "undefined" not in words, (decision, text, words)
        if decision == "play":
            hand = next(p for p in states["play"]["players"] if p["hand_ids"] is not None)["hand_ids"]
            assert {card for card, _ in got["cards"]} <= set(hand)
        if decision == "discard":
            asked = states["discard"]
            mine = next(p for p in asked["players"] if p["id"] == asked["awaiting"]["player"])
            assert got["discard"] == {"count": asked["awaiting"]["count"], "hand": mine["hand_ids"]}
    # every event type played has words of its own, and nothing reads "null" or "undefined"
    lines = answer["events"]
    assert len(lines) == len(events)
    seen_types = {t for t, _ in lines}
    assert len(seen_types) >= 20, seen_types
    for (kind, line), event in zip(lines, events, strict=True):
        assert line and "null" not in line and "undefined" not in line, (kind, line)
        generic = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", kind.removeprefix(STORED_PREFIX)).lower()
        assert line != generic and not line.startswith(f"{generic} ("), (kind, line)  # not the generic form
        if event["data"].get("card", 0) is None:
            assert "a card" in line, (kind, line)
    assert {STORED_PREFIX + t.__name__ for t in EVENT_TYPES} >= seen_types


DERIVE = """
import { deriveDeck } from %s;
import { hexToBytes } from %s;
const cases = JSON.parse(await new Promise((done) => {
  let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => done(text));
}));
const out = [];
for (const [seed, at, cards] of cases) out.push(await deriveDeck(hexToBytes(seed), at, cards));
console.log(JSON.stringify(out));
"""


def test_the_card_verify_page_derives_every_deck_as_shuffles_1_does() -> None:
    rng = random.Random(5)
    cases = [
        (
            rng.randbytes(32).hex(),
            rng.randrange(1, 2000),
            rng.sample(range(1, 81), rng.choice([80, 1, 2, 17, 45])),
        )
        for _ in range(40)
    ]
    node = shutil.which("node") or shutil.which("nodejs")
    assert node
    script = DERIVE % (
        json.dumps((JS / "cards" / "verify-cards.js").as_uri()),
        json.dumps((JS / "fairness.js").as_uri()),
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    derived = json.loads(done.stdout)
    assert derived == [list(shuffle(bytes.fromhex(seed), at, cards)) for seed, at, cards in cases]


VERIFY = """
import { verifyCardGame } from %s;
const games = JSON.parse(await new Promise((done) => {
  let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => done(text));
}));
const out = [];
const chain = { name: "hash chain", passed: null, detail: "-" };
for (const events of games) out.push(await verifyCardGame(events, chain));
console.log(JSON.stringify(out));
"""


def test_the_card_verify_checks_pass_a_true_deck_and_name_a_swapped_card() -> None:
    seed = bytes(range(32))
    deck = list(shuffle(seed, 1, range(1, 81)))
    created = {
        "mode": "online",
        "seed_commitment": hashlib.sha256(seed).hexdigest(),
        "fairness": {"deal": "deal-1", "dice": "dice-1", "shuffles": "shuffles-1"},
    }

    def game(order: list[int], revealed: bytes = seed) -> list[dict[str, Any]]:
        return [
            {"version": 1, "type": "GameCreated", "data": created},
            {"version": 2, "type": "cards.GameStarted", "data": {"seats": []}},
            {"version": 3, "type": "cards.DeckShuffled", "data": {"order": order}},
            {"version": 4, "type": "SeedRevealed", "data": {"seed": revealed.hex()}},
        ]

    swapped = [deck[1], deck[0], *deck[2:]]
    node = shutil.which("node") or shutil.which("nodejs")
    assert node
    done = subprocess.run(
        [node, "--input-type=module", "-e", VERIFY % json.dumps((JS / "cards" / "verify-cards.js").as_uri())],
        input=json.dumps([game(deck), game(swapped), game(deck, bytes(32))]),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    true, tampered, wrong_seed = json.loads(done.stdout)
    assert true["ok"] is True
    assert [c["passed"] for c in true["checks"]] == [None, True, True, None]
    assert tampered["ok"] is False
    assert tampered["first"] == (
        f"event 3: the deck puts {_words(deck[1])} at place 1 from the top, but the seed gives "
        f"{_words(deck[0])} (shuffles-1, after card event 1)"
    )
    assert wrong_seed["ok"] is False and wrong_seed["first"].startswith(
        "event 4: the revealed seed's SHA-256 is"
    )


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}
NAMES = {
    "bang": "BANG!",
    "missed": "Missed!",
    "panic": "Panic!",
    "indians": "Indians!",
    "rev_carabine": "Rev. Carabine",
}


def _words(card_id: int) -> str:
    """A card as the pages word it: ``BANG! A♠``."""
    card = DECK[card_id - 1]
    name = NAMES.get(card.name.value, card.name.value.replace("_", " ").title())
    return f"{name} {RANKS.get(card.rank, str(card.rank))}{SUITS[card.suit.value]}"
