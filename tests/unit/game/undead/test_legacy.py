"""UA5, legacy (RULINGS-expansions §UA5; docs/rulings.md "Legacy series"): from a finished game
and the entries between games to the next game's setup. Five seats p1..p5 clockwise; in the
finished game p1 is the Sheriff, p2 Renegade, p3 Outlaw, p4 Outlaw, p5 Deputy."""

from __future__ import annotations

import msgspec
import pytest

from services.game.rules.dice import Game, PlayerId, Role, Seat
from services.game.rules.dice import events as ev
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.setup import new_game
from services.game.rules.dice.undead.legacy import (
    LEGACY_BONUS,
    Ask,
    CharacterDrawn,
    ChooseCharacter,
    FinishedGame,
    KeepCharacter,
    LegacyError,
    LegacyPlan,
    NextSheriff,
    RolesDrawn,
    SheriffDrawn,
)
from services.game.rules.dice.vocabulary import Cause, CharacterId, Side
from services.game.rules.ruleset import ModuleId

UA5_RULES = rules_for([ModuleId.UA5])
ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
CHARACTERS = ("paul_regret", "jourdonnais", "willy_the_kid", "rose_doolan", "lucky_duke")
P = [PlayerId(f"p{i}") for i in range(1, 6)]


def started(roles: tuple[Role, ...] = ROLES) -> ev.GameStarted:
    return ev.GameStarted(
        seats=tuple(
            Seat(player=p, role=r, character=CharacterId(c))
            for p, r, c in zip(P, roles, CHARACTERS, strict=True)
        )
    )


def result(
    i: int,
    role: Role,
    *,
    alive: bool,
    by: str | None = None,
    turn: int | None = None,
    cause: Cause | None = None,
) -> ev.PlayerResult:
    return ev.PlayerResult(
        player=P[i - 1],
        role=role,
        character=CharacterId(CHARACTERS[i - 1]),
        side=Side.LAW,
        won=False,
        alive=alive,
        eliminated_by=None if by is None else PlayerId(by),
        eliminated_cause=None if alive else (cause or Cause.SHOOT1),
        eliminated_turn=None if alive else turn,
    )


def finished(*results: ev.PlayerResult, order: tuple[str, ...] | None = None) -> FinishedGame:
    ended = ev.GameEnded(winning_side=Side.OUTLAWS, winners=(), results=results, turn=9)
    return FinishedGame(started(), ended, None if order is None else tuple(PlayerId(p) for p in order))


def sheriff_killed_by_p3() -> FinishedGame:
    """Outlaws win: p3 shot the Sheriff at turn 8; p2 fell at turn 3 (by p4), p5 at turn 5 (by p3)."""
    return finished(
        result(1, Role.SHERIFF, alive=False, by="p3", turn=8),
        result(2, Role.RENEGADE, alive=False, by="p4", turn=3),
        result(3, Role.OUTLAW, alive=True),
        result(4, Role.OUTLAW, alive=True),
        result(5, Role.DEPUTY, alive=False, by="p3", turn=5),
        order=("p2", "p5", "p1"),
    )


def sheriff_survived() -> FinishedGame:
    """The law wins: p1 and p5 alive; p2, p3, p4 fell in that order."""
    return finished(
        result(1, Role.SHERIFF, alive=True),
        result(2, Role.RENEGADE, alive=False, by="p1", turn=2),
        result(3, Role.OUTLAW, alive=False, by="p5", turn=4),
        result(4, Role.OUTLAW, alive=False, by="p1", turn=6),
        result(5, Role.DEPUTY, alive=True),
        order=("p2", "p3", "p4"),
    )


def asked(plan: LegacyPlan) -> tuple[Ask, str] | None:
    q = plan.asked
    return None if q is None else (q.ask, q.player)


