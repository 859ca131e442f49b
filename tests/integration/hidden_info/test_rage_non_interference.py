"""A face-down Rage card (UA2) by non-interference: what a viewer sees cannot depend on it; and
Pixie Pete's two cards and his choice between them (UA3), the same way.

Two table games on twin servers (``twins.py``), the same seats, dice and decisions, except the
Rage card one player drew face down: r-A on twin A, r-B on twin B. For every viewer who is not
its holder (anybody, a rival organiser, a player of another game) every channel must give the
same bytes in both — REST state, events, time travel, the live subscription, the CLI's export
and audit, the JSON log lines, /metrics — until the holder's turn starts and the card is
revealed (RULINGS-expansions §UA2). Then the channels must differ: the comparison can fail.
(Its holder alone sees it: ``tests/unit/game/undead/test_rage_service.py``.)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from services.game.application import service as game_service
from services.game.bots import HeuristicBot
from services.game.engines import engine_for
from services.game.fairness.dice_kinds import KindedDice
from services.game.fairness.draws import draw
from services.game.fairness.registry import deal_seats, draw_derivation, fairness_for
from services.game.rules.dice import CharacterId, Decision, Game, GameCommand, RollDice, Seat, parse_command
from services.game.rules.dice.commands import DrawCard
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.undead.rage import RAGE_DECKS, RAGE_DRAW, RageDrawn, RageRevealed
from services.game.rules.ruleset import ruleset_of
from tests.integration.api.bots import bearer

from .test_non_interference import (
    PEOPLE,
    SCOREKEEPER,
    TABLE_SEATS,
    _assert_same,
    _organiser,
    _reveal,
    _serve_the_prefix,
    _table_game,
    twins,  # noqa: F401  (the fixture)
)
from .twins import Twin, dice_for, differences

RULES = rules_of(ruleset_of(["UA2"]))


def _script(bot_seed: int) -> tuple[list[GameCommand], list[GameCommand], str]:
    """Twin A's inputs and twin B's, the same but for the first Rage card drawn, whose holder's
    next turn is at least three turns away: the last input starts that turn (the reveal). Cards
    are drawn in deck order, skipping twin B's card; answers the holder too."""
    game = Game.start(list(TABLE_SEATS), rules=RULES)
    dice, rng, bot = dice_for(f"ua2-{bot_seed}"), random.Random(bot_seed), HeuristicBot(0.8)
    moves: list[GameCommand] = []
    holder: str | None = None
    other = "r18"  # twin B's card, never drawn by anyone in twin A's script
    while not game.is_over:
        question = game.awaiting
        assert question is not None
        if question.decision is Decision.ROLL:
            command: GameCommand = RollDice(player=question.player, faces=dice.roll(len(question.dice)))
        elif question.decision == RAGE_DRAW:
            cards = [c.card for c in game.legal_commands() if isinstance(c, DrawCard) and c.card != other]
            command = DrawCard(player=question.player, card=cards[0])
        else:
            command = bot.choose(game, question, rng)
        events = game.play(command)
        moves.append(command)
        drawn = [e for e in events if isinstance(e, RageDrawn)]
        if holder is None and drawn:
            first = drawn[0]
            active = game.state.turn.player if game.state.turn is not None else None
            if active != first.player and _turns_until(game, first.player) >= 3:
                holder = first.player
                index = len(moves) - 1
            else:
                continue
        if holder is not None and any(isinstance(e, RageRevealed) and e.player == holder for e in events):
            b = list(moves)
            assert isinstance(b[index], DrawCard)
            b[index] = DrawCard(player=b[index].player, card=other)
            return moves, b, holder
    raise AssertionError("pick another bot seed: no Rage card stayed face down for three turns")


def _turns_until(game: Game, player: str) -> int:
    """Seats that play before ``player``'s next turn (the one just starting counted)."""
    state = game.state
    n = len(state.players)
    seat = state.by_id[player].seat  # type: ignore[index]
    return (seat - state.last_active_seat - 1) % n + 1


async def test_a_face_down_rage_card_shows_nowhere_until_its_holders_turn(twins: tuple[Twin, Twin]) -> None:  # noqa: F811
    moves_a, moves_b, holder = _script(bot_seed=7)
    assert moves_a[:-1] != moves_b[:-1] and moves_a[-1] == moves_b[-1]
    create, play = _table_game("twin-rage", {"A": TABLE_SEATS, "B": TABLE_SEATS}, modules=("UA2",))
    a, b = twins
    seen_a = await _serve_the_prefix(a, "twin-rage", create, play, tuple(moves_a[:-1]))
    seen_b = await _serve_the_prefix(b, "twin-rage", create, play, tuple(moves_b[:-1]))
    assert seen_a.version == seen_b.version >= 40, "pick another seed: too few events before the reveal"
    assert seen_a.logs and seen_a.metrics and seen_a.heard
    _assert_same(seen_a.channels(), seen_b.channels(), f"every channel ({holder}'s face-down card)")
    # the holder's turn starts: the card is revealed, the twins differ for every viewer
    n = len(moves_a) - 1
    after_a: dict[str, Any] = await _reveal(a, "twin-rage", play, n, moves_a[-1])
    after_b: dict[str, Any] = await _reveal(b, "twin-rage", play, n, moves_b[-1])
    changed = differences(after_a, after_b)
    for viewer in a.viewers:
        assert any(c.startswith(f"{viewer} GET /games/twin-rage: ") for c in changed), changed


