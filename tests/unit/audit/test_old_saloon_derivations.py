"""The audit re-derives Old Saloon's derivations: each die's face on its kind's table (the kind
from the engine's state on the stored events), the special-role deal and the character pool,
and names a tampered Loudmouth face or special role in a referee's words."""

from __future__ import annotations

import dataclasses

import msgspec

from services.game.application.lifecycle import GameCreated, GameMode, PlayerJoined, SeatsDealt, SeedRevealed
from services.game.audit.report import NOT_CHECKED
from services.game.audit.seed import check_deal, check_rolls, roll_kinds
from services.game.audit.stream import StoredEvent, parse_stream
from services.game.fairness.dice import commitment
from services.game.fairness.dice_kinds import KindedDice
from services.game.fairness.registry import deal_seats, fairness_for
from services.game.rules.dice import Game, Reroll, RollDice
from services.game.rules.dice import events as ev
from services.game.rules.dice.kinds import BASE, COWARD, LOUDMOUTH
from services.game.rules.dice.modules import BASE_GAME_RULES, Rules
from services.game.rules.dice.vocabulary import CharacterId, Face, SpecialRole
from services.game.rules.ruleset import ruleset_of
from tests.unit.audit.games import SEED, numbered

# A hand of three base dice, the Coward and the Loudmouth, as OS1's Saloon die choice gives it
# (the engine's module is not needed to fold the stored events: the hand is the rules' own hook).
SALOON_RULES: Rules = dataclasses.replace(
    BASE_GAME_RULES,
    hand=lambda state, player: (BASE, BASE, BASE, COWARD, LOUDMOUTH),
    die_kinds={"base": BASE, "coward": COWARD, "loudmouth": LOUDMOUTH},
)


def saloon_rolls() -> list[StoredEvent]:
    """A game's opening: a first roll of the five dice, then a reroll of dice 0, 1, 3 and 4,
    every face from ``dice-2`` on the kind of its die."""
    seats = deal_seats(fairness_for(ruleset_of(["OS1"])), SEED, ["a", "b", "c", "d", "e"])[1]
    game = Game.start(seats, None, SALOON_RULES)
    dice = KindedDice(SEED)

    def roll() -> None:
        question = game.awaiting
        assert question is not None
        kinds = [game.state.turn.kinds[i].name for i in question.dice]  # type: ignore[union-attr]
        game.play(RollDice(player=question.player, faces=dice.roll(len(question.dice), kinds)))

    roll()
    game.play(Reroll(player=game.events[1].player, dice=(0, 1, 3, 4)))  # type: ignore[attr-defined]
    roll()
    return numbered(list(game.events))


def rolled(engine: list[StoredEvent]) -> list[tuple[int, ev.DiceRolled]]:
    return [(s.number, s.event) for s in engine if isinstance(s.event, ev.DiceRolled)]


def test_the_kind_of_each_rolled_die_comes_from_the_engines_state() -> None:
    engine = saloon_rolls()
    (first_n, first), (second_n, second) = rolled(engine)
    kinds, stopped = roll_kinds(engine, SALOON_RULES)
    assert stopped is None
    assert kinds == {
        first_n: ("base", "base", "base", "coward", "loudmouth"),
        second_n: ("base", "base", "coward", "loudmouth"),
    }
    # pinned faces: dice-2's indices 3 0 1 5 4 | 1 1 5 1 on those kinds
    assert first.faces == (Face.SHOOT2, Face.ARROW, Face.DYNAMITE, Face.BROKEN_ARROW, Face.SHOOT2X2)
    assert second.dice == (0, 1, 3, 4)
    assert second.faces == (Face.DYNAMITE, Face.DYNAMITE, Face.BROKEN_ARROW, Face.DYNAMITE)
    check, count = check_rolls(engine, SEED, "dice-2", SALOON_RULES)
    assert (check.passed, count) == (True, 2)
    assert check.detail == "2 rolls (9 faces) re-derived from the seed (dice-2): every face matches"


def test_a_tampered_loudmouth_face_is_named_with_its_die_and_kind() -> None:
    engine = saloon_rolls()
    number, first = rolled(engine)[0]
    faces = (*first.faces[:4], Face.GATLINGX2)  # the Loudmouth showed shoot2x2
    forged = [
        StoredEvent(s.number, msgspec.structs.replace(first, faces=faces)) if s.number == number else s
        for s in engine
    ]
    check, count = check_rolls(forged, SEED, "dice-2", SALOON_RULES)
    assert not check.passed and count == 0
    assert check.detail == (
        f"event {number}: p4's roll shows shoot2 arrow dynamite broken_arrow gatlingx2, but the seed "
        "gives shoot2 arrow dynamite broken_arrow shoot2x2 (die 4, the Loudmouth die, shows gatlingx2; "
        "the seed gives shoot2x2)"
    )


