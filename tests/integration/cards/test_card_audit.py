"""Online card games stored by the game service on a real PostgreSQL: the server shuffles and
picks at random by ``shuffles-1``, the audit re-derives every deck and pick from the revealed
seed, and a tampered shuffle or pick is named in words."""

from __future__ import annotations

import math
import random
from datetime import timedelta

from event_store import PostgresEventStore
from services.game.application.lifecycle import DecisionTimedOut, GameMode, GameOptions
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.application.session import GameStatus
from services.game.audit import audit_game
from services.game.audit.report import CHAIN, DEAL, REPLAY, RESULT, ROLLS
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import card as card_of
from services.game.rules.ruleset import parse_ruleset
from tests.integration.audit.test_audit_store import check, tamper

ORGANISER = Actor(kind=ActorKind.ORGANISER, id="club-organiser")
MEMBERS = tuple(Member(member_id=f"m{i}", name=f"Player {i}") for i in range(1, 9))


async def card_game(service: GameService, players: int, rng_seed: int) -> str:
    """An online card game played to its end with random legal decisions by its seats."""
    ruleset = parse_ruleset("cards eight_players" if players == 8 else "cards")
    session = await service.create_game(
        NewGame(mode=GameMode.ONLINE, player_count=players, members=MEMBERS[:players], ruleset=ruleset),
        command_id=f"create-{rng_seed}",
        actor=ORGANISER,
    )
    rng = random.Random(rng_seed)
    for n in range(3_000):
        session = await service.load(session.game_id)
        if session.status is not GameStatus.ONGOING:
            return session.game_id
        game = session.game
        assert game is not None
        question = session.engine.question(game)
        assert question is not None and not question.random, question  # the server answers those
        hand = game.state.player(question.player).hand  # type: ignore[attr-defined]
        count = question.detail.get("count", 0)
        if question.decision == "discard" and math.comb(len(hand), count) > 50:
            command: object = cmd.Discard(player=question.player, cards=tuple(rng.sample(hand, count)))
        else:
            options = list(session.engine.legal_commands(game))
            if question.decision == "play" and len(options) > 1 and rng.random() < 0.8:
                options = [o for o in options if not isinstance(o, cmd.EndPlay)]
            command = rng.choice(options)
        member = session.seat_members[question.player]
        await service.play(
            session.game_id, command, actor=Actor(kind=ActorKind.PLAYER, id=member), command_id=f"c{n}"
        )
    raise AssertionError("the card game did not end")