# --- an online game: the players themselves are viewers ---------------------------------------

ONLINE_SEED = hashlib.sha256(b"ua2-online-0").digest()
UA2_RULESET = ruleset_of(["UA2"])


@dataclass(frozen=True, slots=True)
class OnlineScript:
    moves: tuple[GameCommand, ...]
    """The players' inputs (the server rolls and draws); the last one starts the holder's turn."""
    draws: tuple[str, ...]
    """Twin A's card of each draw, by number."""
    hidden: int
    """The number of the draw that differs (the holder's face-down card)."""
    other: str
    """Twin B's card for that draw: one twin A never draws before the reveal."""
    holder: str
    member_of: dict[str, str]


def _online_script(bot_seed: int) -> OnlineScript:
    """The online game as the server plays it (deal, rolls, draws from ``ONLINE_SEED``), the
    seated players' decisions the heuristic bot's, until the holder of the first Rage card drawn
    at least three turns before his own turn reveals it."""
    fairness = fairness_for(UA2_RULESET)
    members = [m for m, _ in PEOPLE]
    seated, seats = deal_seats(fairness, ONLINE_SEED, members, None, UA2_RULESET)
    engine = engine_for(UA2_RULESET)
    game: Game = engine.start(seats)  # type: ignore[assignment]
    dice = KindedDice(ONLINE_SEED)
    rng, bot = random.Random(bot_seed), HeuristicBot(0.8)
    cards: list[str] = []

    def server() -> list[Any]:
        produced: list[Any] = []
        while (need := engine.random_need(game)) is not None:
            if need.deck is not None:
                card = draw(ONLINE_SEED, need.deck, need.draw, need.cards)
                cards.append(card)
                values: tuple[Any, ...] = (card,)
            else:
                values = dice.roll(len(need.dice), None if need.all_base else need.dice)
            produced += engine.play(game, engine.supply(game, need, values))
        return produced

    server()
    moves: list[GameCommand] = []
    holder: str | None = None
    hidden = -1
    while not game.is_over:
        question = game.awaiting
        assert question is not None
        command = bot.choose(game, question, rng)
        events = game.play(command) + server()
        moves.append(command)
        if holder is None:
            for e in events:
                if isinstance(e, RageDrawn) and _turns_until(game, e.player) >= 3:
                    holder, hidden = e.player, cards.index(e.card)
                    break
        elif any(isinstance(e, RageRevealed) and e.player == holder for e in events):
            other = next(c for c in reversed(RAGE_DECKS["rage-1"]) if c[0] not in cards)[0]
            member_of = {f"p{i + 1}": m for i, m in enumerate(seated)}
            return OnlineScript(tuple(moves), tuple(cards), hidden, other, holder, member_of)
    raise AssertionError("pick another bot seed: no Rage card stayed face down for three turns")