def test_the_killer_of_the_sheriff_is_the_next_sheriff_without_bonus() -> None:
    plan = LegacyPlan(sheriff_killed_by_p3(), UA5_RULES)
    assert plan.sheriff == "p3"
    # survivors in seat order from the new Sheriff: p3, then p4
    assert asked(plan) == (Ask.KEEP_CHARACTER, "p3")
    plan = plan.enter(KeepCharacter(player=P[2], keep=True))
    assert asked(plan) == (Ask.KEEP_CHARACTER, "p4")
    plan = plan.enter(KeepCharacter(player=P[3], keep=False))
    # eliminated players in order of elimination: p2, p5, p1
    assert asked(plan) == (Ask.CHOOSE_CHARACTER, "p2")
    plan = plan.enter(ChooseCharacter(player=P[1], character=CharacterId.BART_CASSIDY))
    assert asked(plan) == (Ask.CHOOSE_CHARACTER, "p5")
    plan = plan.enter(ChooseCharacter(player=P[4], character=CharacterId.BLACK_JACK))
    assert asked(plan) == (Ask.CHOOSE_CHARACTER, "p1")
    plan = plan.enter(ChooseCharacter(player=P[0], character=CharacterId.EL_GRINGO))
    # then the redrawing survivor draws from what is left
    q = plan.asked
    assert q is not None and (q.ask, q.player) == (Ask.CHARACTER_DRAW, "p4")
    assert q.is_draw
    for gone in (*CHARACTERS, "bart_cassidy", "black_jack", "el_gringo"):
        assert gone not in q.among
    assert "kit_carlson" in q.among
    plan = plan.enter(CharacterDrawn(player=P[3], character=CharacterId.KIT_CARLSON))
    q = plan.asked
    assert q is not None and (q.ask, q.player) == (Ask.ROLES_DRAW, "p3")
    assert sorted(q.among) == sorted(["renegade", "outlaw", "outlaw", "deputy"])
    # the other roles in seat order from p3: p4, p5, p1, p2
    plan = plan.enter(RolesDrawn(player=P[2], roles=(Role.OUTLAW, Role.DEPUTY, Role.RENEGADE, Role.OUTLAW)))
    setup = plan.setup
    assert setup is not None and setup.sheriff == "p3" and setup.legacy_bonus == 0
    assert [(s.player, s.role, s.character) for s in setup.seats] == [
        ("p1", Role.RENEGADE, "el_gringo"),
        ("p2", Role.OUTLAW, "bart_cassidy"),
        ("p3", Role.SHERIFF, "willy_the_kid"),
        ("p4", Role.OUTLAW, "kit_carlson"),
        ("p5", Role.DEPUTY, "black_jack"),
    ]
    assert all(s.legacy_bonus == 0 for s in setup.seats)


def test_a_surviving_sheriff_designates_another_who_gets_the_bonus() -> None:
    plan = LegacyPlan(sheriff_survived(), UA5_RULES)
    assert asked(plan) == (Ask.NEXT_SHERIFF, "p1")
    plan = plan.enter(NextSheriff(player=P[0], sheriff=P[4]))
    assert plan.sheriff == "p5"
    assert asked(plan) == (Ask.KEEP_CHARACTER, "p5")  # from the new Sheriff: p5, then p1
    plan = plan.enter(KeepCharacter(player=P[4], keep=True))
    plan = plan.enter(KeepCharacter(player=P[0], keep=True))
    plan = plan.enter(ChooseCharacter(player=P[1], character=CharacterId.BART_CASSIDY))
    plan = plan.enter(ChooseCharacter(player=P[2], character=CharacterId.BLACK_JACK))
    plan = plan.enter(ChooseCharacter(player=P[3], character=CharacterId.EL_GRINGO))
    plan = plan.enter(RolesDrawn(player=P[4], roles=(Role.DEPUTY, Role.OUTLAW, Role.OUTLAW, Role.RENEGADE)))
    setup = plan.setup
    assert setup is not None and setup.sheriff == "p5" and setup.legacy_bonus == LEGACY_BONUS
    sheriff_seat = next(s for s in setup.seats if s.player == "p5")
    assert sheriff_seat.role is Role.SHERIFF and sheriff_seat.legacy_bonus == 1
    # the game starts with Lucky Duke at 8 + 2 + 1 life, max life too
    game = Game.start(setup.seats, rules=UA5_RULES)
    p5 = game.state.by_id[PlayerId("p5")]
    assert (p5.life, p5.max_life) == (11, 11)
    assert game.state.by_id[PlayerId("p1")].life == 9  # Paul Regret, no bonus
    assert new_game(setup.seats, rules=UA5_RULES).seats[4].legacy_bonus == 1


