"""The dashboard's hash-chain check (services/dashboard/static/js/chain.js) against the store's
(event_store/hashing.py, verification.py), on real streams: the game stored by an earlier server
(tests/fixtures/online_game_v1.json, with the hashes it stored) and an Old Saloon game played
now through the game service by bots, its players named in more than ASCII. The same hashes,
the same first broken link (kind and version) for every kind of edit, and "verify a game
yourself" (verify-game.js) reading the chain's own bytes: clean where the audit is clean, and
where a forger re-hashed the whole chain after editing a roll, the same event as the audit."""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

from event_store import EventMetadata, MemoryEventStore, NewEvent
from event_store.codec import canonical_json, canonical_metadata
from event_store.hashing import GENESIS_HASH, event_hash
from event_store.verification import first_broken_link
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import GameMode
from services.game.application.service import SYSTEM, Actor, ActorKind, GameService, Member, NewGame
from services.game.audit import audit_game
from services.game.bots import HeuristicBot
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.rules.dice.commands import ChooseSaloonDie, PassWindow
from services.game.rules.ruleset import ruleset_of
from tests.fixtures.stored_games import load_fixture, store_fixture

HARNESS = Path(__file__).with_name("chain.mjs")
NAMES = ("Zoë", "Jürgen 🤠", "Ōta", "Ann \"Two Guns\"", "Mía\\Ñ")