async def test_an_online_face_down_rage_card_shows_nowhere_but_to_its_holder(
    twins: tuple[Twin, Twin],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = _online_script(bot_seed=3)
    game_id = "twin-rage-online"
    players: dict[str, dict[str, str]] = {}
    bystander = next(m for seat, m in script.member_of.items() if seat != script.holder)
    real = draw_derivation("draws-1")

    def twin_b_draw(seed: bytes, deck: str, number: int, cards: Sequence[str]) -> str:
        card = script.other if number == script.hidden else script.draws[number]
        assert card in cards, (number, card, cards)
        return card

    twin_b = dataclasses.replace(real, draw=twin_b_draw)

    async def create(twin: Twin) -> int:
        organiser = await _organiser(twin, SCOREKEEPER)
        await twin.resources.gateway.service.seeds.keep(game_id, ONLINE_SEED)
        body = {
            "command_id": f"create-{game_id}",
            "mode": "online",
            "player_count": 5,
            "game_id": game_id,
            "members": [{"member_id": m, "name": name} for m, name in PEOPLE],
            "ruleset": {"modules": ["UA2"]},
        }
        response = await twin.client.post("/games", json=body, headers=bearer(organiser))
        assert response.status_code == 201, response.text
        vault = twin.resources.gateway.tokens
        players[twin.label] = {m: await vault.issue_player(game_id, m) for m, _ in PEOPLE}
        twin.viewers = {
            "anonymous": None,
            "organiser": organiser,
            f"player {bystander}": players[twin.label][bystander],
        }
        twin.created = json.dumps(response.json()["state"], sort_keys=True)
        version: int = response.json()["version"]
        return version

    async def play(twin: Twin, n: int, move: GameCommand) -> tuple[int, str | None]:
        member = script.member_of[move.player]
        with monkeypatch.context() as patch:
            if twin.label == "B":  # the server of twin B draws the other card, only that one
                patch.setattr(game_service, "draw_derivation", lambda version: twin_b)
            response = await twin.client.post(
                f"/games/{game_id}/commands",
                json={"command": str(move), "command_id": f"move-{n}"},
                headers=bearer(players[twin.label][member]),
            )
        assert response.status_code == 200, response.text
        return response.json()["version"], response.text if member == bystander else None

    a, b = twins
    prefix = script.moves[:-1]
    seen_a = await _serve_the_prefix(a, game_id, create, play, prefix)
    seen_b = await _serve_the_prefix(b, game_id, create, play, prefix)
    assert seen_a.version == seen_b.version >= 40, "pick another seed: too few events before the reveal"
    _assert_same(seen_a.channels(), seen_b.channels(), f"every channel ({script.holder}'s face-down card)")
    # the holder himself sees his own card, and it differs between the twins
    holder_member = script.member_of[script.holder]
    own = []
    for twin in twins:
        state = await twin.client.get(f"/games/{game_id}", headers=bearer(players[twin.label][holder_member]))
        seat = next(p for p in state.json()["players"] if p["id"] == script.holder)
        own.append(seat["rage_cards"])
    assert own[0] != own[1] and script.other in own[1]
    n = len(script.moves) - 1
    after_a = await _reveal(a, game_id, play, n, script.moves[-1])
    after_b = await _reveal(b, game_id, play, n, script.moves[-1])
    changed = differences(after_a, after_b)
    for viewer in a.viewers:
        assert any(c.startswith(f"{viewer} GET /games/{game_id}: ") for c in changed), changed


# --- UA3: Pixie Pete's two cards and his choice -----------------------------------------------

PIXIE = CharacterId("pixie_pete")
PIXIE_SEATS = tuple(
    Seat(player=s.player, role=s.role, character=PIXIE if s.player == "p5" else s.character)
    for s in TABLE_SEATS
)


def _pixie_script(draws: tuple[str, str], keep: int) -> tuple[GameCommand, ...]:
    """p1 shoots Pixie Pete (p5) twice: he draws ``draws`` and keeps card ``keep``; three turns
    later (p2 makes p3 draw r01, which p3 reveals and aims at p4; p4's gatling) his own turn starts
    with the last input and reveals the card he kept."""
    lines = [
        "p1 roll shoot1 shoot1 beer beer dynamite",
        "p1 stop",
        "p1 target 0 p5",
        "p1 target 1 p5",
        "p1 target 2 p1",
        "p1 target 3 p1",
        f"p5 draw {draws[0]}",
        f"p5 draw {draws[1]}",
        f"p5 keep {keep}",
        "p2 roll shoot1 shoot1 gatling gatling dynamite",
        "p2 stop",
        "p2 target 0 p3",
        "p2 target 1 p3",
        "p3 draw r01",
        "p3 roll dynamite dynamite dynamite arrow arrow",
        "p3 target 5 p4",
        "p4 roll gatling gatling gatling dynamite dynamite",
        "p4 stop",
    ]
    return tuple(parse_command(line) for line in lines)


async def test_pixie_petes_two_cards_and_his_choice_show_nowhere_until_his_turn(
    twins: tuple[Twin, Twin],  # noqa: F811
) -> None:
    # twin A: r16 and r17, keeps the first (r16), r17 back to the pile; twin B: r18 and r15, keeps
    # the second (r15), r18 back. Every other draw is the same card, there to be drawn in both.
    moves_a = _pixie_script(("r16", "r17"), 0)
    moves_b = _pixie_script(("r18", "r15"), 1)
    assert [str(m) for m in moves_a] != [str(m) for m in moves_b] and moves_a[-1] == moves_b[-1]
    game = Game.start(list(PIXIE_SEATS), rules=rules_of(ruleset_of(["UA2", "UA3"])))
    for move in moves_a:
        game.play(move)
    assert any(isinstance(e, RageRevealed) and e.player == "p5" and e.cards == ("r16",) for e in game.events)
    create, play = _table_game("twin-pixie", {"A": PIXIE_SEATS, "B": PIXIE_SEATS}, modules=("UA2", "UA3"))
    a, b = twins
    seen_a = await _serve_the_prefix(a, "twin-pixie", create, play, moves_a[:-1])
    seen_b = await _serve_the_prefix(b, "twin-pixie", create, play, moves_b[:-1])
    assert seen_a.version == seen_b.version >= 40, "too few events before the reveal"
    assert seen_a.logs and seen_a.metrics and seen_a.heard
    what = "every channel (Pixie Pete's two cards and his choice)"
    _assert_same(seen_a.channels(), seen_b.channels(), what)
    # his turn starts: the card he kept is revealed, the twins differ for every viewer
    n = len(moves_a) - 1
    after_a: dict[str, Any] = await _reveal(a, "twin-pixie", play, n, moves_a[-1])
    after_b: dict[str, Any] = await _reveal(b, "twin-pixie", play, n, moves_b[-1])
    changed = differences(after_a, after_b)
    for viewer in a.viewers:
        assert any(c.startswith(f"{viewer} GET /games/twin-pixie: ") for c in changed), changed