def test_a_sheriff_who_designates_himself_gets_no_bonus() -> None:
    plan = LegacyPlan(sheriff_survived(), UA5_RULES).enter(NextSheriff(player=P[0], sheriff=P[0]))
    assert plan.sheriff == "p1"
    plan = plan.enter(KeepCharacter(player=P[0], keep=True)).enter(KeepCharacter(player=P[4], keep=True))
    for p, c in ((1, "bart_cassidy"), (2, "black_jack"), (3, "el_gringo")):
        plan = plan.enter(ChooseCharacter(player=P[p], character=CharacterId(c)))
    plan = plan.enter(RolesDrawn(player=P[0], roles=(Role.OUTLAW, Role.OUTLAW, Role.RENEGADE, Role.DEPUTY)))
    setup = plan.setup
    assert setup is not None and setup.legacy_bonus == 0
    game = Game.start(setup.seats, rules=UA5_RULES)
    assert game.state.by_id[PlayerId("p1")].max_life == 11  # Paul Regret 9 + 2


def test_only_the_surviving_sheriff_designates_and_only_a_player_of_the_series() -> None:
    plan = LegacyPlan(sheriff_survived(), UA5_RULES)
    with pytest.raises(LegacyError, match="next_sheriff is p1's to decide, not p5's"):
        plan.enter(NextSheriff(player=P[4], sheriff=P[4]))
    with pytest.raises(LegacyError, match="p9 is not a player of the series"):
        plan.enter(NextSheriff(player=P[0], sheriff=PlayerId("p9")))
    with pytest.raises(LegacyError, match="p1 next_sheriff is asked now, not keep_character"):
        plan.enter(KeepCharacter(player=P[0], keep=True))
    assert plan.entries == ()  # nothing entered by a refusal


def test_no_player_source_means_a_seeded_draw_among_the_others() -> None:
    game = finished(
        result(1, Role.SHERIFF, alive=False, by=None, turn=7, cause=Cause.DYNAMITE),
        result(2, Role.RENEGADE, alive=True),
        result(3, Role.OUTLAW, alive=True),
        result(4, Role.OUTLAW, alive=False, by="p5", turn=2),
        result(5, Role.DEPUTY, alive=False, by="p3", turn=4),
    )
    plan = LegacyPlan(game, UA5_RULES)
    q = plan.asked
    assert q is not None and q.ask is Ask.SHERIFF_DRAW and q.is_draw
    assert q.among == ("p2", "p3", "p4", "p5")
    with pytest.raises(LegacyError, match="drawn among p2, p3, p4, p5, not p1"):
        plan.enter(SheriffDrawn(player=P[0]))
    plan = plan.enter(SheriffDrawn(player=P[3]))
    assert plan.sheriff == "p4"
    # survivors from p4: p2 comes after p4, p5, p1 → p2, p3
    assert asked(plan) == (Ask.KEEP_CHARACTER, "p2")
    plan = plan.enter(KeepCharacter(player=P[1], keep=True)).enter(KeepCharacter(player=P[2], keep=True))
    # no events: by turn of elimination (p4 at 2, p5 at 4, p1 at 7)
    assert [asked(plan)] == [(Ask.CHOOSE_CHARACTER, "p4")]


def test_same_turn_eliminations_without_events_go_in_seat_order_from_the_new_sheriff() -> None:
    game = finished(
        result(1, Role.SHERIFF, alive=False, by="p4", turn=5),
        result(2, Role.RENEGADE, alive=False, by="p4", turn=5),
        result(3, Role.OUTLAW, alive=True),
        result(4, Role.OUTLAW, alive=True),
        result(5, Role.DEPUTY, alive=False, by="p4", turn=5),
    )
    plan = LegacyPlan(game, UA5_RULES)
    assert plan.eliminated() == ["p5", "p1", "p2"]


def test_from_events_reads_the_order_of_elimination() -> None:
    game = sheriff_killed_by_p3()
    events: list[ev.Event] = [
        game.started,
        ev.PlayerEliminated(player=P[4], role=Role.DEPUTY, source=P[2], cause=Cause.SHOOT1, turn=5),
        ev.PlayerEliminated(player=P[1], role=Role.RENEGADE, source=P[3], cause=Cause.SHOOT1, turn=3),
        ev.PlayerEliminated(player=P[0], role=Role.SHERIFF, source=P[2], cause=Cause.SHOOT1, turn=8),
        game.ended,
    ]
    plan = LegacyPlan(FinishedGame.from_events(events), UA5_RULES)
    assert plan.eliminated() == ["p5", "p2", "p1"]
    with pytest.raises(LegacyError, match="not finished"):
        FinishedGame.from_events(events[:-1])