async def test_an_online_card_game_audits_clean_with_every_deck_and_pick_re_derived(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await card_game(game_service, 4, rng_seed=3)
    recorded = await game_store.read_stream(f"game-{game_id}")
    types = [r.type for r in recorded]
    assert types[:4] == ["GameCreated", "PlayerJoined", "PlayerJoined", "PlayerJoined"]
    assert "cards.GameStarted" in types and "cards.DeckShuffled" in types and types[-1] == "SeedRevealed"
    assert recorded[0].data["fairness"] == {"deal": "deal-1", "dice": "dice-1", "shuffles": "shuffles-1"}
    assert recorded[0].data["ruleset"]["game_type"] == "cards"
    report = await audit_game(game_store, game_id)
    assert report.clean, report.verdict
    assert report.derivations == "deal-1 dice-1 shuffles-1" and report.ruleset == "cards"
    decks = types.count("cards.DeckShuffled")
    assert check(report, ROLLS).startswith(f"{decks} deck{'s' if decks > 1 else ''} and ")
    assert check(report, ROLLS).endswith("re-derived from the seed (shuffles-1): every card matches")
    # the verdict's summary names what was re-derived: the decks and the random picks, no rolls
    picks = check(report, ROLLS).split(" and ")[1].split()[0]
    assert "rolls" not in report.verdict, report.verdict
    assert report.verdict.startswith(
        f"clean: chain intact, {decks} deck{'s' if decks > 1 else ''} and {picks} random pick"
    ), report.verdict
    assert "re-derived from the seed, every input legal" in report.verdict
    from bang_cli.audit import render  # the CLI's caption says the same

    caption = str(render(report).renderables[0].caption)  # type: ignore[attr-defined]
    assert f"{decks} deck{'s' if decks > 1 else ''} and {picks} random pick" in caption, caption
    assert "rolls" not in caption and caption.endswith("re-derived from the seed (deal-1 dice-1 shuffles-1)")
    assert "(deal-1)" in check(report, DEAL)
    assert "game events match the rules" in check(report, REPLAY)
    assert "the game ended on turn" in check(report, RESULT)


async def test_a_tampered_shuffle_is_named_by_the_seed(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    game_id = await card_game(game_service, 5, rng_seed=4)
    recorded = await game_store.read_stream(f"game-{game_id}")
    shuffled = next(r for r in recorded if r.type == "cards.DeckShuffled")
    order = list(shuffled.data["order"])
    order[0], order[1] = order[1], order[0]  # the top two cards swapped
    await tamper(
        game_store.pool,
        game_id,
        f"""UPDATE events SET data = jsonb_set(data::jsonb, '{{{{order}}}}', '{order}')::json
             WHERE stream_name = {{stream}} AND version = {shuffled.version}""",
    )
    report = await audit_game(game_store, game_id)
    assert not report.clean
    assert check(report, CHAIN) == f"FAILED event {shuffled.version} was edited after it was stored"
    k = shuffled.version - next(r.version for r in recorded if r.type == "cards.GameStarted")
    assert check(report, ROLLS) == (
        f"FAILED event {shuffled.version}: the shuffle of the first deck puts {card_of(order[0]).text} "
        f"at place 1 from the top, but the seed gives {card_of(order[1]).text} (shuffles-1, after event {k})"
    )
    assert check(report, REPLAY).startswith(f"FAILED event {shuffled.version + 1}:")  # the deal follows it


async def test_a_tampered_random_pick_is_named_by_the_seed(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    for rng_seed in range(10, 30):
        game_id = await card_game(game_service, 4, rng_seed=rng_seed)
        recorded = await game_store.read_stream(f"game-{game_id}")
        picks = [
            r
            for r in recorded
            if r.type == "cards.CardTaken" and r.data.get("random") and r.data["hand_card"]
        ]
        if picks:
            break
    else:
        raise AssertionError("no game took a card at random")
    pick = picks[0]
    before = await game_service.load(game_id)
    assert before.status is GameStatus.ENDED
    others = [c for c in range(1, 81) if c != pick.data["card"]]
    forged = others[0]
    await tamper(
        game_store.pool,
        game_id,
        f"""UPDATE events SET data = jsonb_set(data::jsonb, '{{{{card}}}}', '{forged}')::json
             WHERE stream_name = {{stream}} AND version = {pick.version}""",
    )
    report = await audit_game(game_store, game_id)
    rolls = check(report, ROLLS)
    assert rolls.startswith(
        f"FAILED event {pick.version}: {pick.data['player']} took {card_of(forged).text} at random from "
        f"{pick.data['from_player']}'s hand, but the seed gives {card_of(pick.data['card']).text} (shuffles-1"
    ), rolls


async def test_a_card_seat_whose_time_is_up_gets_its_default_and_the_game_audits_clean_so_far(
    game_service: GameService, game_store: PostgresEventStore
) -> None:
    session = await game_service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=MEMBERS[:4],
            ruleset=parse_ruleset("cards"),
            options=GameOptions(decision_timeout_seconds=30),
        ),
        command_id="create-timeouts",
        actor=ORGANISER,
    )
    game_id = session.game_id
    applied: list[str] = []
    for _ in range(12):
        session = await game_service.load(game_id)
        assert session.game is not None and session.last_event_at is not None
        question = session.engine.question(session.game)
        assert question is not None and not question.random
        early = await game_service.apply_timeout(game_id, session.last_event_at + timedelta(seconds=29))
        assert early is None
        outcome = await game_service.apply_timeout(game_id, session.last_event_at + timedelta(seconds=31))
        assert outcome is not None
        timed_out = outcome.events[0]
        assert isinstance(timed_out, DecisionTimedOut) and timed_out.player == question.player
        applied.append(timed_out.applied)
    assert any(a.endswith(" end") for a in applied), applied  # phase 2's default: end the play
    report = await audit_game(game_store, game_id)
    assert report.clean, report.verdict
    assert "so far" in report.verdict
    assert "no seed revealed yet to re-derive the decks and random picks from" in report.verdict
