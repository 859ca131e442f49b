"""UA3's Greg Digger, ``characters-ua3 ua3-2`` (RULINGS-expansions §UA3, §7 ``greg_heal``;
docs/rulings.md, UA3 table): each beer symbol he resolves gives two separate heals of 1, the
first to the beer's target as a base beer's, the second to a player he names per beer symbol
(``greg_heal``; the default declines). ``ua3-1`` games replay with both heals to the target.
Five seats: p1 Sheriff, p2 Renegade (Greg), p3 Outlaw, p4 Outlaw, p5 Deputy, clockwise."""

from __future__ import annotations

import random
from datetime import timedelta

import msgspec
import pytest

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import DecisionTimedOut, GameMode, GameOptions
from services.game.application.service import Actor, ActorKind, GameService, NewGame, TableSeat
from services.game.bots import HeuristicBot, RandomBot
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.records import (
    inputs_from_events,
    read_record,
    record_from_events,
    replay_record,
    write_record,
)
from services.game.rules.dice import Awaiting, Game, IllegalCommand, PlayerId, Role, Seat, parse_command
from services.game.rules.dice.commands import ChooseTarget, Decline
from services.game.rules.dice.events import LifeGained
from services.game.rules.dice.modules import rules_for, rules_of
from services.game.rules.dice.undead.characters import GREG_HEAL, SecondHealDeclined, SecondHealGiven
from services.game.rules.dice.vocabulary import Face, GainCause
from services.game.rules.ruleset import ModuleId, RulesetError, check_ruleset, ruleset_of

ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
CHARACTERS = ("paul_regret", "greg_digger", "willy_the_kid", "rose_doolan", "lucky_duke")
UA3 = rules_for([ModuleId.UA3])
UA3_RULESET = ruleset_of(["UA3"])
UA3_1_RULESET = msgspec.structs.replace(UA3_RULESET, data={**UA3_RULESET.data, "characters-ua3": "ua3-1"})
P2 = PlayerId("p2")

SHOTS = ("p1 roll shoot1 shoot1 shoot2 shoot2 arrow", "p1 stop", "p1 target 0 p2", "p1 target 1 p2")
SHOTS += ("p1 target 2 p3", "p1 target 3 p3")  # p2 (Greg, 7) at 5, p3 (Willy, 8) at 6
GREGS_BEERS = ("p2 roll beer beer arrow dynamite dynamite", "p2 stop", "p2 target 0 p3", "p2 target 1 p2")


def start(rules: object = UA3, **characters: str) -> Game:
    chosen = dict(zip(("p1", "p2", "p3", "p4", "p5"), CHARACTERS, strict=True)) | characters
    seats = [
        Seat(player=PlayerId(p), role=role, character=ch)  # type: ignore[arg-type]
        for (p, ch), role in zip(chosen.items(), ROLES, strict=True)
    ]
    return Game.start(seats, rules=rules)  # type: ignore[arg-type]


def play(game: Game, *lines: str) -> None:
    for line in lines:
        game.play(parse_command(line))


def asked(game: Game) -> Awaiting:
    q = game.awaiting
    assert q is not None
    return q


def life(game: Game, player: str) -> int:
    return game.state.by_id[PlayerId(player)].life


def test_the_first_heals_are_poured_then_one_question_per_beer_in_die_order() -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS)
    assert (life(game, "p2"), life(game, "p3")) == (6, 7)  # each first heal, as a base beer's
    assert asked(game) == Awaiting(player=P2, decision=GREG_HEAL, dice=(0,))
    assert asked(game).optional
    assert asked(game).describe() == "p2 to choose who gets the second heal of a beer (dice 1)"
    # decline, then every player in the game clockwise from Greg, himself first
    assert [str(c) for c in game.legal_commands()] == [
        "p2 decline",
        "p2 target p2",
        "p2 target p3",
        "p2 target p4",
        "p2 target p5",
        "p2 target p1",
    ]
    play(game, "p2 target p4")  # p4 is at his maximum: the heal is named, nothing is gained
    assert asked(game) == Awaiting(player=P2, decision=GREG_HEAL, dice=(1,))
    play(game, "p2 target p3")
    assert life(game, "p3") == 8
    assert asked(game).player == "p3" and asked(game).decision == "roll"
    assert SecondHealGiven(player=P2, target=PlayerId("p4"), die=0) in game.events
    gains = [e for e in game.events if isinstance(e, LifeGained) and e.source == P2]
    assert [(e.player, e.amount, e.cause) for e in gains] == [
        ("p3", 1, GainCause.BEER),
        ("p2", 1, GainCause.BEER),
        ("p3", 1, GainCause.BEER),
    ]