def test_a_chooser_may_not_take_a_used_or_taken_character_nor_one_out_of_the_pool() -> None:
    plan = LegacyPlan(sheriff_killed_by_p3(), UA5_RULES)
    plan = plan.enter(KeepCharacter(player=P[2], keep=True)).enter(KeepCharacter(player=P[3], keep=False))
    with pytest.raises(LegacyError, match="p2 cannot have jourdonnais: it was used in the finished game"):
        plan.enter(ChooseCharacter(player=P[1], character=CharacterId.JOURDONNAIS))
    with pytest.raises(LegacyError, match="choose_character is p2's to decide, not p5's"):
        plan.enter(ChooseCharacter(player=P[4], character=CharacterId.BART_CASSIDY))
    plan = plan.enter(ChooseCharacter(player=P[1], character=CharacterId.BART_CASSIDY))
    with pytest.raises(LegacyError, match="p5 cannot have bart_cassidy: it is already taken"):
        plan.enter(ChooseCharacter(player=P[4], character=CharacterId.BART_CASSIDY))
    # pool rules (§1): José Delgado needs OS1; in a UA5 + OS4 series without OS1 he is not dealt
    with_os4 = LegacyPlan(sheriff_killed_by_p3(), rules_for([ModuleId.OS4, ModuleId.UA5]))
    with_os4 = with_os4.enter(KeepCharacter(player=P[2], keep=True)).enter(
        KeepCharacter(player=P[3], keep=True)
    )
    q = with_os4.asked
    assert q is not None and "jose_delgado" not in q.among and "vera_custer" in q.among
    with pytest.raises(LegacyError, match="jose_delgado: it is not in this series' character pool"):
        with_os4.enter(ChooseCharacter(player=P[1], character=CharacterId.JOSE_DELGADO))
    # a base-game series has no OS4 character at all
    with pytest.raises(LegacyError, match="not in this series' character pool"):
        plan.enter(ChooseCharacter(player=P[4], character=CharacterId.VERA_CUSTER))


def test_the_roles_draw_must_be_the_role_table_less_the_sheriff() -> None:
    plan = LegacyPlan(sheriff_survived(), UA5_RULES).enter(NextSheriff(player=P[0], sheriff=P[0]))
    plan = plan.enter(KeepCharacter(player=P[0], keep=True)).enter(KeepCharacter(player=P[4], keep=True))
    for p, c in ((1, "bart_cassidy"), (2, "black_jack"), (3, "el_gringo")):
        plan = plan.enter(ChooseCharacter(player=P[p], character=CharacterId(c)))
    with pytest.raises(LegacyError, match="the other seats take exactly these roles"):
        plan.enter(RolesDrawn(player=P[0], roles=(Role.OUTLAW, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)))
    done = plan.enter(RolesDrawn(player=P[0], roles=(Role.OUTLAW, Role.OUTLAW, Role.RENEGADE, Role.DEPUTY)))
    with pytest.raises(LegacyError, match="setup is complete"):
        done.enter(KeepCharacter(player=P[0], keep=True))


def test_le_bien_makes_the_holder_of_the_sheriff_role_at_the_end_the_sheriff() -> None:
    # p5 (Le Bien) became the Sheriff; p1 ended as a Deputy; p5 survived and decides
    game = finished(
        result(1, Role.DEPUTY, alive=True),
        result(2, Role.RENEGADE, alive=False, by="p1", turn=2),
        result(3, Role.OUTLAW, alive=False, by="p5", turn=4),
        result(4, Role.OUTLAW, alive=False, by="p1", turn=6),
        result(5, Role.SHERIFF, alive=True),
    )
    plan = LegacyPlan(game, UA5_RULES)
    assert asked(plan) == (Ask.NEXT_SHERIFF, "p5")
    with pytest.raises(LegacyError, match="p5's to decide, not p1's"):
        plan.enter(NextSheriff(player=P[0], sheriff=P[0]))


def test_a_legacy_series_needs_four_to_eight_players() -> None:
    seats = tuple(
        Seat(player=P[i], role=r, character=CharacterId(CHARACTERS[i]))
        for i, r in enumerate((Role.DEPUTY, Role.OUTLAW, Role.RENEGADE))
    )
    three = FinishedGame(
        ev.GameStarted(seats=seats),
        ev.GameEnded(winning_side=Side.OUTLAW, winners=(), results=(), turn=3),
    )
    with pytest.raises(InvalidSetup, match="4 to 8 players, not 3"):
        LegacyPlan(three, UA5_RULES)