def run_js(cases: list[dict[str, Any]]) -> list[Any]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run(
        [node, str(HARNESS)], input=json.dumps(cases), capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers: list[Any] = json.loads(done.stdout)
    assert len(answers) == len(cases)
    return answers


async def published(store: MemoryEventStore, game_id: str) -> dict[str, Any]:
    """What GET /games/{id}/chain answers for this stream (services/game/edge/chain.py), each
    event's text checked to be the bytes its stored hash covers."""
    stream = f"game-{game_id}"
    events = []
    for r in await store.read_stream(stream):
        data, metadata = canonical_json(r.data), canonical_metadata(r.metadata)
        assert (
            event_hash(
                prev_hash=r.prev_hash, stream=stream, version=r.version, event_id=r.event_id,
                event_type=r.type, schema_version=r.schema_version, data=data, metadata=metadata,
            )
            == r.hash
        )  # fmt: skip
        events.append(
            {
                "version": r.version, "event_id": str(r.event_id), "type": r.type,
                "schema_version": r.schema_version, "data": data.decode(), "metadata": metadata.decode(),
                "prev_hash": r.prev_hash.hex(), "hash": r.hash.hex(),
            }
        )  # fmt: skip
    last = events[-1]
    return {
        "game_id": game_id,
        "stream": stream,
        "format": "bang-event-v1",
        "genesis": GENESIS_HASH.hex(),
        "head": {"version": last["version"], "hash": last["hash"]},
        "events": events,
    }


async def fixture_chain() -> tuple[dict[str, Any], MemoryEventStore]:
    fixture = load_fixture()
    store = MemoryEventStore(mapper=GAME_MAPPER)
    await store_fixture(store, fixture)
    chain = await published(store, fixture["game_id"])
    assert [e["hash"] for e in chain["events"]] == [e["hash"] for e in fixture["events"]]
    return chain, store


async def old_saloon_chain() -> tuple[dict[str, Any], MemoryEventStore]:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    games = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    members = tuple(Member(member_id=f"vos-{i}", name=name) for i, name in enumerate(NAMES, start=1))
    spec = NewGame(
        mode=GameMode.ONLINE, player_count=5, members=members, game_id="chain-os",
        ruleset=ruleset_of(["OS1", "OS2", "OS3", "OS4"]),
    )  # fmt: skip
    await games.create_game(spec, command_id="create", actor=Actor(kind=ActorKind.ORGANISER, id="o"))
    bot, rng = HeuristicBot(0.8), random.Random(3)
    for move in range(4000):
        session = await games.load("chain-os")
        game = session.game
        assert game is not None
        if game.is_over:
            return await published(store, "chain-os"), store
        assert game.awaiting is not None
        saloon = [c for c in game.legal_commands() if isinstance(c, ChooseSaloonDie) and c.die]
        command = rng.choice(saloon) if saloon else bot.choose(game, game.awaiting, rng)
        seat = Actor(kind=ActorKind.PLAYER, id=session.seat_members[command.player])
        actor = SYSTEM if isinstance(command, PassWindow) else seat
        await games.play("chain-os", command, actor=actor, command_id=f"move/{move}")
    raise AssertionError("the Old Saloon game did not end in 4000 moves")


def python_problem(chain: dict[str, Any]) -> dict[str, Any] | None:
    """The store's first broken link of a published chain (its rows as the store reads them)."""
    rows = [
        {
            **e,
            "event_id": uuid.UUID(e["event_id"]),
            "prev_hash": bytes.fromhex(e["prev_hash"]),
            "hash": bytes.fromhex(e["hash"]),
        }
        for e in chain["events"]
    ]
    head = {"version": chain["head"]["version"], "last_hash": bytes.fromhex(chain["head"]["hash"])}
    problem = first_broken_link(chain["stream"], rows, head)  # type: ignore[arg-type]
    if problem is None:
        return None
    return {"kind": str(problem.kind), "version": problem.version, "last_missing": problem.last_missing}


def js_problem(answer: dict[str, Any]) -> dict[str, Any] | None:
    problem = answer["problem"]
    if problem is None:
        return None
    kind, version = problem["kind"], problem["version"]
    return {"kind": kind, "version": version, "last_missing": problem.get("lastMissing")}


def edit_data(event: dict[str, Any], change: Any) -> None:
    data = json.loads(event["data"])
    change(data)
    event["data"] = canonical_json(data).decode()


def first_roll(chain: dict[str, Any], after: int = 0) -> dict[str, Any]:
    return next(e for e in chain["events"] if e["type"] == "DiceRolled" and e["version"] > after)


def tamperings(chain: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One edit of each kind a forger or an accident could make, each on its own copy."""
    out: dict[str, dict[str, Any]] = {"clean": chain}

    def variant(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        copied = copy.deepcopy(chain)
        out[name] = copied
        return copied, copied["events"]

    roll = first_roll(chain, 20)["version"]
    _, events = variant("a face")
    other = {"gatling": "beer"}
    edit_data(events[roll - 1], lambda d: d["faces"].__setitem__(0, other.get(d["faces"][0], "gatling")))
    _, events = variant("metadata")
    events[9]["metadata"] = events[9]["metadata"].replace('"actor":"', '"actor":"x')
    _, events = variant("type")
    events[11]["type"] = "PlayerEliminated"
    _, events = variant("schema version")
    events[12]["schema_version"] += 1
    _, events = variant("event id")
    events[13]["event_id"] = str(uuid.uuid4())
    _, events = variant("a link")
    events[14]["prev_hash"] = "ab" * 32
    _, events = variant("genesis")
    events[0]["prev_hash"] = "01" * 32
    _, events = variant("one deleted")
    del events[15]
    _, events = variant("three deleted")
    del events[16:19]
    _, events = variant("the tail")
    del events[-2:]
    copied, _ = variant("the head")
    copied["head"]["hash"] = "cd" * 32
    copied, events = variant("the head moved back")
    del events[-1]
    copied["head"] = {"version": events[-1]["version"], "hash": "ef" * 32}
    return out


async def test_the_browser_computes_the_store_s_hashes_for_an_old_and_a_new_stream() -> None:
    (old, _), (new, _) = await fixture_chain(), await old_saloon_chain()
    assert any(n.encode() != n.encode("ascii", "ignore") for n in NAMES)
    assert any("Jürgen 🤠" in e["data"] for e in new["events"])  # stored as UTF-8, hashed as such
    old_hashes, new_hashes = run_js([{"kind": "hashes", "chain": old}, {"kind": "hashes", "chain": new}])
    assert old_hashes == [e["hash"] for e in old["events"]]
    assert new_hashes == [e["hash"] for e in new["events"]]
    assert len(new_hashes) > 100


async def test_the_first_broken_link_is_the_store_s_for_every_kind_of_edit() -> None:
    (old, _), (new, _) = await fixture_chain(), await old_saloon_chain()
    cases = [(name, chain) for base in (old, new) for name, chain in tamperings(base).items()]
    answers = run_js([{"kind": "chain", "chain": chain, "gameId": chain["game_id"]} for _, chain in cases])
    kinds = set()
    for (name, chain), answer in zip(cases, answers, strict=True):
        python = python_problem(chain)
        assert js_problem(answer) == python, name
        assert (python is None) == (name == "clean"), name
        if python is not None:
            kinds.add(python["kind"])
            said = answer["problem"]["words"]
            assert re.match(rf"^events? {python['version']}\b|^the stream head", said), answer
    assert kinds == {"edited", "relinked", "missing", "head"}
    old_cases = zip(cases[: len(cases) // 2], answers, strict=False)
    words = {name: a["problem"]["words"] for (name, _), a in old_cases if a["problem"]}
    roll = first_roll(old, 20)["version"]
    assert words["a face"] == f"event {roll}'s hash does not match its content (edited after it was stored?)"
    assert words["one deleted"] == "event 16 is missing from the chain (deleted?)"
    assert words["three deleted"] == "events 17 to 19 are missing from the chain (deleted?)"

    # the game the page checks is the chain's own bytes, parsed there
    clean = answers[0]
    assert clean["ok"]
    assert [e["data"] for e in clean["events"]] == [json.loads(e["data"]) for e in old["events"]]


async def test_another_game_s_chain_a_duplicate_and_an_unknown_format_are_refused() -> None:
    chain, _ = await fixture_chain()
    twice = copy.deepcopy(chain)
    twice["events"].insert(5, copy.deepcopy(twice["events"][4]))
    other, unknown = copy.deepcopy(chain), copy.deepcopy(chain)
    unknown["format"] = "bang-event-v9"
    bad_hex = copy.deepcopy(chain)
    bad_hex["events"][3]["hash"] = "zz" * 32
    answers = run_js(
        [
            {"kind": "chain", "chain": twice, "gameId": chain["game_id"]},
            {"kind": "chain", "chain": other, "gameId": "another-game"},
            {"kind": "chain", "chain": unknown, "gameId": chain["game_id"]},
            {"kind": "chain", "chain": bad_hex, "gameId": chain["game_id"]},
        ]
    )
    assert [a["problem"]["kind"] for a in answers] == ["duplicate", "stream", "format", "unreadable"]
    assert answers[0]["problem"]["words"] == "event 5 was published twice"
    assert answers[1]["problem"]["words"] == (
        'the chain published is the stream "game-fixture-v1", not this game\'s (game-another-game)'
    )
    assert answers[3]["problem"]["words"] == "event 4's hash is not 64 lower-case hexadecimal digits"


async def _forged(store: MemoryEventStore, game_id: str, edit: Any) -> MemoryEventStore:
    """The stream with one event's data edited and every hash after it recomputed (a forger who
    rewrote the chain and its head): a new store given the edited events one by one."""
    forged = MemoryEventStore(mapper=GAME_MAPPER)
    for r in await store.read_stream(f"game-{game_id}"):
        data = copy.deepcopy(r.data)
        edit(r.version, data)
        new = NewEvent(
            type=r.type, data=data, schema_version=r.schema_version, event_id=r.event_id,
            metadata=EventMetadata(**json.loads(canonical_metadata(r.metadata))),
        )  # fmt: skip
        await forged.append(f"game-{game_id}", [new], expected_version=r.version - 1)
    return forged


async def test_verify_reads_the_chain_s_bytes_and_catches_a_rehashed_forgery_where_the_audit_does() -> None:
    for chain, store in (await fixture_chain(), await old_saloon_chain()):
        game_id = chain["game_id"]
        roll = first_roll(chain, 30)

        def change_face(version: int, data: dict[str, Any], at: int = roll["version"]) -> None:
            if version == at:
                data["faces"][0] = "dynamite" if data["faces"][0] != "dynamite" else "arrow"

        forged_store = await _forged(store, game_id, change_face)
        forged = await published(forged_store, game_id)
        clean_answer, forged_answer = run_js(
            [{"kind": "verify", "chain": c, "gameId": game_id} for c in (chain, forged)]
        )
        report = await audit_game(store, game_id)  # type: ignore[arg-type]
        assert report.clean and clean_answer["ok"] is True, clean_answer["verdict"]
        assert clean_answer["verdict"].startswith("matches: the hash chain holds, the seed matches")
        assert clean_answer["checks"][0]["name"] == "hash chain" and clean_answer["checks"][0]["passed"]
        assert clean_answer["rolls"] == report.rolls_checked

        # the re-hashed chain holds in both; the seed names the same event in both
        forged_report = await audit_game(forged_store, game_id)  # type: ignore[arg-type]
        assert forged_report.checks[0].passed and not forged_report.clean
        assert forged_answer["checks"][0]["passed"] is True and forged_answer["ok"] is False
        assert forged_report.first_divergence is not None
        assert forged_report.first_divergence.startswith(f"event {roll['version']}: ")
        rolls = next(c for c in forged_answer["checks"] if c["name"] == "rolls")
        assert rolls["passed"] is False and f", event {roll['version']}), die " in rolls["detail"]