def test_the_same_faces_read_as_base_dice_are_not_what_the_seed_gives() -> None:
    # a Coward face where the seed's stream, read on a base die, gives another: dice-1 says so
    engine = saloon_rolls()
    check, _ = check_rolls(engine, SEED, "dice-1")
    assert not check.passed
    assert "but the seed gives shoot2 arrow dynamite gatling beer" in check.detail


def test_dice_whose_kinds_cannot_be_followed_are_not_checked() -> None:
    engine = saloon_rolls()
    check, count = check_rolls(engine[1:], SEED, "dice-2", SALOON_RULES)  # no GameStarted
    assert not check.passed and count == 0
    assert check.detail == f"{NOT_CHECKED} the store has no GameStarted to follow the dice from"


# --- the special-role deal ---------------------------------------------------------------------


def os3_stream(players: int = 5, change: dict[str, object] | None = None) -> list[StoredEvent]:
    """An online Old Saloon game with OS3 and OS4, as the service stores its deal, and the seed
    revealed. ``change`` replaces fields of p3's seat in GameStarted (a forger's edit)."""
    ruleset = ruleset_of(["OS1", "OS3", "OS4"])
    fairness = fairness_for(ruleset)
    members = [f"m{i}" for i in range(1, players + 1)]
    seated, seats = deal_seats(fairness, SEED, members, None, ruleset)
    if change:
        seats[2] = msgspec.structs.replace(seats[2], **change)
    events: list[msgspec.Struct] = [
        GameCreated(
            game_id="os",
            mode=GameMode.ONLINE,
            player_count=players,
            seed_commitment=commitment(SEED),
            ruleset=ruleset,
            fairness=fairness,
        ),
        *[PlayerJoined(member_id=m, name=m.upper()) for m in members],
        SeatsDealt(members=tuple(seated)),
        ev.GameStarted(seats=tuple(seats)),
        SeedRevealed(seed=SEED.hex()),
    ]
    return numbered(events)


def test_an_old_saloon_deal_is_re_derived_with_its_special_roles_and_pool() -> None:
    stream = os3_stream()
    started = stream[-2].event
    assert isinstance(started, ev.GameStarted)
    assert [(s.role.value, s.special, s.character) for s in started.seats] == [
        ("renegade", SpecialRole.MAIN_DROITE, CharacterId.BLACK_JACK),
        ("outlaw", SpecialRole.LE_VILAIN, CharacterId.JOURDONNAIS),
        ("deputy", SpecialRole.LE_JUGE, CharacterId.MOLLY_STARK),
        ("sheriff", SpecialRole.L_OURS, CharacterId.VERA_CUSTER),
        ("outlaw", SpecialRole.LE_MAUVAIS, CharacterId.SID_KETCHUM),
    ]
    check = check_deal(parse_stream(stream), SEED)
    assert check.passed
    assert check.detail == (
        "the seat order of event 7 and the roles, special roles and characters of event 8 are the "
        "ones the seed deals (deal-2 roles-os3-1)"
    )


def test_a_tampered_special_role_is_named() -> None:
    check = check_deal(parse_stream(os3_stream(change={"special": SpecialRole.LE_DOC})), SEED)
    assert not check.passed
    assert check.detail == "event 8: p3 holds Le Doc, but the seed deals p3 Le Juge"
    missing = check_deal(parse_stream(os3_stream(change={"special": None})), SEED)
    assert missing.detail == "event 8: p3 holds no special role, but the seed deals p3 Le Juge"


def test_a_character_outside_the_seeds_pool_deal_is_named() -> None:
    # Apache Kid needs OS2: the seed's pool for this game does not hold him
    check = check_deal(parse_stream(os3_stream(change={"character": CharacterId.APACHE_KID})), SEED)
    assert not check.passed
    assert check.detail == "event 8: p3 plays Apache Kid, but the seed deals p3 Molly Stark"


def test_a_game_recording_versions_that_cannot_deal_its_ruleset_is_named() -> None:
    stream = os3_stream()
    created = stream[0].event
    assert isinstance(created, GameCreated)
    without = msgspec.structs.replace(created, fairness=fairness_for(ruleset_of(["OS1", "OS4"])))
    check = check_deal(parse_stream([StoredEvent(1, without), *stream[1:]]), SEED)
    assert not check.passed
    assert check.detail == (
        "deal-2 cannot deal this game (dice OS1 OS3 OS4): dice OS1 OS3 OS4 has special roles (OS3), "
        "but the game records no special-role deal"
    )