def test_the_answer_names_a_player_only_and_never_a_zombie_or_the_eliminated() -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS)
    with pytest.raises(IllegalCommand, match="Greg Digger names a player only"):
        game.play(ChooseTarget(player=P2, target=PlayerId("p3"), die=0))
    game.state.by_id[PlayerId("p4")].zombie_since = 1  # UA4's plain zombie, set by hand
    refusal = "p4 is a zombie and never gains life; to give no second heal, decline"
    with pytest.raises(IllegalCommand, match=refusal):
        game.play(ChooseTarget(player=P2, target=PlayerId("p4")))
    assert "p2 target p4" not in [str(c) for c in game.legal_commands()]
    game.state.by_id[PlayerId("p5")].alive = False
    with pytest.raises(IllegalCommand, match="p5 has been eliminated"):
        game.play(ChooseTarget(player=P2, target=PlayerId("p5")))
    with pytest.raises(Exception, match="p3 cannot act now"):
        game.play(Decline(player=PlayerId("p3")))


def test_the_default_gives_no_second_heal() -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS)
    default = UA3.decisions[GREG_HEAL].timeout(game.state, asked(game))
    assert default == Decline(player=P2)
    assert str(default) == "p2 decline"  # what a DecisionTimedOut records
    before = (life(game, "p2"), life(game, "p3"))
    game.play(default)
    assert SecondHealDeclined(player=P2, die=0) in game.events
    assert (life(game, "p2"), life(game, "p3")) == before
    assert asked(game) == Awaiting(player=P2, decision=GREG_HEAL, dice=(1,))


def test_a_double_beer_is_two_symbols_and_two_questions() -> None:
    game = start(rules_for([ModuleId.OS1, ModuleId.UA3]))
    play(game, "p1 saloon none", *SHOTS)
    play(game, "p2 saloon coward", "p2 roll dynamite arrow gatling gatling beerx2", "p2 stop")
    play(game, "p2 target 4 p2", "p2 target 4 p3")  # the coward die's two beer symbols
    assert asked(game) == Awaiting(player=P2, decision=GREG_HEAL, dice=(4,))
    play(game, "p2 target p2")
    assert asked(game) == Awaiting(player=P2, decision=GREG_HEAL, dice=(4,))
    play(game, "p2 target p3")
    assert (life(game, "p2"), life(game, "p3")) == (7, 8)


def test_no_beer_no_question() -> None:
    game = start()
    play(game, *SHOTS, "p2 roll shoot1 arrow gatling dynamite dynamite", "p2 stop", "p2 target 0 p1")
    assert asked(game).player == "p3"
    assert not any(isinstance(e, SecondHealGiven | SecondHealDeclined) for e in game.events)


def test_a_beer_cancelled_by_his_wound_token_asks_nothing() -> None:
    """UA1: Greg's `beer` wound token cancels one beer symbol (P4): that beer is never poured,
    so it has no second heal; the other beer asks once."""
    game = start(rules_for([ModuleId.UA1, ModuleId.UA2, ModuleId.UA3]), p1="greg_digger", p2="paul_regret")
    greg = game.state.by_id[PlayerId("p1")]
    greg.life = greg.max_life - 3
    assert game.state.duels is not None
    game.state.duels.held[greg.id] = [Face.BEER]  # drawn in an earlier duel, set by hand
    play(game, "p1 roll beer beer arrow dynamite dynamite", "p1 stop", "p1 target 0 p1")
    assert asked(game) == Awaiting(player=greg.id, decision=GREG_HEAL, dice=(0,))
    play(game, "p1 target p1")
    assert asked(game).player == "p2"
    assert [e for e in game.events if isinstance(e, SecondHealGiven | SecondHealDeclined)] == [
        SecondHealGiven(player=greg.id, target=greg.id, die=0)
    ]
    assert greg.life == greg.max_life - 1  # 1 from the beer, 1 from its second heal


def test_the_record_writes_the_answers_and_replays_the_same_game() -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS, "p2 target p2", "p2 decline")
    assert [str(c) for c in inputs_from_events(game.events[1:])][-2:] == ["p2 target p2", "p2 decline"]
    record = record_from_events(game.events, ruleset=UA3_RULESET)
    assert record.ruleset.data["characters-ua3"] == "ua3-2"
    replayed = replay_record(read_record(write_record(record)))
    assert replayed.events == game.events