def test_the_engine_refuses_a_bonus_without_ua5_or_off_the_sheriff() -> None:
    seats = [
        Seat(player=p, role=r, character=CharacterId(c)) for p, r, c in zip(P, ROLES, CHARACTERS, strict=True)
    ]
    with_bonus = [
        Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.PAUL_REGRET, legacy_bonus=1),
        *seats[1:],
    ]
    with pytest.raises(InvalidSetup, match="legacy life bonus, but UA5 is not played"):
        Game.start(with_bonus, rules=rules_for())
    on_deputy = [
        *seats[:4],
        Seat(player=P[4], role=Role.DEPUTY, character=CharacterId.LUCKY_DUKE, legacy_bonus=1),
    ]
    with pytest.raises(InvalidSetup, match="only the designated Sheriff gets the legacy bonus"):
        Game.start(on_deputy, rules=UA5_RULES)
    two = [
        Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.PAUL_REGRET, legacy_bonus=2),
        *seats[1:],
    ]
    with pytest.raises(InvalidSetup, match="the legacy bonus is 1 life, not 2"):
        Game.start(two, rules=UA5_RULES)
    # a seat without the bonus encodes as before (omitted)
    assert b"legacy_bonus" not in msgspec.json.encode(seats[0])
    assert b'"legacy_bonus":1' in msgspec.json.encode(with_bonus[0])


def test_a_series_games_record_carries_the_bonus_and_the_series_and_reads_back() -> None:
    import json

    from services.game.records import read_record, write_record
    from services.game.records.model import RecordMeta
    from services.game.records.writer import record_from_events
    from services.game.rules.ruleset import ruleset_of
    from tests.unit.records.test_schema import VALIDATOR

    seats = [
        Seat(player=p, role=r, character=CharacterId(c)) for p, r, c in zip(P, ROLES, CHARACTERS, strict=True)
    ]
    seats[0] = Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.PAUL_REGRET, legacy_bonus=1)
    game = Game.start(seats, rules=UA5_RULES)
    meta = RecordMeta(game_id="s.g2", series_id="s", previous_game_id="s.g1")
    text = write_record(record_from_events(game.events, meta=meta, ruleset=ruleset_of(["UA5"])))
    assert not list(VALIDATOR.iter_errors(json.loads(text)))
    back = read_record(json.loads(text))
    assert back.seats[0].legacy_bonus == 1 and back.seats[1].legacy_bonus == 0
    assert (back.meta.series_id, back.meta.previous_game_id) == ("s", "s.g1")


def test_when_everybody_fell_at_once_everybody_chooses_and_nobody_keeps() -> None:
    game = finished(
        result(1, Role.SHERIFF, alive=False, by=None, turn=6, cause=Cause.INDIAN_ATTACK),
        result(2, Role.RENEGADE, alive=False, by=None, turn=6, cause=Cause.INDIAN_ATTACK),
        result(3, Role.OUTLAW, alive=False, by="p2", turn=2),
        result(4, Role.OUTLAW, alive=False, by=None, turn=6, cause=Cause.INDIAN_ATTACK),
        result(5, Role.DEPUTY, alive=False, by="p4", turn=4),
        order=("p3", "p5", "p4", "p1", "p2"),
    )
    plan = LegacyPlan(game, UA5_RULES).enter(SheriffDrawn(player=P[4]))
    assert plan.survivors() == []
    for i, (p, c) in enumerate(
        zip(
            (2, 4, 3, 0, 1),
            ("bart_cassidy", "black_jack", "el_gringo", "kit_carlson", "sid_ketchum"),
            strict=True,
        )
    ):
        assert asked(plan) == (Ask.CHOOSE_CHARACTER, P[p]), i
        plan = plan.enter(ChooseCharacter(player=P[p], character=CharacterId(c)))
    plan = plan.enter(RolesDrawn(player=P[4], roles=(Role.OUTLAW, Role.RENEGADE, Role.OUTLAW, Role.DEPUTY)))
    setup = plan.setup
    assert setup is not None and setup.sheriff == "p5"
    assert [s.character for s in setup.seats] == [
        "kit_carlson",
        "sid_ketchum",
        "bart_cassidy",
        "el_gringo",
        "black_jack",
    ]