def test_ua3_1_plays_both_heals_on_the_target_as_one_gain_and_asks_nothing() -> None:
    rules = rules_of(UA3_1_RULESET)
    assert rules is not UA3 and rules.pinned == (("characters-ua3", "ua3-1"),)
    assert rules.ruleset == UA3_1_RULESET
    assert GREG_HEAL not in rules.decisions
    game = start(rules)
    play(game, *SHOTS, *GREGS_BEERS)
    assert asked(game).player == "p3"
    gains = [e for e in game.events if isinstance(e, LifeGained) and e.source == P2]
    assert [(e.player, e.amount) for e in gains] == [("p3", 2), ("p2", 2)]
    # its record keeps the version, so it replays as ua3-1 again
    record = read_record(write_record(game))
    assert record.ruleset == UA3_1_RULESET
    assert replay_record(record).events == game.events


def test_new_games_get_ua3_2_and_ua3_1_is_still_a_known_version() -> None:
    assert UA3_RULESET.data["characters-ua3"] == "ua3-2"
    assert rules_of(UA3_RULESET) is UA3
    check_ruleset(UA3_1_RULESET, 5)  # recorded games of ua3-1 read and replay
    other = msgspec.structs.replace(UA3_RULESET, data={**UA3_RULESET.data, "characters-ua3": "ua3-9"})
    known = r"'characters-ua3' has no version 'ua3-9' \(known: ua3-1, ua3-2\)"
    with pytest.raises(RulesetError, match=known):
        check_ruleset(other, 5)


@pytest.mark.parametrize("care", [1.0, 0.8])
def test_the_heuristic_bot_gives_the_second_heal_to_someone_who_gains_and_never_a_zombie(care: float) -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS)
    game.state.by_id[PlayerId("p3")].zombie_since = 1
    choice = HeuristicBot(care).choose(game, asked(game), random.Random(1))
    assert choice in list(game.legal_commands())
    assert choice == ChooseTarget(player=P2, target=P2)  # Greg is hurt (6 of 7); p3 is a zombie
    assert RandomBot().choose(game, asked(game), random.Random(1)) in list(game.legal_commands())


FACES = ("beer", "beer", "shoot1", "shoot2", "arrow", "gatling", "dynamite")


def test_random_and_heuristic_play_with_greg_seated_always_ends() -> None:
    asked_of: list[str] = []
    for seed in range(8):
        rng = random.Random(seed)
        bot = HeuristicBot(0.8) if seed % 2 else RandomBot()
        game = start(p1="greg_digger", p2="jesse_jones")
        for _ in range(5000):
            if game.is_over:
                break
            q = asked(game)
            asked_of.append(str(q.decision))
            if q.decision == "roll":
                faces = " ".join(rng.choice(FACES) for _ in q.dice)
                game.play(parse_command(f"{q.player} roll {faces}"))
            else:
                game.play(bot.choose(game, q, rng))
        assert game.is_over
    assert asked_of.count("greg_heal") > 5


def test_the_heuristic_bot_gives_no_second_heal_when_it_would_be_wasted() -> None:
    game = start()
    play(game, *SHOTS, *GREGS_BEERS)
    for p in game.state.players:
        p.life = p.max_life
    assert HeuristicBot(1.0).choose(game, asked(game), random.Random(1)) == Decline(player=P2)


async def test_a_greg_heal_left_unanswered_times_out_to_decline_and_is_recorded() -> None:
    store = MemoryEventStore(mapper=GAME_MAPPER)
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    seats = tuple(
        TableSeat(member_id=f"m{i}", name=f"M{i}", role=role.value, character=character)
        for i, (role, character) in enumerate(zip(ROLES, CHARACTERS, strict=True), start=1)
    )
    spec = NewGame(
        mode=GameMode.TABLE,
        player_count=5,
        seats=seats,
        ruleset=UA3_RULESET,
        options=GameOptions(decision_timeout_seconds=30),
        game_id="greg",
    )
    keeper = Actor(kind=ActorKind.ORGANISER, id="scorekeeper")
    await service.create_game(spec, command_id="create", actor=keeper)
    for n, line in enumerate((*SHOTS, *GREGS_BEERS)):
        await service.play("greg", parse_command(line), actor=keeper, command_id=f"c{n}")
    session = await service.load("greg")
    assert session.last_event_at is not None
    assert await service.apply_timeout("greg", now=session.last_event_at + timedelta(seconds=29)) is None
    outcome = await service.apply_timeout("greg", now=session.last_event_at + timedelta(seconds=30))
    assert outcome is not None
    timed_out = outcome.events[0]
    assert isinstance(timed_out, DecisionTimedOut)
    assert (timed_out.decision, timed_out.applied) == ("greg_heal", "p2 decline")
    assert SecondHealDeclined(player=P2, die=0) in outcome.events
